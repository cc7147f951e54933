import { afterEach, describe, expect, it } from "vitest";
import { StreamExecutionEnvironment } from "../../api/environment.ts";
import { Row } from "../data/row.ts";
import { RowKind } from "../data/row-kind.ts";
import { BLACKHOLE_TABLE_FACTORY } from "./blackhole-table-factory.ts";
import { builtinTableFactories } from "./builtin-table-factories.ts";
import { printPrefix, PRINT_TABLE_FACTORY } from "./print-table-factory.ts";
import { tableContext } from "./test-table-context.ts";

type Stream = NodeJS.WriteStream & { write: (chunk: string) => boolean };
const originals = { stdout: process.stdout.write, stderr: process.stderr.write };
afterEach(() => {
  process.stdout.write = originals.stdout;
  process.stderr.write = originals.stderr;
});

/** Captures what the job writes to `stream` (this process runs the job's tasks). */
function capture(stream: "stdout" | "stderr"): string[] {
  const lines: string[] = [];
  const target = process[stream] as Stream;
  const original = target.write.bind(target);
  target.write = ((chunk: string, ...rest: unknown[]) => {
    if (typeof chunk === "string" && /^\S*(?:> )?[+-][IUD]\[/.test(chunk)) {
      lines.push(chunk);
      return true;
    }
    return (original as (c: string, ...r: unknown[]) => boolean)(chunk, ...rest);
  }) as Stream["write"];
  return lines;
}

const CHANGELOG = [
  Row.of("Mary", 1n, 1, 1_586_937_900_000, 0.1, { unscaled: 1230n, scale: 2 }, null),
  Row.ofKind(RowKind.UPDATE_BEFORE, "Mary", 1n, 1e7, 1_586_937_901_500, 0.1, { unscaled: 1n, scale: 10 }, [1.5, 2]),
  Row.ofKind(RowKind.UPDATE_AFTER, "Mary", 2n, 2.5, -1, 0.1, { unscaled: 0n, scale: 2 }, []),
  Row.ofKind(RowKind.DELETE, "Bob", 9223372036854775807n, -0, 0, 0.5, null, [null]),
];
const TABLE = "(`user` STRING, cnt BIGINT, d DOUBLE, ts TIMESTAMP(3), f FLOAT, amount DECIMAL(20, 10), ds ARRAY<DOUBLE>)";

describe("print connector", () => {
  it("prints Flink's +I[…] lines, values as Flink prints their types, with the identifier (golden)", async () => {
    const lines = capture("stdout");
    const env = StreamExecutionEnvironment.create({ parallelism: 1, autoWatermarkInterval: 0 });
    const sink = PRINT_TABLE_FACTORY.createSink!(tableContext(env, `CREATE TABLE out ${TABLE} WITH ('connector' = 'print', 'print-identifier' = 'counts')`));
    expect(sink.acceptedMode.kinds).toEqual(["+I", "-U", "+U", "-D"]);
    sink.consume(env.fromCollection(CHANGELOG));
    await env.execute("print");
    expect(lines.join("")).toBe(
      [
        "counts> +I[Mary, 1, 1.0, 2020-04-15T08:05, 0.1, 12.30, null]",
        "counts> -U[Mary, 1, 1.0E7, 2020-04-15T08:05:01.500, 0.1, 1E-10, [1.5, 2.0]]",
        "counts> +U[Mary, 2, 2.5, 1969-12-31T23:59:59.999, 0.1, 0.00, []]",
        "counts> -D[Bob, 9223372036854775807, -0.0, 1970-01-01T00:00, 0.5, null, [null]]",
        "",
      ].join("\n"),
    );
  });

  it("prefixes the subtask as Flink's PrintSinkOutputWriter when parallel, to standard error when asked", async () => {
    expect([printPrefix("", 0, 1), printPrefix("id", 0, 1), printPrefix("", 1, 2), printPrefix("id", 1, 2)]).toEqual(["", "id> ", "2> ", "id:2> "]);
    const lines = capture("stderr");
    const env = StreamExecutionEnvironment.create({ parallelism: 2, autoWatermarkInterval: 0 });
    const sink = PRINT_TABLE_FACTORY.createSink!(
      tableContext(env, "CREATE TABLE out (a INT) WITH ('connector' = 'print', 'print-identifier' = 'p', 'standard-error' = 'true', 'sink.parallelism' = '2')"),
    );
    sink.consume(env.fromCollection([1, 2, 3, 4].map((i) => Row.of(i))).rebalance().map((r: Row) => r));
    await env.execute("print-parallel");
    expect(lines.map((l) => l.replace(/^p:[12]> /, "p:N> ")).sort()).toEqual(["p:N> +I[1]\n", "p:N> +I[2]\n", "p:N> +I[3]\n", "p:N> +I[4]\n"]);
    expect(new Set(lines.map((l) => l.slice(0, 4)))).toEqual(new Set(["p:1>", "p:2>"]));
  });
});

describe("blackhole connector and the factory map", () => {
  it("blackhole takes rows of every kind and writes nothing", async () => {
    const env = StreamExecutionEnvironment.create({ parallelism: 1, autoWatermarkInterval: 0 });
    const sink = BLACKHOLE_TABLE_FACTORY.createSink!(tableContext(env, "CREATE TABLE nothing (a INT) WITH ('connector' = 'blackhole')"));
    expect(sink.acceptedMode.kinds).toEqual(["+I", "-U", "+U", "-D"]);
    sink.consume(env.fromCollection([Row.of(1), Row.ofKind(RowKind.DELETE, 1)]));
    const result = await env.execute("blackhole");
    expect(result.restarts).toBe(0);
  });

  it("builtinTableFactories() maps each identifier to its factory", () => {
    const f = builtinTableFactories();
    expect([...f.keys()].sort()).toEqual(["blackhole", "datagen", "filesystem", "jdbc", "kafka", "nexmark", "postgres-cdc", "print", "upsert-kafka"]);
    expect(f.get("filesystem")?.createSource).toBeTypeOf("function");
    expect(f.get("print")?.createSource).toBeUndefined();
  });
});
