import { describe, expect, it } from "vitest";
import { RestartStrategies, StreamExecutionEnvironment, WatermarkStrategy } from "../../index.ts";
import { collectSink } from "../../connectors/builtin/collect-sink.ts";
import { FailOnce } from "../../../test/support/fail-once.ts";
import { throttledSequence } from "../../../test/fixtures/throttled-sequence-source.ts";
import { randomInt, seededRandom, testSeed } from "../../util/seeded-random.ts";
import { Schema } from "../api/schema.ts";
import { StreamTableEnvironment } from "../api/table-environment.ts";
import { MultisetTable } from "../data/changelog.ts";
import { Row } from "../data/row.ts";
import { SqlAggregateFunction } from "./aggregate-function.ts";

interface WeightedAvgAcc {
  sum: number;
  count: number;
}

/** Flink's weighted average example: points cast to DOUBLE, retractable and mergeable. */
class WeightedAvg extends SqlAggregateFunction<number | null, WeightedAvgAcc> {
  readonly resultType = "DOUBLE";
  readonly argumentTypes = ["DOUBLE", "INT"];
  createAccumulator(): WeightedAvgAcc {
    return { sum: 0, count: 0 };
  }
  accumulate(acc: WeightedAvgAcc, value: number | null, weight: number | null): void {
    if (value === null || weight === null) return;
    acc.sum += value * weight;
    acc.count += weight;
  }
  retract(acc: WeightedAvgAcc, value: number | null, weight: number | null): void {
    if (value === null || weight === null) return;
    acc.sum -= value * weight;
    acc.count -= weight;
  }
  merge(acc: WeightedAvgAcc, others: Iterable<WeightedAvgAcc>): void {
    for (const o of others) {
      acc.sum += o.sum;
      acc.count += o.count;
    }
  }
  getValue(acc: WeightedAvgAcc): number | null {
    return acc.count === 0 ? null : acc.sum / acc.count;
  }
}

/** An object-literal aggregate without retract and merge. */
const weightedSum = {
  resultType: "BIGINT",
  createAccumulator: () => ({ sum: 0 }),
  accumulate(acc: { sum: number }, value: number | null, weight: number | null) {
    if (value !== null && weight !== null) acc.sum += value * weight;
  },
  getValue: (acc: { sum: number }) => acc.sum,
};

const schema = Schema.newBuilder().column("k", "STRING").column("v", "INT").column("w", "INT").column("ts", "TIMESTAMP(3)").watermark("ts", "ts").build();

function environments(parallelism = 2) {
  const env = StreamExecutionEnvironment.create({ parallelism, autoWatermarkInterval: 0 });
  const tEnv = StreamTableEnvironment.create(env);
  tEnv.createTemporarySystemFunction("WAvg", new WeightedAvg());
  tEnv.createTemporarySystemFunction("WSum", weightedSum);
  return { env, tEnv };
}

function withRows(rows: [string, number | null, number, number][]) {
  const { env, tEnv } = environments();
  tEnv.createTemporaryView("t", env.fromCollection(rows.map(([k, v, w, ts]) => ({ k, v, w, ts }))), schema);
  return tEnv;
}

async function folded(tEnv: StreamTableEnvironment, sql: string): Promise<string[]> {
  const t = new MultisetTable();
  for await (const r of tEnv.executeSql(sql).collect()) t.apply(r);
  return t.sortedRows().map((r) => Row.toString(r));
}

const rows: [string, number | null, number, number][] = [
  ["a", 2, 1, 1000],
  ["a", 2, 1, 2000],
  ["b", 10, 3, 3000],
  ["a", 4, 1, 4000],
  ["a", 6, 1, 11000],
  ["a", null, 5, 12000],
  ["b", 20, 1, 13000],
];

describe("user-defined aggregate functions", () => {
  it("in GROUP BY over a retracting input (fromChangelogStream)", async () => {
    const { env, tEnv } = environments(1);
    const changes = [
      Row.ofKind("+I", "x", 10, 1),
      Row.ofKind("+I", "y", 20, 2),
      Row.ofKind("+I", "x", 5, 3),
      Row.ofKind("-U", "x", 10, 1),
      Row.ofKind("+U", "x", 30, 1),
      Row.ofKind("-D", "y", 20, 2),
      Row.ofKind("+I", "y", 7, 1),
      Row.ofKind("+I", "z", 1, 1),
      Row.ofKind("-D", "z", 1, 1),
    ];
    const s = Schema.newBuilder().column("k", "STRING").column("v", "INT").column("w", "INT").build();
    tEnv.createTemporaryView("c", tEnv.fromChangelogStream(env.fromCollection(changes), s));
    expect(await folded(tEnv, "SELECT k, wavg(v, w), COUNT(*) FROM c GROUP BY k")).toEqual(["+I[x, 11.25, 2]", "+I[y, 7, 1]"]);
  });

  it("with DISTINCT and FILTER, NULL arguments passed, object-literal form", async () => {
    const tEnv = withRows(rows);
    expect(await folded(tEnv, "SELECT k, WAvg(v, w), WAvg(DISTINCT v, w), WAvg(v, w) FILTER (WHERE v > 2), WSum(v, w) FROM t GROUP BY k")).toEqual([
      "+I[a, 3.5, 4, 5, 14]",
      "+I[b, 12.5, 12.5, 12.5, 50]",
    ]);
  });

  it("in TUMBLE and HOP window aggregation", async () => {
    const tumble = "SELECT k, window_start, WAvg(v, w), WSum(v, w) FROM TABLE(TUMBLE(TABLE t, DESCRIPTOR(ts), INTERVAL '10' SECOND)) GROUP BY k, window_start, window_end";
    expect(await folded(withRows(rows), tumble)).toEqual(["+I[a, 0, 2.6666666666666665, 8]", "+I[a, 10000, 6, 6]", "+I[b, 0, 10, 30]", "+I[b, 10000, 20, 20]"]);
    const hop = "SELECT k, window_start, WAvg(v, w) FROM TABLE(HOP(TABLE t, DESCRIPTOR(ts), INTERVAL '10' SECOND, INTERVAL '20' SECOND)) WHERE k = 'a' GROUP BY k, window_start, window_end";
    expect(await folded(withRows(rows), hop)).toEqual(["+I[a, -10000, 2.6666666666666665]", "+I[a, 0, 3.5]", "+I[a, 10000, 6]"]);
  });

  it("in OVER over a sliding ROWS frame (retract) and an unbounded one", async () => {
    const sliding = "SELECT k, v, WAvg(v, w) OVER (PARTITION BY k ORDER BY ts ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) FROM t";
    expect(await folded(withRows(rows), sliding)).toEqual(["+I[a, null, 6]", "+I[a, 2, 2]", "+I[a, 2, 2]", "+I[a, 4, 3]", "+I[a, 6, 5]", "+I[b, 10, 10]", "+I[b, 20, 12.5]"]);
    const unbounded = "SELECT k, v, WSum(v, w) OVER (PARTITION BY k ORDER BY ts ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) FROM t";
    expect(await folded(withRows(rows), unbounded)).toEqual(["+I[a, null, 14]", "+I[a, 2, 2]", "+I[a, 2, 4]", "+I[a, 4, 8]", "+I[a, 6, 14]", "+I[b, 10, 30]", "+I[b, 20, 50]"]);
  });

  it("refuses a function without retract over an updating input or a bounded OVER frame, and without merge in HOP", () => {
    const tEnv = withRows(rows);
    expect(() => tEnv.executeSql("SELECT WSum(n, 1) FROM (SELECT k, COUNT(*) AS n FROM t GROUP BY k)")).toThrow(/line 1, column 8: Aggregate function 'WSum' has no retract method, which it needs over an updating input/);
    expect(() => tEnv.executeSql("SELECT WSum(v, w) OVER (PARTITION BY k ORDER BY ts ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) FROM t")).toThrow(/'WSum' has no retract method, which it needs over a bounded OVER frame/);
    expect(() => tEnv.executeSql("SELECT window_start, WSum(v, w) FROM TABLE(HOP(TABLE t, DESCRIPTOR(ts), INTERVAL '10' SECOND, INTERVAL '20' SECOND)) GROUP BY window_start, window_end"))
      .toThrow(/'WSum' has no merge method, which it needs in a HOP window/);
    expect(() => tEnv.executeSql("SELECT WAvg(k, w) FROM t")).toThrow(/line 1, column 8: Cannot apply 'WAvg' to arguments of type <VARCHAR\(2147483647\)>, <INT>; it takes <DOUBLE>, <INT>/);
    expect(() => tEnv.createTemporarySystemFunction("bad", { resultType: "INT", createAccumulator: () => ({}), accumulate() {} } as never)).toThrow(/has no getValue method/);
  });

  it("a result that is not of the declared type fails the job naming the function", async () => {
    const tEnv = withRows(rows);
    tEnv.createTemporarySystemFunction("Half", { resultType: "INT", createAccumulator: () => ({ n: 0 }), accumulate: (acc: { n: number }) => void (acc.n += 1), getValue: (acc: { n: number }) => acc.n / 2 });
    await expect(folded(tEnv, "SELECT k, Half(v) FROM t GROUP BY k")).rejects.toThrow(/Function 'Half' returned 0.5/);
  });

  it("a failure with exactly-once checkpoints leaves the result identical (parallelism 2)", async () => {
    const seed = testSeed();
    const random = seededRandom(seed);
    const events = Array.from({ length: 1000 }, () => ({ k: `k${randomInt(random, 0, 9)}`, v: randomInt(random, 0, 100), w: randomInt(random, 1, 5), ts: 0 }));
    const failAt = randomInt(random, 250, 500);
    const { env, tEnv } = environments();
    env.enableCheckpointing(50, "exactly-once");
    env.setRestartStrategy(RestartStrategies.fixedDelayRestart(3, 0));
    const input = env.fromSource(throttledSequence(0, events.length - 1, 20, 2), WatermarkStrategy.noWatermarks(), "numbers").setParallelism(1).map(new FailOnce(events, failAt)).setParallelism(1);
    tEnv.createTemporaryView("e", input, schema);
    const sums = new Map<string, { s: number; c: number; ws: number }>();
    for (const e of events) {
      const x = sums.get(e.k) ?? { s: 0, c: 0, ws: 0 };
      sums.set(e.k, { s: x.s + e.v * e.w, c: x.c + e.w, ws: x.ws + e.v * e.w });
    }
    const expected = [...sums].map(([k, x]) => Row.toString(Row.of(k, x.s / x.c, BigInt(x.ws)))).sort();
    tEnv.toChangelogStream(tEnv.sqlQuery("SELECT k, WAvg(v, w), WSum(v, w) FROM e GROUP BY k")).sinkTo(collectSink("out"));
    const result = await env.execute("udaf-recovery");
    const msg = `WEIR_SEED=${seed} failAt=${failAt}`;
    expect(result.restarts, msg).toBe(1);
    const t = new MultisetTable().applyAll(result.getCollected<Row>("out"));
    expect(t.sortedRows().map((r) => Row.toString(r)), msg).toEqual(expected);
  }, 60_000);
});
