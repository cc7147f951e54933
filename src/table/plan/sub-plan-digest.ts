/**
 * Sub-plan reuse (Flink's `table.optimizer.reuse-sub-plan-enabled`, on by
 * default): plan nodes that compute the same rows from the same inputs are
 * one sub-plan, translated once, whose output feeds every consumer. Published
 * Nexmark q5 names the same HOP count twice (once for the counts, once for
 * their maximum); with reuse the job counts once.
 *
 * Two nodes are the same sub-plan when their digests are equal: the node as
 * EXPLAIN describes it (kind, expressions, keys, windows, calls), its output
 * names and types, and the digests of its inputs; a source is itself (one
 * table source, one DataStream). A node that calls a non-deterministic
 * built-in function (`RAND()`, `UUID()`, `NOW()`, `PROCTIME()`, …) has a
 * digest of its own, so it is never shared: each consumer keeps its own
 * values, as without reuse.
 *
 * The engine copies a record for each further edge of an output with several
 * consumers, so a consumer that changes a row never affects another.
 */
import { typeToString } from "../expr/type-rules.ts";
import { describeNode } from "./describe-node.ts";
import { inputsOf, type RelNode } from "./rel-node.ts";

/** Built-in functions whose value may differ between two evaluations of the same call (the planner never shares them). */
const NON_DETERMINISTIC =
  /\b(RAND|RAND_INTEGER|UUID|NOW|PROCTIME|CURRENT_TIMESTAMP|CURRENT_TIME|CURRENT_DATE|CURRENT_ROW_TIMESTAMP|LOCALTIME|LOCALTIMESTAMP|UNIX_TIMESTAMP)\b/i;

/**
 * The digests of the nodes of one or more plans.
 *
 * @example
 * ```ts
 * const digests = new SubPlanDigests();
 * digests.of(countsForJoin) === digests.of(countsForMax); // true: the same HOP count, planned once
 * ```
 */
export class SubPlanDigests {
  private readonly digests = new Map<RelNode, string>();
  /** Identities of sources and of non-shareable nodes. */
  private readonly identities = new Map<unknown, number>();

  /** The digest of `node`: equal for nodes that compute the same rows. */
  of(node: RelNode): string {
    let d = this.digests.get(node);
    if (d === undefined) {
      d = this.compute(node);
      this.digests.set(node, d);
    }
    return d;
  }

  private compute(node: RelNode): string {
    const description = describeNode(node);
    if (NON_DETERMINISTIC.test(description)) return `#${this.identity(node)}`;
    const types = node.rowType.types.map((t) => typeToString(t)).join(",");
    const source = node.kind === "scan" ? `@${this.identity(node.source)}` : node.kind === "dataStream" ? `@${this.identity(node.stream)}` : "";
    return `${description}${source}<${types}>(${inputsOf(node).map((i) => this.of(i)).join(";")})`;
  }

  private identity(thing: unknown): number {
    let id = this.identities.get(thing);
    if (id === undefined) {
      id = this.identities.size;
      this.identities.set(thing, id);
    }
    return id;
  }
}

/**
 * The digests of the sub-plans (other than bare sources) that `roots` consume more than once, numbered
 * from 1 in print order (a shared sub-plan's own inputs are not counted again).
 *
 * @example
 * ```ts
 * const digests = new SubPlanDigests();
 * sharedSubPlans([q5Root], digests).size; // 1: the HOP count that q5 reads twice
 * ```
 */
export function sharedSubPlans(roots: readonly RelNode[], digests: SubPlanDigests): Map<string, number> {
  const seen = new Set<string>();
  const order: string[] = [];
  const again = new Set<string>();
  const walk = (n: RelNode) => {
    const d = digests.of(n);
    if (seen.has(d)) {
      if (inputsOf(n).length > 0) again.add(d);
      return;
    }
    seen.add(d);
    order.push(d);
    for (const input of inputsOf(n)) walk(input);
  };
  for (const r of roots) walk(r);
  const ids = new Map<string, number>();
  for (const d of order) if (again.has(d)) ids.set(d, ids.size + 1);
  return ids;
}
