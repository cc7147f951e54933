/**
 * Conditional functions: COALESCE, IFNULL, NULLIF, IF (CASE is an
 * expression of its own), whose arguments take a common type, and the
 * string tests IS_ALPHA, IS_DIGIT, IS_DECIMAL. They are the functions that
 * do not simply return NULL for a NULL argument.
 */
import { sqlEquals } from "../../types/sql-compare.ts";
import { anyNullable, coerce, type BoundExpr } from "../bound-expr.ts";
import { commonType, withNullable } from "../type-rules.ts";
import { argumentTypeError, BOOLEAN, commonArgumentType, expectArgs, type BuiltinFunction, type CallSite } from "./builtin-function.ts";

function allConstant(call: CallSite): boolean {
  return call.args.every((a) => a.constant);
}

/** The first non-NULL argument; NOT NULL when any argument is. */
function coalesce(call: CallSite): BoundExpr {
  const t = withNullable(commonArgumentType(call), call.args.every((x) => x.type.nullable));
  const evs = call.args.map((x) => coerce(x, t, call.context.timeZone));
  return { type: t, constant: allConstant(call), eval: (f) => {
    for (let i = 0; i < evs.length; i++) { const v = evs[i]!(f); if (v !== null) return v; }
    return null;
  } };
}

/** IS_ALPHA, IS_DIGIT, IS_DECIMAL: a test of a string that is FALSE (never NULL) for NULL. */
function stringTest(name: string, test: (s: string) => boolean): BuiltinFunction {
  return {
    names: [name], arity: [1, 1],
    bind: (call) => {
      expectArgs(call, "string");
      const e = call.args[0]!.eval;
      return { type: BOOLEAN, constant: call.args[0]!.constant, eval: (f) => { const v = e(f); return v !== null && test(v as string); } };
    },
  };
}

const DECIMAL_TEXT = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?[dDfF]?$/;

export const CONDITIONAL_FUNCTIONS: BuiltinFunction[] = [
  stringTest("IS_ALPHA", (s) => /^\p{L}+$/u.test(s)),
  stringTest("IS_DIGIT", (s) => /^\p{Nd}+$/u.test(s)),
  stringTest("IS_DECIMAL", (s) => DECIMAL_TEXT.test(s) || /^[+-]?(NaN|Infinity)$/.test(s)),
  { names: ["COALESCE"], arity: [1, Infinity], bind: coalesce },
  {
    // IFNULL(x, replacement): the common type, nullable only when the replacement is (as Flink).
    names: ["IFNULL"], arity: [2, 2],
    bind: (call) => {
      const c = coalesce(call);
      return { ...c, type: withNullable(c.type, call.args[1]!.type.nullable) };
    },
  },
  {
    // NULLIF(a, b): NULL when a = b, else a.
    names: ["NULLIF"], arity: [2, 2],
    bind: (call) => {
      const [a, b] = call.args as [BoundExpr, BoundExpr];
      if (commonType(a.type, b.type) === undefined) throw argumentTypeError(call);
      const ae = a.eval;
      const be = b.eval;
      return { type: withNullable(a.type, true), constant: allConstant(call), eval: (f) => { const v = ae(f); return sqlEquals(v, be(f)) === true ? null : v; } };
    },
  },
  {
    // IF(cond, a, b): a when cond is TRUE, else (FALSE or NULL) b.
    names: ["IF"], arity: [3, 3],
    bind: (call) => {
      const [c, a, b] = call.args as [BoundExpr, BoundExpr, BoundExpr];
      if (c.type.kind !== "boolean" && c.type.kind !== "null") throw argumentTypeError(call);
      const t = withNullable(commonArgumentType(call, [a, b]), anyNullable(a, b));
      const ce = c.eval;
      const te = coerce(a, t, call.context.timeZone);
      const ee = coerce(b, t, call.context.timeZone);
      return { type: t, constant: allConstant(call), eval: (f) => (ce(f) === true ? te(f) : ee(f)) };
    },
  },
];
