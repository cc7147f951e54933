import { describe, expect, it } from "vitest";
import { extremum, summing } from "./built-in-aggregations.ts";
import { StreamExecutionEnvironment } from "./environment.ts";
import { collectSink } from "../connectors/builtin/collect-sink.ts";
import { TumblingEventTimeWindows } from "../time/windows/tumbling-windows.ts";
import { WatermarkStrategy } from "../time/watermark-strategy.ts";

const fold = <T>(f: (a: T, b: T) => T, xs: T[]) => xs.reduce(f);
const rows = [
  { k: "a", v: 3, t: 1 },
  { k: "a", v: 1, t: 2 },
  { k: "a", v: 5, t: 3 },
  { k: "a", v: 1, t: 4 },
];

describe("built-in aggregations", () => {
  it("sum adds the field and keeps the first record's other fields", () => {
    expect(fold(summing<(typeof rows)[number]>("v"), rows)).toEqual({ k: "a", v: 10, t: 1 });
    expect(fold(summing<number>(), [1, 2, 3])).toBe(6);
    expect(fold(summing<[string, number]>("1"), [["x", 1], ["y", 2]] as [string, number][])).toEqual(["x", 3]);
  });

  it("min/max keep the extreme value with the first record's other fields; minBy/maxBy keep the record (first on ties)", () => {
    expect(fold(extremum("min", "v"), rows)).toEqual({ k: "a", v: 1, t: 1 });
    expect(fold(extremum("max", "v"), rows)).toEqual({ k: "a", v: 5, t: 1 });
    expect(fold(extremum("minBy", "v"), rows)).toEqual({ k: "a", v: 1, t: 2 });
    expect(fold(extremum("maxBy", "v"), rows)).toEqual({ k: "a", v: 5, t: 3 });
    expect(fold(extremum<number>("max"), [4, 9, 2])).toBe(9);
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
