/**
 * Collections: the constructors `ARRAY[…]`, `MAP[k, v, …]` and `ROW(…)`,
 * element access `arr[i]` (1-based; NULL out of range) and `map[key]` (NULL
 * when absent), CARDINALITY, ELEMENT, ARRAY_CONTAINS, ARRAY_POSITION,
 * ARRAY_REMOVE, ARRAY_REVERSE, ARRAY_DISTINCT, MAP_KEYS and MAP_VALUES
 * (elements compared with IS NOT DISTINCT FROM). Arrays are JavaScript arrays, maps
 * `Map`s and rows arrays of field values (see `sql-value.ts`).
 */
import type { SourceLoc } from "../../sql/ast.ts";
import type { LogicalType } from "../../types/logical-type.ts";
import type { SqlValue } from "../../types/sql-value.ts";
import { mapGet, sqlNotDistinct } from "../../types/sql-compare.ts";
import { coerce, showType, type BindContext, type BoundExpr, type Evaluator } from "../bound-expr.ts";
import { SqlRuntimeError } from "../sql-runtime-error.ts";
import { commonType, isIntegerType, logicalType, withNullable } from "../type-rules.ts";
import { SqlValidationError } from "../../validation/sql-validation-error.ts";
import { argumentTypeError, BOOLEAN, expectArgs, INT, strict, type BuiltinFunction, type CallSite } from "./builtin-function.ts";

function commonOf(xs: readonly BoundExpr[], what: string, loc: SourceLoc): LogicalType {
  let t = xs[0]!.type;
  for (const x of xs.slice(1)) {
    const n = commonType(t, x.type);
    if (n === undefined) throw new SqlValidationError(`Parameters of ${what} must have a common type: <${showType(t)}> and <${showType(x.type)}>`, loc);
    t = n;
  }
  if (t.kind === "char") t = logicalType({ kind: "varchar", length: t.length }, t.nullable);
  return t;
}

function allConstant(xs: readonly BoundExpr[]): boolean {
  return xs.every((x) => x.constant);
}

/** `ARRAY[a, b, …]`: an ARRAY of the elements' common type. */
export function bindArrayConstructor(values: readonly BoundExpr[], loc: SourceLoc, context: BindContext): BoundExpr {
  if (values.length === 0) throw new SqlValidationError("ARRAY[] needs at least one element", loc);
  const element = commonOf(values, "ARRAY[…]", loc);
  const evs = values.map((v) => coerce(v, element, context.timeZone));
  return { type: { kind: "array", element, nullable: false }, constant: allConstant(values), eval: (f) => evs.map((e) => e(f)) };
}

/** `MAP[k1, v1, k2, v2, …]`: a MAP of the keys' and values' common types; a repeated key keeps its last value. */
export function bindMapConstructor(entries: readonly BoundExpr[], loc: SourceLoc, context: BindContext): BoundExpr {
  if (entries.length === 0 || entries.length % 2 !== 0) throw new SqlValidationError("MAP[…] needs an even, non-zero number of arguments: key, value, …", loc);
  const keys = entries.filter((_, i) => i % 2 === 0);
  const vals = entries.filter((_, i) => i % 2 === 1);
  const key = commonOf(keys, "MAP[…] keys", loc);
  const value = commonOf(vals, "MAP[…] values", loc);
  const ks = keys.map((k) => coerce(k, key, context.timeZone));
  const vs = vals.map((v) => coerce(v, value, context.timeZone));
  return { type: { kind: "map", key, value, nullable: false }, constant: allConstant(entries), eval: (f) => {
    const m = new Map<SqlValue, SqlValue>();
    for (let i = 0; i < ks.length; i++) {
      const k = ks[i]!(f);
      if (k !== null && typeof k === "object") for (const old of m.keys()) if (sqlNotDistinct(old, k)) m.delete(old);
      m.set(k, vs[i]!(f));
    }
    return m;
  } };
}

/** `ROW(a, b, …)`: a ROW with fields `EXPR$0`, `EXPR$1`, … (Flink's names). */
export function bindRowConstructor(values: readonly BoundExpr[]): BoundExpr {
  const fields = values.map((v, i) => ({ name: `EXPR$${i}`, type: v.type.kind === "null" ? logicalType({ kind: "varchar", length: 2147483647 }) : v.type }));
  const evs = values.map((v) => v.eval);
  return { type: { kind: "row", fields, nullable: false }, constant: allConstant(values), eval: (f) => evs.map((e) => e(f)) };
}

/** `base[index]`: an array element (1-based) or a map value; NULL when absent. */
export function bindItem(base: BoundExpr, index: BoundExpr, loc: SourceLoc, context: BindContext): BoundExpr {
  const t = base.type;
  const be = base.eval;
  const constant = base.constant && index.constant;
  if (t.kind === "array" && (isIntegerType(index.type) || index.type.kind === "null")) {
    const ie = coerce(index, INT);
    return { type: withNullable(t.element, true), constant, eval: (f) => {
      const a = be(f) as SqlValue[] | null;
      if (a === null) return null;
      const i = ie(f) as number | null;
      if (i === null || i < 1 || i > a.length) return null;
      return a[i - 1]!;
    } };
  }
  if (t.kind === "map" && commonType(t.key, index.type) !== undefined) {
    const ke = index.type.kind === t.key.kind ? index.eval : coerce(index, withNullable(t.key, true), context.timeZone);
    return { type: withNullable(t.value, true), constant, eval: (f) => {
      const m = be(f) as Map<SqlValue, SqlValue> | null;
      if (m === null) return null;
      return mapGet(m, ke(f)) ?? null;
    } };
  }
  throw new SqlValidationError(`Cannot apply 'ITEM' to arguments of type <${showType(t)}> and <${showType(index.type)}>`, loc);
}

/** The evaluator of `needle` in the element type of the ARRAY `haystack`, or a located error naming both types. */
function needleOf(call: CallSite): Evaluator {
  const [h, n] = call.args as [BoundExpr, BoundExpr];
  if (h.type.kind !== "array" || commonType(h.type.element, n.type) === undefined) throw argumentTypeError(call);
  const element = h.type.element;
  return n.type.kind === element.kind ? n.eval : coerce(n, withNullable(element, true), call.context.timeZone);
}

/** An array function of (array, element): NULL for a NULL array; the element may be NULL (matched by IS NOT DISTINCT FROM). */
function arrayAndElement(type: (call: CallSite) => LogicalType, run: (a: SqlValue[], x: SqlValue) => SqlValue, nullNeedleIsNull = false): BuiltinFunction {
  return {
    names: [], arity: [2, 2],
    bind: (call) => {
      const needle = needleOf(call);
      const he = call.args[0]!.eval;
      const t = type(call);
      return { type: withNullable(t, call.args[0]!.type.nullable || (nullNeedleIsNull && call.args[1]!.type.nullable)), constant: allConstant(call.args), eval: (f) => {
        const a = he(f) as SqlValue[] | null;
        if (a === null) return null;
        const x = needle(f);
        return nullNeedleIsNull && x === null ? null : run(a, x);
      } };
    },
  };
}

function distinct(a: SqlValue[]): SqlValue[] {
  const out: SqlValue[] = [];
  for (const v of a) if (!out.some((o) => sqlNotDistinct(o, v))) out.push(v);
  return out;
}

export const COLLECTION_FUNCTIONS: BuiltinFunction[] = [
  { ...arrayAndElement(() => BOOLEAN, (a, x) => a.some((v) => sqlNotDistinct(v, x))), names: ["ARRAY_CONTAINS"] },
  { ...arrayAndElement(() => INT, (a, x) => a.findIndex((v) => sqlNotDistinct(v, x)) + 1, true), names: ["ARRAY_POSITION"] },
  { ...arrayAndElement((call) => call.args[0]!.type, (a, x) => a.filter((v) => !sqlNotDistinct(v, x))), names: ["ARRAY_REMOVE"] },
  {
    names: ["ARRAY_REVERSE", "ARRAY_DISTINCT"], arity: [1, 1],
    bind: (call) => {
      expectArgs(call, "array");
      const reverse = call.name === "ARRAY_REVERSE";
      return strict(call, call.args[0]!.type, (a: SqlValue[]) => (reverse ? [...a].reverse() : distinct(a)));
    },
  },
  {
    // MAP_KEYS(map), MAP_VALUES(map): the keys or values as an ARRAY (in insertion order).
    names: ["MAP_KEYS", "MAP_VALUES"], arity: [1, 1],
    bind: (call) => {
      expectArgs(call, "map");
      const t = call.args[0]!.type;
      const keys = call.name === "MAP_KEYS";
      const element = t.kind === "map" ? (keys ? t.key : t.value) : t;
      return strict(call, { kind: "array", element, nullable: false }, (m: Map<SqlValue, SqlValue>) => [...(keys ? m.keys() : m.values())]);
    },
  },
  {
    names: ["CARDINALITY"], arity: [1, 1],
    bind: (call) => {
      expectArgs(call, "collection");
      return strict(call, INT, (c: SqlValue[] | Map<SqlValue, SqlValue>) => (Array.isArray(c) ? c.length : c.size));
    },
  },
  {
    // ELEMENT(array): the only element; NULL for an empty array; an error for more than one.
    names: ["ELEMENT"], arity: [1, 1],
    bind: (call) => {
      expectArgs(call, "array");
      const t = call.args[0]!.type;
      const element = t.kind === "array" ? t.element : t;
      return strict(call, element, (a: SqlValue[]) => {
        if (a.length > 1) throw new SqlRuntimeError("ELEMENT: the array has more than one element");
        return a.length === 0 ? null : a[0]!;
      }, true);
    },
  },
];
