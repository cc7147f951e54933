/**
 * EXPLAIN: the plan as an indented tree in Flink's layout, each node with
 * its changelog mode when `CHANGELOG_MODE` is asked for
 * (`changelogMode=[I,UB,UA,D]`).
 */
import { formatChangelogMode } from "./changelog-mode.ts";
import type { ChangelogModes } from "./changelog-inference.ts";
import { describeNode } from "./describe-node.ts";
import { inputsOf, type RelNode } from "./rel-node.ts";

/** A root of an explained plan: a sink's description and its input, or a query's root node. */
export interface ExplainRoot {
  /** `Sink(table=[…], fields=[…])`, or undefined for a query. */
  sink?: string;
  node: RelNode;
  modes: ChangelogModes;
}

/**
 * The text of `EXPLAIN [CHANGELOG_MODE]` for `roots`.
 *
 * @example
 * ```ts
 * explainPlan([{ node, modes }], true);
 * // == Optimized Physical Plan ==
 * // GroupAggregate(groupBy=[user], select=[user, COUNT(url) AS cnt], changelogMode=[I,UB,UA])
 * // +- TableSourceScan(table=[[default_catalog, default_database, clicks]], fields=[user, url], changelogMode=[I])
 * ```
 */
export function explainPlan(roots: readonly ExplainRoot[], changelogMode: boolean): string {
  const lines: string[] = ["== Optimized Physical Plan =="];
  for (const root of roots) {
    const mode = (n: RelNode) => (changelogMode ? `, changelogMode=[${formatChangelogMode(root.modes.of(n))}]` : "");
    const tree = (n: RelNode, prefix: string, childPrefix: string) => {
      const d = describeNode(n);
      lines.push(prefix + d.slice(0, -1) + mode(n) + ")");
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
