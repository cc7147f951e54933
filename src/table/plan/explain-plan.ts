/**
 * EXPLAIN: the plan as an indented tree in Flink's layout, each node with
 * its changelog mode when `CHANGELOG_MODE` is asked for
 * (`changelogMode=[I,UB,UA,D]`).
 */
import { formatChangelogMode } from "./changelog-mode.ts";
import type { ChangelogModes } from "./changelog-inference.ts";
import { runsInTwoPhases, windowRankRunsInTwoPhases, type AggPhaseStrategy } from "./agg-phase-strategy.ts";
import { describeLocalWindowAggregate, describeNode } from "./describe-node.ts";
import { inputsOf, type RelNode } from "./rel-node.ts";
import { sharedSubPlans, SubPlanDigests } from "./sub-plan-digest.ts";

/** A root of an explained plan: a sink's description and its input, or a query's root node. */
export interface ExplainRoot {
  /** `Sink(table=[…], fields=[…])`, or undefined for a query. */
  sink?: string;
  node: RelNode;
  modes: ChangelogModes;
}

/**
 * The text of `EXPLAIN [CHANGELOG_MODE]` for `roots`. With `reuseSubPlans`
 * (`table.optimizer.reuse-sub-plan-enabled`), a sub-plan that the job computes
 * once for several consumers (see sub-plan-digest.ts) is printed once, with
 * `reuse_id=[n]`, and as `Reused(reference_id=[n])` where it is consumed again
 * (a bare source, shared in any case, is printed at each scan). A window
 * aggregation that runs in two phases under `aggPhaseStrategy`
 * (`table.optimizer.agg-phase-strategy`) is printed as its
 * `GlobalWindowAggregate` over its `LocalWindowAggregate`, and a window Top-N
 * under the same setting as its `WindowRank` over its `LocalWindowRank`.
 *
 * @example
 * ```ts
 * explainPlan([{ node, modes }], true, true);
 * // == Optimized Physical Plan ==
 * // GroupAggregate(groupBy=[user], select=[user, COUNT(url) AS cnt], changelogMode=[I,UB,UA])
 * // +- TableSourceScan(table=[[default_catalog, default_database, clicks]], fields=[user, url], changelogMode=[I])
 * ```
 */
export function explainPlan(roots: readonly ExplainRoot[], changelogMode: boolean, reuseSubPlans = false, aggPhaseStrategy: AggPhaseStrategy = "AUTO"): string {
  const lines: string[] = ["== Optimized Physical Plan =="];
  const digests = new SubPlanDigests();
  const shared = reuseSubPlans ? sharedSubPlans(roots.map((r) => r.node), digests) : new Map<string, number>();
  const printed = new Set<string>();
  for (const root of roots) {
    const mode = (n: RelNode) => (changelogMode ? `, changelogMode=[${formatChangelogMode(root.modes.of(n))}]` : "");
    const tree = (n: RelNode, prefix: string, childPrefix: string) => {
      const d = describeNode(n);
      const id = shared.size === 0 ? undefined : shared.get(digests.of(n));
      if (id !== undefined && printed.has(digests.of(n))) {
        lines.push(`${prefix}Reused(reference_id=[${id}])`);
        return;
      }
      if (id !== undefined) printed.add(digests.of(n));
      const twoPhase = n.kind === "windowAggregate" && runsInTwoPhases(n, aggPhaseStrategy);
      lines.push(prefix + (twoPhase ? "Global" : "") + d.slice(0, -1) + mode(n) + (id === undefined ? "" : `, reuse_id=[${id}]`) + ")");
      if (twoPhase) {
        // the local phase emits partial accumulators, insert-only
        lines.push(`${childPrefix}+- ${describeLocalWindowAggregate(n).slice(0, -1)}${changelogMode ? ", changelogMode=[I]" : ""})`);
        childPrefix += "   ";
      } else if (n.kind === "windowRank" && windowRankRunsInTwoPhases(aggPhaseStrategy)) {
        // the local phase sends on some of its input rows, insert-only
        lines.push(`${childPrefix}+- Local${d.slice(0, -1)}${changelogMode ? ", changelogMode=[I]" : ""})`);
        childPrefix += "   ";
      }
      const inputs = inputsOf(n);
      inputs.forEach((input, i) => {
        const last = i === inputs.length - 1;
        tree(input, childPrefix + (last ? "+- " : ":- "), childPrefix + (last ? "   " : ":  "));
      });
    };
    if (root.sink !== undefined) {
      lines.push(root.sink.slice(0, -1) + (changelogMode ? ", changelogMode=[NONE]" : "") + ")");
      tree(root.node, "+- ", "   ");
    } else {
      tree(root.node, "", "");
    }
  }
  return lines.join("\n") + "\n";
}
