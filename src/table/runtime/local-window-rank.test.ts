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
import { localWindowRank } from "./local-window-rank.ts";
import { windowRank, type WindowRankSpec } from "./window-rank.ts";
import { windowTableFunction } from "./window-table-function.ts";
import type { WindowSpec } from "./window-spec.ts";

/**
 * [key, id, price, ts] rows through a window TVF (one subtask, so lateness follows the input order) and the local
 * phase into the window Top-N at parallelism 2; also how many rows the local phase sent on. `spread`: two local
 * phases after a rebalance (their watermarks then reach the window rank at their own pace, so the input must have
 * no late row for the result to be the batch query's); else one, chained to the TVF as the planner places it.
 */
async function runTwoPhases(events: readonly SqlValue[][], window: WindowSpec, spec: WindowRankSpec, bound: number, spread: boolean): Promise<{ out: Row[]; sent: number }> {
  const env = StreamExecutionEnvironment.create({ parallelism: 2, autoWatermarkInterval: 0 });
  const input = env
    .fromCollection(events.map((e) => Row.of(...e)))
    .assignTimestampsAndWatermarks(rowWatermarks(3, bound))
    .setParallelism(1);
  const windowed = (windowTableFunction(input, window, { uid: "tvf", name: "WindowTableFunction" }) as SingleOutputStreamOperator<Row>).setParallelism(1);
  const best = spread
    ? localWindowRank(windowed.rebalance(), spec, { uid: "local-window-rank", name: "LocalWindowRank" })
    : localWindowRank(windowed, spec, { uid: "local-window-rank", name: "LocalWindowRank" }).setParallelism(1);
  best.map(() => 1).uid("sent").sinkTo(collectSink("sent"));
  windowRank(best, spec, { uid: "window-rank", name: "WindowRank" }).sinkTo(collectSink("out"));
  const result = await env.execute("local-window-rank");
  return { out: result.getCollected<Row>("out"), sent: result.getCollected<number>("sent").length };
}

describe("a window Top-N after local phases equals the batch query over the on-time rows (randomized)", () => {
  const cases = [
    ...WINDOW_TOP_N_CASES,
    ["RANK top 1 with ties, tumbling", { kind: "tumble", timeField: 3, size: 100, offset: 0 }, { ...TOP2_BY_PRICE, rankType: "RANK", rankEnd: 1, outputRankNumber: false }],
  ] as const satisfies readonly (readonly [string, Exclude<WindowSpec, { kind: "session" }>, WindowRankSpec])[];
  for (const [name, window, spec] of cases) {
    for (const spread of [false, true]) {
      it(`${name}, ${spread ? "two local phases after a rebalance, no late row" : "one local phase chained to the TVF, late rows"}`, async () => {
        const seed = testSeed();
        const disorder = 60;
        const events = randomWindowEvents(seededRandom(seed), 500, 3, disorder);
        const bound = spread ? disorder : 25;
        const { out, sent } = await runTwoPhases(events, window, spec, bound, spread);
        expect(out.every((r) => r.kind === "+I")).toBe(true);
        const w: Exclude<WindowSpec, { kind: "session" }> = window;
        const onTime = onTimeWindowRows(events, w, bound);
        const expected = sortRows(windowTopNOracle(onTime, spec).map((f) => Row.of(...f)));
        expect(formatChangelog(sortRows(out)), `WEIR_SEED=${seed}`).toBe(formatChangelog(expected));
        // never more rows cross the exchange than the window TVF gave; for a top 1 of a whole window, its ties (prices 0–5: a sixth of the rows, and what each phase keeps)
        const tvfRows = onTimeWindowRows(events, w, Infinity).length;
        expect(sent, `WEIR_SEED=${seed}`).toBeLessThanOrEqual(tvfRows);
        if (spec.rankEnd === 1 && spec.partitionKeys.length === 0) expect(sent, `WEIR_SEED=${seed}`).toBeLessThan(tvfRows / 2);
      }, 30_000);
    }
  }
});
