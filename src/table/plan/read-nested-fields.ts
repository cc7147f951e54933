/**
 * Nested projection push-down (Flink's `SupportsProjectionPushDown` with
 * nested fields): which fields of each ROW column of a table source the job
 * reads, so that the source leaves the others NULL in the ROW values it makes
 * instead of converting them. A field is read when an expression reads it
 * (`bid.price`), through the projections, filters and watermark assigners
 * between the scan and the nodes that read it; a ROW value read as a whole
 * (selected, compared, passed to a function that is not generated code, or
 * read by any other kind of node) reads all its fields.
 */
import type { TableSource } from "../connectors/dynamic-table-factory.ts";
import type { Evaluator } from "../expr/compile-expression.ts";
import { codeOf } from "../expr/expr-code.ts";
import { ReadFields } from "./read-fields.ts";
import { inputsOf, type PlanExpr, type RelNode } from "./rel-node.ts";

/** Per ROW position of a node's rows: the field positions read of its values, or all of them. */
type NestedReads = Map<number, Set<number> | "all">;

/**
 * For each table source under `roots` (all of whose fields are read): per ROW column the job reads, the positions of
 * the fields it reads of it, ascending. A ROW column that is not in the map is not read, or read as a whole.
 *
 * @example
 * ```ts
 * // SELECT bid.auction, bid.price FROM nexmark WHERE event_type = 2
 * sourceNestedProjections([root]).get(nexmarkSource); // Map { 3 => [0, 2] }
 * ```
 */
export function sourceNestedProjections(roots: readonly RelNode[], read: ReadFields = new ReadFields(roots)): Map<TableSource, Map<number, number[]>> {
  const nested = new Map<RelNode, NestedReads>();
  const visit = (node: RelNode, needs: NestedReads): void => {
    let s = nested.get(node);
    const first = s === undefined;
    if (s === undefined) nested.set(node, (s = new Map()));
    if (!merge(s, needs) && !first) return;
    inputNeeds(node, s, read).forEach((n, i) => visit(inputsOf(node)[i]!, n));
  };
  for (const r of roots) visit(r, allRows(r, read.of(r)));
  const bySource = new Map<TableSource, NestedReads>();
  for (const [node, needs] of nested) {
    if (node.kind !== "scan") continue;
    let s = bySource.get(node.source);
    if (s === undefined) bySource.set(node.source, (s = new Map()));
    merge(s, needs);
  }
  const out = new Map<TableSource, Map<number, number[]>>();
  for (const [source, needs] of bySource) {
    const columns = new Map<number, number[]>();
    for (const [p, fields] of needs) if (fields !== "all") columns.set(p, [...fields].sort((a, b) => a - b));
    out.set(source, columns);
  }
  return out;
}

/** Adds `more` to `into`; whether it grew. */
function merge(into: NestedReads, more: NestedReads): boolean {
  let grew = false;
  for (const [p, fields] of more) {
    const had = into.get(p);
    if (had === "all") continue;
    if (fields === "all") {
      into.set(p, "all");
      grew = true;
    } else if (had === undefined) {
      into.set(p, new Set(fields));
      grew = true;
    } else {
      for (const f of fields) {
        if (!had.has(f)) {
          had.add(f);
          grew = true;
        }
      }
    }
  }
  return grew;
}

function isRow(node: RelNode, p: number): boolean {
  return node.rowType.types[p]?.kind === "row";
}

/** Every ROW position of `node` among `positions`, read as a whole. */
function allRows(node: RelNode, positions: Iterable<number>): NestedReads {
  const m: NestedReads = new Map();
  for (const p of positions) if (isRow(node, p)) m.set(p, "all");
  return m;
}

/** What `node` reads of the ROW values of each of its inputs (in `inputsOf` order) when `needs` of its own are read. */
function inputNeeds(node: RelNode, needs: NestedReads, read: ReadFields): NestedReads[] {
  switch (node.kind) {
    case "scan":
    case "values":
    case "dataStream":
      return [];
    case "project": {
      const input = node.input;
      const m: NestedReads = new Map();
      for (const i of read.of(node)) {
        const e = node.exprs[i];
        if (e === undefined) continue;
        const asRow = needs.get(i);
        if (e.inputRef !== undefined && asRow !== undefined) merge(m, new Map([[e.inputRef, asRow]]));
        else exprNeeds(e, input, m);
      }
      return [m];
    }
    case "filter":
    case "watermarkAssigner": {
      const m: NestedReads = new Map(needs);
      exprNeeds(node.kind === "filter" ? node.condition : node.watermark, node.input, m);
      return [m];
    }
    default:
      // any other node: every ROW value it reads, it reads as a whole
      return inputsOf(node).map((input) => allRows(input, read.of(input)));
  }
}

/** Adds what `e` reads of the ROW values of `input`'s rows to `m`. */
function exprNeeds(e: PlanExpr, input: RelNode, m: NestedReads): void {
  const found: NestedReads = new Map();
  if (walk(e.eval, input, found)) merge(m, found);
  else merge(m, allRows(input, e.reads ?? input.rowType.names.map((_, i) => i)));
}

/** Adds the ROW fields `ev` reads to `m`; false when part of it is not known (an evaluator without an `ExprCode`). */
function walk(ev: Evaluator, input: RelNode, m: NestedReads): boolean {
  const code = codeOf(ev);
  if (code === undefined) return false;
  switch (code.op) {
    case "literal":
      return true;
    case "field":
      if (isRow(input, code.index)) merge(m, new Map([[code.index, "all"]]));
      return true;
    case "rowField": {
      const row = codeOf(code.row);
      if (row?.op === "field") {
        if (isRow(input, row.index)) merge(m, new Map([[row.index, new Set([code.index])]]));
        return true;
      }
      return walk(code.row, input, m);
    }
    case "not":
    case "is":
      return walk(code.x, input, m);
    case "and":
    case "or":
    case "compare":
      return walk(code.l, input, m) && walk(code.r, input, m);
    case "strict":
      return code.args.every((a) => walk(a, input, m));
    case "case":
      return code.whens.every(([w, t]) => walk(w, input, m) && walk(t, input, m)) && walk(code.otherwise, input, m);
  }
}
