/**
 * `table.exec.mini-batch.*` in SQL: group aggregations fold their rows in
 * batches; the folded result equals the one without mini-batch, the
 * changelog is coarser, and enabling it without a latency or a size is
 * refused, as in Flink.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { StreamExecutionEnvironment } from "../../src/api/environment.ts";
import { StreamTableEnvironment } from "../../src/table/api/table-environment.ts";
import { MultisetTable } from "../../src/table/data/changelog.ts";
import { Row } from "../../src/table/data/row.ts";
import { tempDirs } from "../support/temp-dirs.ts";

const temp = tempDirs("weir-mini-batch-");
const SEED = 7;

/** 500 JSON lines `{ k, v }`, keys and values from a seeded generator. */
function lines(): string {
  let x = SEED;
  const next = () => (x = (x * 1_103_515_245 + 12_345) % 2 ** 31);
  return Array.from({ length: 500 }, () => JSON.stringify({ k: `k${next() % 13}`, v: next() % 100 })).join("\n") + "\n";
}

/** An aggregation of an aggregation: the inner one's updates are retractions for the outer one. */
const QUERY = "SELECT cnt, COUNT(*) AS keys, SUM(total) AS total FROM (SELECT k, COUNT(*) AS cnt, SUM(v) AS total FROM t GROUP BY k) GROUP BY cnt";

function session(dir: string, settings: Record<string, string>) {
  const tEnv = StreamTableEnvironment.create(StreamExecutionEnvironment.create({ parallelism: 2 }));
  for (const [k, v] of Object.entries(settings)) tEnv.getConfig().set(k, v);
  tEnv.executeSql(`CREATE TABLE t (k STRING, v BIGINT) WITH ('connector' = 'filesystem', 'path' = '${dir}', 'format' = 'json')`);
  return tEnv;
}

async function changelog(dir: string, settings: Record<string, string>): Promise<Row[]> {
  const rows: Row[] = [];
  for await (const r of session(dir, settings).executeSql(QUERY).collect()) rows.push(r);
  return rows;
}

describe(`mini-batch group aggregation (seed ${SEED})`, () => {
  it("folds to the result without mini-batch, with fewer changes", async () => {
    const dir = temp();
    writeFileSync(join(dir, "a.json"), lines());
    const plain = await changelog(dir, {});
    const batched = await changelog(dir, {
      "table.exec.mini-batch.enabled": "true",
      "table.exec.mini-batch.allow-latency": "1 h",
      "table.exec.mini-batch.size": "100",
    });
    const folded = (rows: Row[]) => new MultisetTable().applyAll(rows).sortedRows().map((r) => Row.toString(r));
    expect(folded(batched)).toEqual(folded(plain));
    expect(folded(plain).length).toBeGreaterThan(3);
    expect(batched.length).toBeLessThan(plain.length);
  });

  it("is refused when enabled without a positive latency or size", () => {
    const dir = temp();
    const insert = (settings: Record<string, string>) => () => {
      const tEnv = session(dir, { "table.exec.mini-batch.enabled": "true", ...settings });
      tEnv.executeSql("CREATE TABLE s (cnt BIGINT, keys BIGINT, total BIGINT) WITH ('connector' = 'blackhole')");
      tEnv.executeSql(`INSERT INTO s ${QUERY}`); // planned (and refused) before any job starts
    };
    expect(insert({ "table.exec.mini-batch.size": "10" })).toThrow("'table.exec.mini-batch.allow-latency' must be greater than 0 ms");
    expect(insert({ "table.exec.mini-batch.allow-latency": "1 s" })).toThrow(
      "'table.exec.mini-batch.size' must be a positive number of rows",
    );
  });
});
