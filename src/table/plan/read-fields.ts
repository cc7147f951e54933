/**
 * Projection push-down: which physical columns of each table source a plan
 * reads. A source may then leave the other columns NULL instead of decoding
 * them, and no operator carries their values (in state, across threads).
 * The analysis goes from the roots down, each node mapping the fields read
 * of its output to the fields it reads of its inputs; where a node's needs
 * are not known, it reads all of them.
 */
import type { TableSource } from "../connectors/dynamic-table-factory.ts";
import type { AggregateCall } from "../runtime/aggregate-call.ts";
import type { PlanExpr, RelNode } from "./rel-node.ts";

/** The physical columns (positions) read of each table source under `roots`, all of whose fields are read. */
export function sourceProjections(roots: readonly RelNode[]): Map<TableSource, number[]> {
  const read = new Map<TableSource, Set<number>>();
  for (const r of roots) visit(r, all(r), read);
  return new Map([...read].map(([s, f]) => [s, [...f].sort((a, b) => a - b)]));
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

function visit(node: RelNode, needed: Set<number>, read: Map<TableSource, Set<number>>): void {
  const width = (n: RelNode) => n.rowType.names.length;
  const go = (input: RelNode, fields: Iterable<number>) => visit(input, new Set([...fields].filter((f) => f >= 0 && f < width(input))), read);
  switch (node.kind) {
    case "scan": {
      let s = read.get(node.source);
      if (s === undefined) read.set(node.source, (s = new Set()));
      for (const f of needed) s.add(f);
      return;
    }
    case "values":
    case "dataStream":
      return;
    case "project":
      return go(node.input, [...needed].flatMap((i) => readsOf(node.exprs[i], width(node.input))));
    case "filter":
      return go(node.input, [...needed, ...readsOf(node.condition, width(node.input))]);
    case "watermarkAssigner":
      return go(node.input, [...needed, node.rowtimeField, ...readsOf(node.watermark, width(node.input))]);
    case "aggregate":
      return go(node.input, [...node.groupKeys, ...callReads(node.calls)]);
    case "windowAggregate":
      return go(node.input, [...node.groupKeys, ...callReads(node.calls), node.window.timeField, ...(node.window.kind === "session" ? node.window.partitionKeys : [])]);
    case "expand":
      return go(node.input, [...needed, ...node.groupKeys]);
    case "windowTableFunction":
      return go(node.input, [...needed, node.window.timeField, ...(node.window.kind === "session" ? node.window.partitionKeys : [])]);
    case "overAggregate":
      return go(node.input, [...needed, ...node.partitionKeys, node.timeField, ...callReads(node.calls)]);
    case "rank":
    case "windowRank":
      return go(node.input, [...needed, ...node.partitionKeys, ...node.orderBy.map((o) => o.field), ...(node.kind === "windowRank" ? node.window : [])]);
    case "deduplicate":
      return go(node.input, [...needed, ...node.keys, ...(node.timeField === undefined ? [] : [node.timeField])]);
    case "windowDeduplicate":
      return go(node.input, [...needed, ...node.keys, node.timeField, ...node.window]);
    case "replicate":
      return go(node.input, [...needed, node.countField]);
    case "correlate":
      return go(node.input, [...needed, ...node.args.flatMap((a) => readsOf(a, width(node.input)))]);
    case "union":
      for (const i of node.inputs) go(i, needed);
      return;
    case "lookupJoin": {
      const nl = width(node.input);
      const reads = [...needed, ...readsOf(node.condition, nl + node.tableType.names.length)].filter((f) => f < nl);
      return go(node.input, [...reads, ...node.keys.flatMap((k) => readsOf(k, nl))]);
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
      if (node.kind === "windowJoin") {
        left.push(...node.leftWindow);
        right.push(...node.rightWindow);
      }
      go(node.left, left);
      go(node.right, right);
      return;
    }
  }
}
