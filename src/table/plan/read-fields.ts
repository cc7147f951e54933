/**
 * Which fields of each plan node something reads: the roots (a sink, a
 * query's result) read all of theirs, and each node maps the fields read of
 * its output to the fields it reads of its inputs (its keys, conditions,
 * time attributes and window bounds always). Where a node's needs are not
 * known, it reads all of them. Nodes that compute the same rows (equal
 * sub-plan digests, see sub-plan-digest.ts) are one sub-plan: the fields
 * read of it are those any of its consumers reads.
 *
 * Two uses: projection push-down (a table source leaves the columns no one
 * reads NULL instead of decoding them, {@link sourceProjections}) and column
 * pruning below stateful operators (prune-columns.ts).
 */
import type { TableSource } from "../connectors/dynamic-table-factory.ts";
import type { AggregateCall } from "../runtime/aggregate-call.ts";
import { inputsOf, type PlanExpr, type RelNode } from "./rel-node.ts";
import { SubPlanDigests } from "./sub-plan-digest.ts";

/**
 * The fields read of every node of one or more plans.
 *
 * @example
 * ```ts
 * const read = new ReadFields([root]);
 * read.of(joinInput); // Set { 0, 2, 5 }: the positions the join and the nodes above it read
 * ```
 */
export class ReadFields {
  private readonly digests = new SubPlanDigests();
  private readonly read = new Map<string, Set<number>>();

  /** Analyses the plans under `roots`, all of whose fields are read. */
  constructor(roots: readonly RelNode[]) {
    for (const r of roots) this.visit(r, all(r));
  }

  /** The positions read of `node`'s output (empty for a node not under the roots). */
  of(node: RelNode): ReadonlySet<number> {
    return this.read.get(this.digests.of(node)) ?? new Set();
  }

  private visit(node: RelNode, fields: Iterable<number>): void {
    const key = this.digests.of(node);
    let s = this.read.get(key);
    const first = s === undefined;
    if (s === undefined) this.read.set(key, (s = new Set()));
    const before = s.size;
    const width = node.rowType.names.length;
    for (const f of fields) if (f >= 0 && f < width) s.add(f);
    // a sub-plan's inputs are visited again only when its consumers read more of it
    if (!first && s.size === before) return;
    const needs = inputNeeds(node, s);
    inputsOf(node).forEach((input, i) => this.visit(input, needs[i]!));
  }
}

/** The physical columns (positions) read of each table source under `roots`, all of whose fields are read. */
export function sourceProjections(roots: readonly RelNode[], read: ReadFields = new ReadFields(roots)): Map<TableSource, number[]> {
  const columns = new Map<TableSource, Set<number>>();
  const seen = new Set<RelNode>();
  const walk = (n: RelNode) => {
    if (seen.has(n)) return;
    seen.add(n);
    if (n.kind === "scan") {
      let s = columns.get(n.source);
      if (s === undefined) columns.set(n.source, (s = new Set()));
      for (const f of read.of(n)) s.add(f);
    }
    for (const i of inputsOf(n)) walk(i);
  };
  for (const r of roots) walk(r);
  return new Map([...columns].map(([s, f]) => [s, [...f].sort((a, b) => a - b)]));
}

function all(node: RelNode): Set<number> {
  return new Set(node.rowType.names.map((_, i) => i));
}

function readsOf(e: PlanExpr | undefined, width: number): number[] {
  if (e === undefined) return [];
  return e.reads === undefined ? Array.from({ length: width }, (_, i) => i) : [...e.reads];
}

function callReads(calls: readonly AggregateCall[]): number[] {
  return calls.flatMap((c) => [...c.args, ...(c.filterArg === undefined ? [] : [c.filterArg])]);
}

/** The fields `node` reads of each of its inputs (in `inputsOf` order) when `needed` of its output are read. */
function inputNeeds(node: RelNode, needed: ReadonlySet<number>): number[][] {
  const width = (n: RelNode) => n.rowType.names.length;
  switch (node.kind) {
    case "scan":
    case "values":
    case "dataStream":
      return [];
    case "project":
      return [[...needed].flatMap((i) => readsOf(node.exprs[i], width(node.input)))];
    case "filter":
      return [[...needed, ...readsOf(node.condition, width(node.input))]];
    case "watermarkAssigner":
      return [[...needed, node.rowtimeField, ...readsOf(node.watermark, width(node.input))]];
    case "aggregate":
      return [[...node.groupKeys, ...callReads(node.calls)]];
    case "windowAggregate":
      return [[...node.groupKeys, ...callReads(node.calls), node.window.timeField, ...(node.window.kind === "session" ? node.window.partitionKeys : [])]];
    case "expand":
      return [[...needed, ...node.groupKeys]];
    case "windowTableFunction":
      return [[...needed, node.window.timeField, ...(node.window.kind === "session" ? node.window.partitionKeys : [])]];
    case "overAggregate":
      return [[...needed, ...node.partitionKeys, node.timeField, ...callReads(node.calls)]];
    case "rank":
    case "windowRank":
      return [[...needed, ...node.partitionKeys, ...node.orderBy.map((o) => o.field), ...(node.kind === "windowRank" ? node.window : [])]];
    case "deduplicate":
      return [[...needed, ...node.keys, ...(node.timeField === undefined ? [] : [node.timeField])]];
    case "windowDeduplicate":
      return [[...needed, ...node.keys, node.timeField, ...node.window]];
    case "replicate":
      return [[...needed, node.countField]];
    case "correlate":
      return [[...needed, ...node.args.flatMap((a) => readsOf(a, width(node.input)))]];
    case "union":
      return node.inputs.map(() => [...needed]);
    case "lookupJoin": {
      const nl = width(node.input);
      const reads = [...needed, ...readsOf(node.condition, nl + node.tableType.names.length)].filter((f) => f < nl);
      return [[...reads, ...node.keys.flatMap((k) => readsOf(k, nl))]];
    }
    case "join":
    case "intervalJoin":
    case "windowJoin":
    case "temporalJoin": {
      const nl = width(node.left);
      const both = [...(node.joinType === "SEMI" || node.joinType === "ANTI" ? [...needed].filter((f) => f < nl) : needed), ...readsOf(node.condition, nl + width(node.right))];
      const left = [...both.filter((f) => f < nl), ...node.leftKeys];
      const right = [...both.filter((f) => f >= nl).map((f) => f - nl), ...node.rightKeys];
      if (node.kind === "intervalJoin" || node.kind === "temporalJoin") {
        left.push(node.leftTimeField);
        right.push(node.rightTimeField);
      }
      if (node.kind === "join" && node.timeBounds !== undefined) {
        left.push(node.timeBounds.leftTimeField);
        right.push(node.timeBounds.rightTimeField);
      }
      if (node.kind === "windowJoin") {
        left.push(...node.leftWindow);
        right.push(...node.rightWindow);
      }
      return [left, right];
    }
  }
}
