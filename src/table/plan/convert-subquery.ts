/**
 * WHERE with `IN (SELECT …)`, `NOT IN (SELECT …)`, `EXISTS (…)` and
 * `NOT EXISTS (…)` conjuncts: each becomes a semi or anti join of the
 * rows so far with the subquery; a correlated subquery's conditions on the
 * outer row become the join's condition. The other conjuncts filter.
 */
import type { Expr, ExprOf, Query, SourceLoc } from "../sql/ast.ts";
import { SqlValidationError } from "../validation/sql-validation-error.ts";
import { columnRef, conjunction, conjuncts, someExpr } from "./ast-walk.ts";
import { bindPlanExpr, fieldRef } from "./bind-plan-expr.ts";
import { convertFrom } from "./convert-from.ts";
import { planJoin } from "./convert-join.ts";
import { convertQuery, filterNode, type CteScope } from "./convert-query.ts";
import type { PlannerContext } from "./planner-context.ts";
import { concatRowTypes, planRowType } from "./plan-row-type.ts";
import type { PlanExpr, PlanRowType, RelNode } from "./rel-node.ts";

const isSubquery = (e: Expr) => e.kind === "inQuery" || e.kind === "exists" || e.kind === "subquery";

/** `node` filtered by `where`, subquery conjuncts as semi/anti joins. */
export function applyWhere(ctx: PlannerContext, node: RelNode, where: Expr, ctes: CteScope): RelNode {
  const plain: Expr[] = [];
  const subqueries: Expr[] = [];
  for (const c of conjuncts(where)) (someExpr(c, isSubquery) ? subqueries : plain).push(c);
  let out = node;
  const p = conjunction(plain);
  if (p !== undefined) out = filterNode(out, p);
  for (const c of subqueries) out = semiJoin(ctx, out, c, ctes);
  return out;
}

function semiJoin(ctx: PlannerContext, outer: RelNode, c: Expr, ctes: CteScope): RelNode {
  let e = c;
  let negated = false;
  if (e.kind === "unary" && e.op === "NOT") {
    negated = true;
    e = e.operand;
  }
  if (e.kind === "exists") return existsJoin(ctx, outer, e.query, undefined, negated, ctes);
  if (e.kind === "inQuery") return existsJoin(ctx, outer, e.query, e, negated !== e.not, ctes);
  throw new SqlValidationError("Subqueries are supported as IN / NOT IN / EXISTS / NOT EXISTS conjuncts of WHERE", c.loc);
}

/**
 * `outer` semi- (or anti-) joined with `query`; for IN, the operand equals
 * the subquery's single column.
 */
function existsJoin(ctx: PlannerContext, outer: RelNode, query: Query, inExpr: ExprOf<"inQuery"> | undefined, anti: boolean, ctes: CteScope): RelNode {
  const joinType = anti ? "ANTI" : "SEMI";
  const body = query.body;
  // correlated: a plain SELECT whose WHERE reads the outer row
  if (body.kind === "select" && body.from !== undefined && body.groupBy === undefined && query.with.length === 0) {
    const from = convertFrom(ctx, body.from, ctes);
    if (from.pendingRank === undefined) {
      const inner = from.node;
      const local: Expr[] = [];
      const correlated: Expr[] = [];
      for (const w of body.where === undefined ? [] : conjuncts(body.where)) (resolves(w, inner.rowType) ? local : correlated).push(w);
      if (correlated.length > 0) {
        const l = conjunction(local);
        let filtered = l === undefined ? inner : filterNode(inner, l);
        const conds = [...correlated];
        if (inExpr !== undefined) {
          if (body.items.length !== 1 || body.items[0]!.expr.kind === "star") throw new SqlValidationError("The subquery of IN must select one column", query.loc);
          // the selected expression reads the subquery's own columns (`num` in `L.num IN (SELECT num FROM R
          // WHERE …)` even when the outer row has a `num` too): where the joined row resolves it otherwise,
          // it is computed in the subquery's row as a hidden column
          const t = filtered.rowType;
          const selected = body.items[0]!.expr;
          const item = bindPlanExpr(selected, t);
          let right: Expr = selected;
          if (!readsSame(selected, concatRowTypes(outer.rowType, t), item, outer.rowType.names.length)) {
            const rowType = { ...concatRowTypes(t, planRowType([{ name: "$#in", type: item.type }])), ...(t.windowBounds === undefined ? {} : { windowBounds: t.windowBounds }) };
            filtered = { kind: "project", input: filtered, exprs: [...t.names.map((_, i) => fieldRef(t, i)), item], rowType };
            right = columnRef("$#in", inExpr.loc);
          }
          const nullable = anti && (bindPlanExpr(inExpr.operand, outer.rowType).type.nullable || item.type.nullable);
          conds.unshift(inEquality(inExpr.operand, right, nullable, inExpr.loc));
        }
        const cond = conjunction(conds)!;
        bindPlanExpr(cond, concatRowTypes(outer.rowType, filtered.rowType)); // located errors for unknown columns
        return planJoin(outer, filtered, joinType, cond);
      }
    }
  }
  const sub = convertQuery(ctx, query, ctes);
  if (inExpr === undefined) return planJoin(outer, sub, joinType, undefined);
  if (sub.rowType.names.length !== 1) throw new SqlValidationError("The subquery of IN must select one column", query.loc);
  const ref: Expr = { kind: "column", names: [{ value: `$#in`, quoted: true, loc: inExpr.loc }], loc: inExpr.loc };
  const renamed = { ...sub, rowType: { ...sub.rowType, names: ["$#in"], qualifiers: [undefined] } } as RelNode;
  const nullable = anti && (bindPlanExpr(inExpr.operand, outer.rowType).type.nullable || sub.rowType.types[0]!.nullable);
  return planJoin(outer, renamed, joinType, inEquality(inExpr.operand, ref, nullable, inExpr.loc));
}

/**
 * The match condition of `a IN (… b …)`: `a = b`. For NOT IN over nullable
 * values it is null-aware, `a = b OR a IS NULL OR b IS NULL`, as SQL's
 * three-valued logic wants: a NULL operand (with a non-empty subquery) or a
 * NULL in the subquery makes `NOT IN` unknown, so the anti join drops the row.
 */
function inEquality(a: Expr, b: Expr, nullAware: boolean, loc: SourceLoc): Expr {
  const eq: Expr = { kind: "binary", op: "=", left: a, right: b, loc };
  if (!nullAware) return eq;
  const isNull = (e: Expr): Expr => ({ kind: "is", operand: e, not: false, test: "NULL", loc });
  return { kind: "binary", op: "OR", left: { kind: "binary", op: "OR", left: eq, right: isNull(a), loc }, right: isNull(b), loc };
}

/** True when `e` bound over `joined` reads the columns `own` (bound over the right side alone) reads, shifted by `offset`. */
function readsSame(e: Expr, joined: PlanRowType, own: PlanExpr, offset: number): boolean {
  try {
    const reads = bindPlanExpr(e, joined).reads ?? [];
    const expected = (own.reads ?? []).map((i) => i + offset);
    return reads.length === expected.length && reads.every((r, i) => r === expected[i]);
  } catch {
    return false;
  }
}

function resolves(e: Expr, t: PlanRowType): boolean {
  try {
    bindPlanExpr(e, t);
    return true;
  } catch {
    return false;
  }
}
