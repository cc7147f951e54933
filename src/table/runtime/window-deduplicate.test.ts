import { describe, expect, it } from "vitest";
import type { SingleOutputStreamOperator } from "../../api/data-stream.ts";
import { StreamExecutionEnvironment } from "../../api/environment.ts";
import { collectSink } from "../../connectors/builtin/collect-sink.ts";
import { seededRandom, testSeed } from "../../util/seeded-random.ts";
import { formatChangelog, sortRows } from "../data/changelog.ts";
import { Row } from "../data/row.ts";
import type { SqlValue } from "../types/sql-value.ts";
import { onTimeWindowRows, randomWindowEvents, windowDedupOracle } from "../../../test/support/table-operator-oracles.ts";
import { rowWatermarks } from "../../../test/support/row-watermarks.ts";
import { windowDeduplicate, type WindowDeduplicateSpec } from "./window-deduplicate.ts";
import { windowTableFunction } from "./window-table-function.ts";
import type { WindowSpec } from "./window-spec.ts";

async function runWindowDedup(events: readonly SqlValue[][], window: WindowSpec, spec: WindowDeduplicateSpec, bound: number, parallelism = 1): Promise<Row[]> {
  const env = StreamExecutionEnvironment.create({ parallelism, autoWatermarkInterval: 0 });
  const input = env
    .fromCollection(events.map((e) => Row.of(...e)))
    .assignTimestampsAndWatermarks(rowWatermarks(3, bound))
    .setParallelism(1);
  const windowed = (windowTableFunction(input, window, { uid: "tvf", name: "WindowTableFunction" }) as SingleOutputStreamOperator<Row>).setParallelism(1);
  windowDeduplicate(windowed, spec, { uid: "window-dedup", name: "WindowDeduplicate" }).sinkTo(collectSink("out"));
  return (await env.execute("window-dedup")).getCollected<Row>("out");
}

const tumble10: WindowSpec = { kind: "tumble", timeField: 3, size: 10, offset: 0 };
/** [key, id, price, ts] */
const events: SqlValue[][] = [
  ["a", 0n, 0, 5],
  ["a", 1n, 0, 2],
  ["a", 2n, 0, 7],
  ["a", 3n, 0, 2],
  ["a", 4n, 0, 7],
  ["a", 5n, 0, 14], // the watermark 13 after it fires [0, 10)
  ["a", 6n, 0, 1], // late
];

describe("window deduplication golden outputs", () => {
  it("keep-first per key and window: the smallest time, the earliest among ties", async () => {
    const spec: WindowDeduplicateSpec = { keys: [0], keepLast: false, timeField: 3, windowStartField: 4, windowEndField: 5 };
    expect(formatChangelog(await runWindowDedup(events, tumble10, spec, 0))).toBe(["+I[a, 1, 0, 2, 0, 10, 9]", "+I[a, 5, 0, 14, 10, 20, 19]"].join("\n"));
  });

  it("keep-last per key and window: the largest time, the latest among ties", async () => {
    const spec: WindowDeduplicateSpec = { keys: [0], keepLast: true, timeField: 3, windowStartField: 4, windowEndField: 5 };
    expect(formatChangelog(await runWindowDedup(events, tumble10, spec, 0))).toBe(["+I[a, 4, 0, 7, 0, 10, 9]", "+I[a, 5, 0, 14, 10, 20, 19]"].join("\n"));
  });
});

describe("window deduplication equals the batch query over the on-time rows (randomized)", () => {
  const windows: WindowSpec[] = [
    { kind: "tumble", timeField: 3, size: 100, offset: 0 },
    { kind: "hop", timeField: 3, size: 90, slide: 30, offset: 10 },
  ];
  for (const window of windows) {
    for (const keepLast of [false, true]) {
      it(`${keepLast ? "keep-last" : "keep-first"}, ${window.kind}`, async () => {
        const seed = testSeed();
        const evs = randomWindowEvents(seededRandom(seed), 500, 4, 60);
        const bound = 25;
        const spec: WindowDeduplicateSpec = { keys: [0], keepLast, timeField: 3, windowStartField: 4, windowEndField: 5 };
        const out = await runWindowDedup(evs, window, spec, bound, 2);
        expect(out.every((r) => r.kind === "+I")).toBe(true);
        const rows = onTimeWindowRows(evs, window as Exclude<WindowSpec, { kind: "session" }>, bound);
        const expected = sortRows(windowDedupOracle(rows, [0], keepLast, 3).map((f) => Row.of(...f)));
        expect(formatChangelog(sortRows(out)), `WEIR_SEED=${seed}`).toBe(formatChangelog(expected));
      }, 30_000);
    }
  }
});
