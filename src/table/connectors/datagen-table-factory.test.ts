import { describe, expect, it } from "vitest";
import { StreamExecutionEnvironment } from "../../api/environment.ts";
import { collectSink } from "../../connectors/builtin/collect-sink.ts";
import type { CheckpointListener } from "../../core/checkpointed-function.ts";
import { RichFunction } from "../../core/rich-function.ts";
import { RestartStrategies } from "../../runtime/execution/restart-strategy.ts";
import { randomInt, seededRandom, testSeed } from "../../util/seeded-random.ts";
import { StreamTableEnvironment } from "../api/table-environment.ts";
import { Row } from "../data/row.ts";
import type { ReaderOutput } from "../../core/source.ts";
import { ManualClock } from "../../util/clock.ts";
import { datagenSource } from "./datagen-source.ts";
import { DATAGEN_TABLE_FACTORY } from "./datagen-table-factory.ts";
import { tableContext } from "./test-table-context.ts";

const COLUMNS = "id BIGINT, n INT, small TINYINT, flag BOOLEAN, price DECIMAL(10, 2), ratio DOUBLE, name STRING, code CHAR(4), d DATE, ts TIMESTAMP(3), lts TIMESTAMP_LTZ(3)";

function table(seed: number, rows: number, extra = ""): string {
  return `CREATE TABLE g (${COLUMNS}) WITH ('connector' = 'datagen', 'seed' = '${seed}', 'rows-per-second' = '1000000',
    'fields.id.kind' = 'sequence', 'fields.id.start' = '1', 'fields.id.end' = '${rows}',
    'fields.n.min' = '-5', 'fields.n.max' = '5', 'fields.n.null-rate' = '0.2',
    'fields.price.min' = '1.5', 'fields.price.max' = '99.99', 'fields.name.length' = '6',
    'fields.ts.max-past' = '1 h', 'fields.lts.max-past' = '10 s'${extra})`;
}

/** The rows of `SELECT *` from the table, as text sorted by id, and the time bounds of the run. */
async function generate(ddl: string, parallelism: number, query = "SELECT * FROM g"): Promise<{ rows: Row[]; before: number; after: number }> {
  const env = StreamExecutionEnvironment.create({ parallelism, autoWatermarkInterval: 0 });
  const tEnv = StreamTableEnvironment.create(env);
  tEnv.executeSql(ddl);
  const before = Date.now();
  const rows: Row[] = [];
  for await (const r of tEnv.executeSql(query).collect()) rows.push(r);
  return { rows, before, after: Date.now() };
}

const byId = (rows: Row[]) => [...rows].sort((a, b) => (a.fields[0]! < b.fields[0]! ? -1 : 1));
/** Each row without its clock-dependent columns (d, ts, lts). */
const timeless = (rows: Row[]) => byId(rows).map((r) => Row.toString({ ...r, fields: r.fields.slice(0, 8) }));

describe("datagen", () => {
  it("with a seed generates the same rows at parallelism 1 and 2, each sequence value once, values in their ranges", async () => {
    const seed = testSeed();
    const n = 500;
    const one = await generate(table(seed, n), 1);
    const two = await generate(table(seed, n), 2);
    const msg = `WEIR_SEED=${seed}`;
    expect(one.rows.length, msg).toBe(n);
    expect(timeless(two.rows), msg).toEqual(timeless(one.rows));
    expect(byId(two.rows).map((r) => r.fields[0]), msg).toEqual(Array.from({ length: n }, (_, i) => i + 1));
    const other = await generate(table(seed + 1, n), 2);
    expect(timeless(other.rows), msg).not.toEqual(timeless(one.rows));
    let nulls = 0;
    for (const r of one.rows) {
      const [, nn, small, flag, price, ratio, name, code, d, ts, lts] = r.fields as [bigint, number | null, number, boolean, { unscaled: bigint; scale: number }, number, string, string, number, number, number];
      if (nn === null) nulls++;
      else expect(nn >= -5 && nn <= 5, msg).toBe(true);
      expect(small >= -128 && small <= 127 && Number.isInteger(small), msg).toBe(true);
      expect(typeof flag, msg).toBe("boolean");
      expect(price.scale === 2 && price.unscaled >= 150n && price.unscaled <= 9999n, msg).toBe(true);
      expect(Number.isFinite(ratio), msg).toBe(true);
      expect(name, msg).toMatch(/^[0-9a-f]{6}$/);
      expect(code, msg).toMatch(/^[0-9a-f]{4}$/);
      // TIMESTAMP is the UTC wall clock here; DATE its day
      expect(ts >= one.before - 3_600_000 && ts <= one.after, msg).toBe(true);
      expect(lts >= one.before - 10_000 && lts <= one.after, msg).toBe(true);
      expect(d >= Math.floor(one.before / 86_400_000) && d <= Math.floor(one.after / 86_400_000), msg).toBe(true);
    }
    expect(nulls > n * 0.1 && nulls < n * 0.3, `${msg} nulls=${nulls}`).toBe(true);
  }, 60_000);

  it("number-of-rows bounds a random table; the shortest sequence bounds it too", async () => {
    const { rows } = await generate("CREATE TABLE g (a INT, b STRING) WITH ('connector' = 'datagen', 'number-of-rows' = '37')", 2);
    expect(rows.length).toBe(37);
    const seq = await generate(
      `CREATE TABLE g (a INT, b STRING) WITH ('connector' = 'datagen', 'number-of-rows' = '100',
        'fields.a.kind' = 'sequence', 'fields.a.start' = '-3', 'fields.a.end' = '6',
        'fields.b.kind' = 'sequence', 'fields.b.start' = '100', 'fields.b.end' = '1000')`,
      2,
    );
    expect(seq.rows.map((r) => Row.toString(r)).sort()).toEqual(
      Array.from({ length: 10 }, (_, i) => `+I[${i - 3}, ${100 + i}]`).sort(),
    );
  }, 30_000);

  it("computed columns and a watermark work on it: tumbling windows over a sequence-derived time", async () => {
    const { rows } = await generate(
      `CREATE TABLE g (id BIGINT, v INT, ts AS TO_TIMESTAMP_LTZ(id * 1000, 3), WATERMARK FOR ts AS ts - INTERVAL '1' SECOND)
       WITH ('connector' = 'datagen', 'rows-per-second' = '1000000', 'fields.id.kind' = 'sequence', 'fields.id.start' = '0', 'fields.id.end' = '299',
             'fields.v.min' = '1', 'fields.v.max' = '1')`,
      2,
      "SELECT window_start, COUNT(*), SUM(v) FROM TABLE(TUMBLE(TABLE g, DESCRIPTOR(ts), INTERVAL '1' MINUTE)) GROUP BY window_start, window_end",
    );
    expect(rows.map((r) => r.fields.slice(1).join(",")).sort()).toEqual(["60,60", "60,60", "60,60", "60,60", "60,60"]);
  }, 30_000);

  it("recovers exactly once: after an injected failure every sequence value is emitted once", async () => {
    const seed = testSeed();
    const random = seededRandom(seed);
    const n = 3000;
    FailAfterCheckpoint.failAt = randomInt(random, n / 4, n / 2);
    FailAfterCheckpoint.failures = 0;
    const env = StreamExecutionEnvironment.create({ parallelism: 2, autoWatermarkInterval: 0 });
    env.enableCheckpointing(20, "exactly-once");
    env.setRestartStrategy(RestartStrategies.fixedDelayRestart(3, 0));
    const ctx = tableContext(
      env,
      `CREATE TABLE g (id BIGINT, s STRING) WITH ('connector' = 'datagen', 'rows-per-second' = '5000', 'seed' = '${seed}',
        'fields.id.kind' = 'sequence', 'fields.id.start' = '0', 'fields.id.end' = '${n - 1}')`,
      "gen",
    );
    DATAGEN_TABLE_FACTORY.createSource!(ctx).produce().map(new FailAfterCheckpoint()).sinkTo(collectSink("rows"));
    const result = await env.execute("datagen-recovery");
    const msg = `WEIR_SEED=${seed} failAt=${FailAfterCheckpoint.failAt}`;
    expect(result.restarts, msg).toBe(1);
    expect(FailAfterCheckpoint.failures, msg).toBe(1);
    const ids = result.getCollected<Row>("rows").map((r) => r.fields[0] as bigint);
    expect(ids.length, msg).toBe(n);
    expect(new Set(ids).size, msg).toBe(n);
  }, 60_000);

  it("throttles to rows-per-second on the engine clock, shared by the subtasks, waiting on a clock timer", async () => {
    const clock = new ManualClock(1_000);
    const source = datagenSource({ fields: [(i) => i], rows: 100, rowsPerSecond: 20, seed: 1, clock });
    const splits = source.createSplits(2);
    expect(splits).toEqual([{ next: 0, step: 2, end: 100 }, { next: 1, step: 2, end: 100 }]);
    const reader = source.createReader({ subtaskIndex: 0, parallelism: 2, operatorUid: "gen" });
    reader.addSplits([splits[0]!]);
    const ids: unknown[] = [];
    const output: ReaderOutput<Row> = {
      collect: (r) => void ids.push(r.fields[0]),
      collectSide: () => {},
      createOutputForSplit: () => output,
      releaseOutputForSplit: () => {},
    };
    expect(reader.pollNext(output, 1000)).toBe("more-available");
    expect(reader.pollNext(output, 1000)).toBe("nothing-available");
    expect(ids).toEqual([0]); // 10 rows per second for this subtask: one now
    let woke = false;
    const available = reader.isAvailable!().then(() => (woke = true));
    clock.advance(99);
    await Promise.resolve();
    expect(woke).toBe(false);
    clock.advance(1);
    await available;
    clock.advance(400); // 0.5 s after the start: rows 0..5 are due
    reader.pollNext(output, 1000);
    expect(ids).toEqual([0, 2, 4, 6, 8, 10]);
    expect(reader.snapshotState(1)).toEqual([{ next: 12, step: 2, end: 100 }]);
  });

  it("refuses unknown options, unknown columns and misfit values, naming the table and the option", () => {
    const env = StreamExecutionEnvironment.create({ parallelism: 1 });
    const errorOf = (ddl: string) => {
      try {
        const tEnv = StreamTableEnvironment.create(env);
        tEnv.executeSql(ddl);
        tEnv.sqlQuery("SELECT * FROM g");
        tEnv.executeSql("EXPLAIN SELECT * FROM g");
      } catch (e) {
        return (e as Error).message;
      }
      return "no error";
    };
    const unknown = errorOf("CREATE TABLE g (a INT) WITH ('connector' = 'datagen', 'rows-per-secnd' = '5')");
    expect(unknown).toContain("Unable to create a source for reading table 'default_catalog.default_database.g'.");
    expect(unknown).toContain("rows-per-secnd (did you mean 'rows-per-second'?)");
    expect(unknown).toContain("Supported options:\n\nconnector\nfields.#.end\nfields.#.kind");
    expect(errorOf("CREATE TABLE g (amount INT) WITH ('connector' = 'datagen', 'fields.amout.min' = '1')")).toBe(
      "Table 'default_catalog.default_database.g': the option 'fields.amout.min' names the column 'amout', which the table does not have. Did you mean 'amount'? Its columns are: amount.",
    );
    expect(errorOf("CREATE TABLE g (a INT) WITH ('connector' = 'datagen', 'fields.a.kind' = 'sequence', 'fields.a.start' = '1')")).toBe(
      "Table 'default_catalog.default_database.g': the sequence field 'a' needs the option 'fields.a.end'.",
    );
    expect(errorOf("CREATE TABLE g (a TINYINT) WITH ('connector' = 'datagen', 'fields.a.max' = '300')")).toBe(
      "Table 'default_catalog.default_database.g': invalid option 'fields.a.max': out of the range of TINYINT [-128, 127].",
    );
    expect(errorOf("CREATE TABLE g (a INT) WITH ('connector' = 'datagen', 'fields.a.min' = '9', 'fields.a.max' = '1')")).toBe(
      "Table 'default_catalog.default_database.g': invalid option 'fields.a.min': it is greater than 'max' (9 > 1).",
    );
    expect(errorOf("CREATE TABLE g (a INT) WITH ('connector' = 'datagen', 'fields.a.start' = '1')")).toContain(
      "invalid option 'fields.a.start': it applies to sequence fields only, and 'a' is a random field",
    );
    expect(errorOf("CREATE TABLE g (a ROW<x INT>) WITH ('connector' = 'datagen')")).toContain("the 'datagen' connector cannot generate the type ROW<");
  });
});

/** Passes rows through; on the first attempt throws at the row with id `failAt` once a checkpoint completed (or, if none has, at the next row after one does). */
class FailAfterCheckpoint extends RichFunction implements CheckpointListener {
  static failAt = 0;
  static failures = 0;
  private checkpointed = false;
  map(row: Row): Row {
    if (this.checkpointed && (row.fields[0] as number) >= FailAfterCheckpoint.failAt && FailAfterCheckpoint.failures === 0 && this.getRuntimeContext().getAttemptNumber() === 0) {
      FailAfterCheckpoint.failures++;
      throw new Error(`injected failure at row ${String(row.fields[0])}`);
    }
    return row;
  }
  notifyCheckpointComplete(): void {
    this.checkpointed = true;
  }
}
