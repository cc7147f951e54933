/**
 * `table.optimizer.agg-phase-strategy` (as Flink's): whether a window
 * aggregation runs in one phase (one keyed operator that takes every row) or
 * in two (a local phase before the exchange by group key that folds the rows
 * of each key and slice, and a global phase that merges what it sends; see
 * `runtime/local-window-aggregate.ts`). `AUTO` (the default) and `TWO_PHASE`
 * choose two phases wherever they can run, `ONE_PHASE` never does. Group
 * aggregations run in one phase whatever it says. A window Top-N follows it
 * too (its local phase, `runtime/local-window-rank.ts`, keeps only the rows
 * that can still be ranked; Flink plans it in one phase).
 */
import { ChangelogMode } from "./changelog-mode.ts";
import { ChangelogModes } from "./changelog-inference.ts";
import type { RelNodeOf } from "./rel-node.ts";
import { canRunInTwoPhases } from "../runtime/window-aggregate.ts";

/** The values of `table.optimizer.agg-phase-strategy`. */
export type AggPhaseStrategy = "AUTO" | "ONE_PHASE" | "TWO_PHASE";

/** The strategy a setting names (any case), or undefined. */
export function aggPhaseStrategyOf(value: string): AggPhaseStrategy | undefined {
  const v = value.toUpperCase();
  return v === "AUTO" || v === "ONE_PHASE" || v === "TWO_PHASE" ? v : undefined;
}

/**
 * Whether the window aggregation `node` runs in two phases under `strategy`:
 * not for `ONE_PHASE`; otherwise when its window is sliced (TUMBLE, HOP,
 * CUMULATE), every call can merge partial accumulators (no DISTINCT; a
 * user-defined function with `merge`) and its input is insert-only.
 *
 * @example
 * ```ts
 * runsInTwoPhases(windowAggregateNode, "AUTO"); // true for COUNT(*) per HOP window
 * ```
 */
export function runsInTwoPhases(node: RelNodeOf<"windowAggregate">, strategy: AggPhaseStrategy): boolean {
  if (strategy === "ONE_PHASE") return false;
  if (!canRunInTwoPhases({ window: node.window, groupKeys: node.groupKeys, calls: node.calls })) return false;
  return ChangelogMode.isInsertOnly(new ChangelogModes(node.input).of(node.input));
}

/**
 * Whether a window Top-N runs with a local phase before its exchange under `strategy` (its input, a window
 * TVF's rows, is insert-only): not for `ONE_PHASE`.
 *
 * @example
 * ```ts
 * windowRankRunsInTwoPhases("AUTO"); // true
 * ```
 */
export function windowRankRunsInTwoPhases(strategy: AggPhaseStrategy): boolean {
  return strategy !== "ONE_PHASE";
}
