import { describe, expect, it } from "vitest";
import { AggregationFieldError, FieldAggregation, type AggregationKind } from "./built-in-aggregations.ts";
import { StreamExecutionEnvironment } from "./environment.ts";
import { collectSink } from "../connectors/builtin/collect-sink.ts";
import { TumblingEventTimeWindows } from "../time/windows/tumbling-windows.ts";
import { WatermarkStrategy } from "../time/watermark-strategy.ts";

/** Aggregates `xs` as the operators do: the first record checked, then reduced with each next one. */
function fold<T>(kind: AggregationKind, field: string | undefined, xs: T[]): T {
  return new FieldAggregation<T>(kind, field).fold(xs);
}
const rows = [
  { k: "a", v: 3, t: 1 },
  { k: "a", v: 1, t: 2 },
  { k: "a", v: 5, t: 3 },
  { k: "a", v: 1, t: 4 },
];

describe("built-in aggregations", () => {
  it("sum adds the field and keeps the first record's other fields", () => {
    expect(fold("sum", "v", rows)).toEqual({ k: "a", v: 10, t: 1 });
    expect(fold("sum", undefined, [1, 2, 3])).toBe(6);
    expect(fold("sum", undefined, [1n, 2n, 2n ** 64n])).toBe(3n + 2n ** 64n);
    expect(fold("sum", "1", [["x", 1], ["y", 2]] as [string, number][])).toEqual(["x", 3]);
  });

  it("min/max keep the extreme value with the first record's other fields; minBy/maxBy keep the record (first on ties)", () => {
    expect(fold("min", "v", rows)).toEqual({ k: "a", v: 1, t: 1 });
    expect(fold("max", "v", rows)).toEqual({ k: "a", v: 5, t: 1 });
    expect(fold("minBy", "v", rows)).toEqual({ k: "a", v: 1, t: 2 });
    expect(fold("maxBy", "v", rows)).toEqual({ k: "a", v: 5, t: 3 });
    expect(fold("max", undefined, [4, 9, 2])).toBe(9);
  });

  it("a missing field, a value that is not a number, or numbers mixed with bigints is an error naming the aggregation, the field and the value", () => {
    const error = (kind: AggregationKind, field: string | undefined, xs: unknown[]) => {
      try {
        fold(kind, field, xs);
      } catch (e) {
        expect(e).toBeInstanceOf(AggregationFieldError);
        return (e as Error).message;
      }
      throw new Error("no error");
    };
    // a record alone is checked too (the first record of a key or window is never reduced)
    expect(error("sum", "nosuchfield", [{ k: "a", page: "home" }])).toBe(`sum("nosuchfield"): the record { k: 'a', page: 'home' } has no field 'nosuchfield'`);
    expect(error("maxBy", "page", [{ page: 1 }, { page: "home" }])).toBe(
      `maxBy("page"): the record { page: 'home' } has 'home' (a string) in field 'page', not a number or bigint`,
    );
    expect(error("sum", undefined, ["a"])).toBe(`sum(): the record 'a' is a string, not a number or bigint; give the field to aggregate, e.g. sum("amount")`);
    expect(error("min", "1", [["x", 1], ["y", null]])).toContain(`has null (null) in field '1'`);
    expect(error("sum", "v", [{ v: 1 }, { v: 2n }])).toBe(
      `sum("v"): 2n in the record { v: 2n } is a bigint, but the records before had numbers in field 'v': use one of them`,
    );
  });
});

describe("built-in aggregations in a job", () => {
  it("rolling max per key and minBy per tumbling window", async () => {
    type R = { k: number; v: number; t: number };
    const input: R[] = Array.from({ length: 200 }, (_, i) => ({ k: i % 2, v: (i * 37) % 101, t: i * 10 }));
    const env = StreamExecutionEnvironment.create({ parallelism: 2 });
    const records = env.fromElements(...input).assignTimestampsAndWatermarks(WatermarkStrategy.forMonotonousTimestamps<R>().withTimestampAssigner((r) => r.t));
    records.keyBy((r) => r.k).max("v").sinkTo(collectSink("max"));
    records.keyBy((r) => r.k).window(TumblingEventTimeWindows.of(500)).minBy("v").sinkTo(collectSink("minBy"));
    const result = await env.execute("aggregations");
    const maxes = new Map<number, number>();
    for (const r of result.getCollected<R>("max")) maxes.set(r.k, Math.max(maxes.get(r.k) ?? -1, r.v));
    for (const k of [0, 1]) expect(maxes.get(k)).toBe(Math.max(...input.filter((r) => r.k === k).map((r) => r.v)));
    const expected = new Map<string, R>();
    for (const r of input) {
      const w = `${r.k}@${Math.floor(r.t / 500)}`;
      const cur = expected.get(w);
      if (!cur || r.v < cur.v) expected.set(w, r);
    }
    const got = new Map(result.getCollected<R>("minBy").map((r) => [`${r.k}@${Math.floor(r.t / 500)}`, r]));
    expect(got).toEqual(expected);
  });
});

describe("built-in aggregation errors in a job", () => {
  type Visit = { page: string; ms: number; t: number };
  const visits: Visit[] = [
    { page: "home", ms: 5, t: 1 },
    { page: "cart", ms: 7, t: 2 },
  ];

  async function failure(build: (env: StreamExecutionEnvironment) => void): Promise<string> {
    const env = StreamExecutionEnvironment.create({ parallelism: 2 });
    build(env);
    const error = await env.execute("aggregation-error").then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(error).toBeInstanceOf(Error);
    return error!.message;
  }

  it("a rolling sum on a string field fails the job naming the aggregation, the field, the operator and the value (one record per key is enough)", async () => {
    const message = await failure((env) =>
      env.fromElements(...visits).keyBy((v) => v.page).sum("page" as never).uid("totals").sinkTo(collectSink("out")),
    );
    expect(message).toContain(`sum("page") in operator 'Sum' (uid 'totals'): the record { page: 'home', ms: 5, t: 1 } has 'home' (a string) in field 'page'`);
  });

  it("a window aggregation of a missing field fails the job, with or without an evictor", async () => {
    const windowed = (env: StreamExecutionEnvironment) =>
      env
        .fromElements(...visits)
        .assignTimestampsAndWatermarks(WatermarkStrategy.forMonotonousTimestamps<Visit>().withTimestampAssigner((v) => v.t))
        .keyBy((v) => v.page)
        .window(TumblingEventTimeWindows.of(10));
    const plain = await failure((env) => windowed(env).maxBy("nosuchfield" as never).uid("slowest").sinkTo(collectSink("out")));
    expect(plain).toMatch(/maxBy\("nosuchfield"\) in operator 'Window\(.*MaxBy\)' \(uid 'slowest'\): the record \{ page: '(home|cart)', .* \} has no field 'nosuchfield'/);
    const evicting = await failure((env) =>
      windowed(env)
        .evictor({ evictBefore: (xs) => [...xs], evictAfter: (xs) => [...xs] })
        .sum("nosuchfield" as never)
        .uid("evicting")
        .sinkTo(collectSink("out")),
    );
    expect(evicting).toContain(`sum("nosuchfield") in operator 'Window(`);
    expect(evicting).toContain(`(uid 'evicting'): the record`);
  });

  it("sums bigints", async () => {
    const env = StreamExecutionEnvironment.create({ parallelism: 2 });
    env.fromElements<[string, bigint]>(["a", 2n ** 60n], ["a", 2n ** 60n], ["b", 1n]).keyBy(([k]) => k).sum(1).sinkTo(collectSink("sums"));
    const result = await env.execute("bigint-sums");
    const last = new Map(result.getCollected<[string, bigint]>("sums").map(([k, v]) => [k, v]));
    expect(last).toEqual(new Map([["a", 2n ** 61n], ["b", 1n]]));
  });
});
