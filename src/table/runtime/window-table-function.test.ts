import { describe, expect, it } from "vitest";
import { StreamExecutionEnvironment } from "../../api/environment.ts";
import { collectSink } from "../../connectors/builtin/collect-sink.ts";
import { seededRandom, testSeed } from "../../util/seeded-random.ts";
import { formatChangelog, sortRows } from "../data/changelog.ts";
import { Row } from "../data/row.ts";
import type { SqlValue } from "../types/sql-value.ts";
import { randomWindowEvents, windowTvfOracle, type WindowEvent } from "../../../test/support/table-operator-oracles.ts";
import { rowWatermarks } from "../../../test/support/row-watermarks.ts";
import { alignedWindows, windowTableFunction } from "./window-table-function.ts";
import type { WindowSpec } from "./window-spec.ts";

async function runTvf(events: readonly SqlValue[][], window: WindowSpec, bound: number, parallelism = 1): Promise<Row[]> {
  const env = StreamExecutionEnvironment.create({ parallelism, autoWatermarkInterval: 0 });
  const input = env
    .fromCollection(events.map((e) => Row.of(...e)))
    .assignTimestampsAndWatermarks(rowWatermarks(3, bound))
    .setParallelism(1);
  windowTableFunction(input, window, { uid: "tvf", name: "WindowTableFunction" }).sinkTo(collectSink("out"));
  return (await env.execute("tvf")).getCollected<Row>("out");
}

/** [key, id, price, ts] */
const events: SqlValue[][] = [
  ["k0", 0n, 0, 1],
  ["k0", 1n, 0, 4],
  ["k1", 2n, 0, 5],
  ["k0", 3n, 0, 12],
  ["k0", 4n, 0, 3],
  ["k0", 5n, 0, 16],
];

describe("window TVF golden outputs ([key, id, price, ts, window_start, window_end, window_time])", () => {
  it("TUMBLE(10)", async () => {
    expect(formatChangelog(await runTvf(events.slice(0, 4), { kind: "tumble", timeField: 3, size: 10, offset: 0 }, 0))).toBe(
      ["+I[k0, 0, 0, 1, 0, 10, 9]", "+I[k0, 1, 0, 4, 0, 10, 9]", "+I[k1, 2, 0, 5, 0, 10, 9]", "+I[k0, 3, 0, 12, 10, 20, 19]"].join("\n"),
    );
  });

  it("TUMBLE(10) with offset -3", async () => {
    expect(formatChangelog(await runTvf([events[0]!, events[3]!], { kind: "tumble", timeField: 3, size: 10, offset: -3 }, 0))).toBe(
      ["+I[k0, 0, 0, 1, -3, 7, 6]", "+I[k0, 3, 0, 12, 7, 17, 16]"].join("\n"),
    );
  });

  it("HOP(size 10, slide 5): one row per window, the latest first", async () => {
    expect(formatChangelog(await runTvf([events[0]!, events[3]!], { kind: "hop", timeField: 3, size: 10, slide: 5, offset: 0 }, 0))).toBe(
      ["+I[k0, 0, 0, 1, 0, 10, 9]", "+I[k0, 0, 0, 1, -5, 5, 4]", "+I[k0, 3, 0, 12, 10, 20, 19]", "+I[k0, 3, 0, 12, 5, 15, 14]"].join("\n"),
    );
  });

  it("CUMULATE(step 5, max 10): one row per cumulative window, the shortest first", async () => {
    expect(formatChangelog(await runTvf([events[0]!, events[3]!], { kind: "cumulate", timeField: 3, maxSize: 10, step: 5, offset: 0 }, 0))).toBe(
      ["+I[k0, 0, 0, 1, 0, 5, 4]", "+I[k0, 0, 0, 1, 0, 10, 9]", "+I[k0, 3, 0, 12, 10, 15, 14]", "+I[k0, 3, 0, 12, 10, 20, 19]"].join("\n"),
    );
  });

  it("SESSION(gap 5) per key: sessions come out when the watermark closes them, a late row is dropped", async () => {
    // wm after each row (bound 0): 0, 3, 4, 11 (closes k0's [1, 9) and k1's [5, 10)), then k0@3 is late, k0@16 joins [12, 17)
    expect(formatChangelog(await runTvf(events, { kind: "session", timeField: 3, gap: 5, partitionKeys: [0] }, 0))).toBe(
      [
        "+I[k0, 0, 0, 1, 1, 9, 8]",
        "+I[k0, 1, 0, 4, 1, 9, 8]",
        "+I[k1, 2, 0, 5, 5, 10, 9]",
        "+I[k0, 3, 0, 12, 12, 21, 20]",
        "+I[k0, 5, 0, 16, 12, 21, 20]",
      ].join("\n"),
    );
  });
});

describe("window assignment", () => {
  it("aligns windows to the epoch plus the offset for negative times and offsets", () => {
    expect(alignedWindows({ kind: "hop", timeField: 0, size: 10, slide: 4, offset: 1 }, 9)).toEqual([
      [9, 19],
      [5, 15],
      [1, 11],
    ]);
  });
});

describe("window TVFs equal the batch result (randomized)", () => {
  const windows: WindowSpec[] = [
    { kind: "tumble", timeField: 3, size: 100, offset: 30 },
    { kind: "hop", timeField: 3, size: 90, slide: 30, offset: -10 },
    { kind: "cumulate", timeField: 3, maxSize: 120, step: 40, offset: 0 },
    { kind: "session", timeField: 3, gap: 25, partitionKeys: [0] },
    { kind: "session", timeField: 3, gap: 15, partitionKeys: [] },
  ];
  for (const w of windows) {
    it(`${w.kind} ${JSON.stringify(w)}`, async () => {
      const seed = testSeed();
      const evs: WindowEvent[] = randomWindowEvents(seededRandom(seed), 400, 4, 60);
      const bound = 30;
      const out = await runTvf(evs, w, bound, 2);
      expect(out.every((r) => r.kind === "+I")).toBe(true);
      const expected = sortRows(windowTvfOracle(evs, w, bound).map((f) => Row.of(...f)));
      expect(formatChangelog(sortRows(out)), `WEIR_SEED=${seed}`).toBe(formatChangelog(expected));
    }, 30_000);
  }
});
