/**
 * Walking and rewriting scalar expressions of the syntax tree for the
 * planner: conjuncts of a condition, the calls an expression contains, and
 * a copy with chosen subexpressions replaced (aggregate calls by the
 * aggregation's output columns, for instance). Subqueries are not entered.
 */
import type { Expr, ExprOf, Identifier, SourceLoc } from "../sql/ast.ts";

/** The `AND`-ed parts of a condition. */
export function conjuncts(e: Expr): Expr[] {
  return e.kind === "binary" && e.op === "AND" ? [...conjuncts(e.left), ...conjuncts(e.right)] : [e];
}

/** The conjunction of `parts` (undefined for none). */
export function conjunction(parts: readonly Expr[]): Expr | undefined {
  if (parts.length === 0) return undefined;
  return parts.reduce((l, r) => ({ kind: "binary", op: "AND", left: l, right: r, loc: l.loc }));
}

/** A column reference to `name` located at `loc` (synthetic columns of the planner are named `$…`). */
export function columnRef(name: string, loc: SourceLoc): ExprOf<"column"> {
  const id: Identifier = { value: name, quoted: true, loc };
  return { kind: "column", names: [id], loc };
}

/** The direct subexpressions of `e` (not entering subqueries). */
export function children(e: Expr): Expr[] {
  switch (e.kind) {
    case "unary": return [e.operand];
    case "binary": case "isDistinctFrom": return [e.left, e.right];
    case "is": return [e.operand];
    case "between": return [e.operand, e.low, e.high];
    case "inList": return [e.operand, ...e.list];
    case "inQuery": return [e.operand];
    case "like": return [e.operand, e.pattern, ...(e.escape ? [e.escape] : [])];
    case "case": return [...(e.operand ? [e.operand] : []), ...e.whens.flatMap((w) => [w.when, w.then]), ...(e.else ? [e.else] : [])];
    case "cast": return [e.expr];
    case "extract": return [e.source];
    case "trim": return [...(e.characters ? [e.characters] : []), e.source];
    case "floorCeil": return [e.expr];
    case "row": case "array": return e.values;
    case "map": return e.entries;
    case "item": return [e.base, e.index];
    case "call": return [...e.args.map((a) => a.value), ...(e.filter ? [e.filter] : [])];
    default: return [];
  }
}

/** Calls `visit` on `e` and every subexpression, parents first; `visit` returning false skips the children. */
export function walk(e: Expr, visit: (e: Expr) => boolean | void): void {
  if (visit(e) === false) return;
  for (const c of children(e)) walk(c, visit);
}

/** True when some subexpression satisfies `test`. */
export function someExpr(e: Expr, test: (e: Expr) => boolean): boolean {
  let found = false;
  walk(e, (x) => {
    if (found) return false;
    if (test(x)) found = true;
    return !found;
  });
  return found;
}

/**
 * A copy of `e` in which every subexpression for which `replace` returns an
 * expression is replaced by it (its children are not visited then).
 */
export function rewrite(e: Expr, replace: (e: Expr) => Expr | undefined): Expr {
  const r = replace(e);
  if (r !== undefined) return r;
  const f = (x: Expr) => rewrite(x, replace);
  switch (e.kind) {
    case "unary": return { ...e, operand: f(e.operand) };
    case "binary": return { ...e, left: f(e.left), right: f(e.right) };
    case "isDistinctFrom": return { ...e, left: f(e.left), right: f(e.right) };
    case "is": return { ...e, operand: f(e.operand) };
    case "between": return { ...e, operand: f(e.operand), low: f(e.low), high: f(e.high) };
    case "inList": return { ...e, operand: f(e.operand), list: e.list.map(f) };
    case "inQuery": return { ...e, operand: f(e.operand) };
    case "like": return { ...e, operand: f(e.operand), pattern: f(e.pattern), ...(e.escape ? { escape: f(e.escape) } : {}) };
    case "case":
      return {
        ...e,
        ...(e.operand ? { operand: f(e.operand) } : {}),
        whens: e.whens.map((w) => ({ when: f(w.when), then: f(w.then) })),
        ...(e.else ? { else: f(e.else) } : {}),
      };
    case "cast": return { ...e, expr: f(e.expr) };
    case "extract": return { ...e, source: f(e.source) };
    case "trim": return { ...e, source: f(e.source), ...(e.characters ? { characters: f(e.characters) } : {}) };
    case "floorCeil": return { ...e, expr: f(e.expr) };
    case "row": return { ...e, values: e.values.map(f) };
    case "array": return { ...e, values: e.values.map(f) };
    case "map": return { ...e, entries: e.entries.map(f) };
    case "item": return { ...e, base: f(e.base), index: f(e.index) };
    case "call": return { ...e, args: e.args.map((a) => ({ ...a, value: f(a.value) })), ...(e.filter ? { filter: f(e.filter) } : {}) };
    default: return e;
  }
}

/** The upper-case name of a call, e.g. `COUNT`. */
export function callName(e: ExprOf<"call">): string {
  return e.name.map((n) => n.value).join(".").toUpperCase();
}
