import { describe, expect, it } from "vitest";
import type { SingleOutputStreamOperator } from "../../api/data-stream.ts";
import { StreamExecutionEnvironment } from "../../api/environment.ts";
import { collectSink } from "../../connectors/builtin/collect-sink.ts";
import { seededRandom, testSeed } from "../../util/seeded-random.ts";
import { formatChangelog, sortRows } from "../data/changelog.ts";
import { Row } from "../data/row.ts";
import type { SqlValue } from "../types/sql-value.ts";
import { onTimeWindowRows, randomWindowEvents, TOP2_BY_PRICE, WINDOW_TOP_N_CASES, windowTopNOracle } from "../../../test/support/table-operator-oracles.ts";
import { rowWatermarks } from "../../../test/support/row-watermarks.ts";
import { windowRank, type WindowRankSpec } from "./window-rank.ts";
import { windowTableFunction } from "./window-table-function.ts";
import type { WindowSpec } from "./window-spec.ts";

/** [key, id, price, ts] rows through a window TVF (one subtask, so lateness follows the input order) into a window Top-N. */
async function runWindowRank(events: readonly SqlValue[][], window: WindowSpec, spec: WindowRankSpec, bound: number, parallelism = 1): Promise<Row[]> {
  const env = StreamExecutionEnvironment.create({ parallelism, autoWatermarkInterval: 0 });
  const input = env
    .fromCollection(events.map((e) => Row.of(...e)))
    .assignTimestampsAndWatermarks(rowWatermarks(3, bound))
    .setParallelism(1);
  const windowed = (windowTableFunction(input, window, { uid: "tvf", name: "WindowTableFunction" }) as SingleOutputStreamOperator<Row>).setParallelism(1);
  windowRank(windowed, spec, { uid: "window-rank", name: "WindowRank" }).sinkTo(collectSink("out"));
  return (await env.execute("window-rank")).getCollected<Row>("out");
}

const tumble10: WindowSpec = { kind: "tumble", timeField: 3, size: 10, offset: 0 };

describe("window Top-N golden output", () => {
  it("top 2 by price per 10 ms window: rows come out when the window fires, a row for a fired window is dropped", async () => {
    const events: SqlValue[][] = [
      ["a", 0n, 5, 1],
      ["b", 1n, 7, 3],
      ["c", 2n, 6, 8],
      ["d", 3n, 9, 12], // the watermark 11 after it fires [0, 10)
      ["e", 4n, 10, 2], // late
      ["f", 5n, 1, 15],
    ];
    expect(formatChangelog(await runWindowRank(events, tumble10, TOP2_BY_PRICE, 0))).toBe(
      ["+I[b, 1, 7, 3, 0, 10, 9, 1]", "+I[c, 2, 6, 8, 0, 10, 9, 2]", "+I[d, 3, 9, 12, 10, 20, 19, 1]", "+I[f, 5, 1, 15, 10, 20, 19, 2]"].join("\n"),
    );
  });
});

describe("window Top-N equals the batch query over the on-time rows (randomized)", () => {
  for (const [name, window, spec] of WINDOW_TOP_N_CASES) {
    it(name, async () => {
      const seed = testSeed();
      const events = randomWindowEvents(seededRandom(seed), 500, 3, 60);
      const bound = 25;
      const out = await runWindowRank(events, window, spec, bound, 2);
      expect(out.every((r) => r.kind === "+I")).toBe(true);
      const expected = sortRows(windowTopNOracle(onTimeWindowRows(events, window, bound), spec).map((f) => Row.of(...f)));
      expect(formatChangelog(sortRows(out)), `WEIR_SEED=${seed}`).toBe(formatChangelog(expected));
    }, 30_000);
  }
});
