/**
 * The shape of a compiled expression, for code generation: the evaluators of
 * the common expression kinds (column and ROW field reads, literals,
 * comparisons, AND/OR/NOT, IS, CASE, and strict calls: a function applied to
 * operands, NULL when one is NULL, which covers arithmetic, casts and
 * negation) carry an {@link ExprCode} that says what they compute, so that a
 * Calc can be generated as one JavaScript function (as Flink generates code
 * for its Calcs) instead of a call per expression node. An evaluator without
 * one is called as it is. The shape is kept in a registry keyed by the
 * evaluator itself: an expression rebuilt with another evaluator never
 * carries a shape that is not its own.
 *
 * Every shape means exactly what its evaluator does, NULLs included; the
 * evaluators of {@link strictCall} are built from the same function as the
 * generated code calls.
 */
import type { SqlValue } from "../types/sql-value.ts";
import type { Evaluator } from "./bound-expr.ts";

/** The comparisons of two non-NULL values that the generated code writes as JavaScript operators. */
export type CompareOperator = "===" | "!==" | "==" | "!=" | "<" | ">" | "<=" | ">=";

/** What an evaluator computes, over its operands' evaluators. */
export type ExprCode =
  /** `fields[index]`. */
  | { readonly op: "field"; readonly index: number }
  /** A constant. */
  | { readonly op: "literal"; readonly value: SqlValue }
  /** Field `index` of a ROW value; NULL when the row is NULL. */
  | { readonly op: "rowField"; readonly row: Evaluator; readonly index: number }
  /** Three-valued NOT. */
  | { readonly op: "not"; readonly x: Evaluator }
  /** Three-valued AND / OR: the right operand is evaluated unless the left one decides. */
  | { readonly op: "and" | "or"; readonly l: Evaluator; readonly r: Evaluator }
  /** NULL when `l` is NULL (then `r` is not evaluated) or `r` is; else `l op r`. */
  | { readonly op: "compare"; readonly operator: CompareOperator; readonly l: Evaluator; readonly r: Evaluator }
  /** `(x === want) !== not` (IS [NOT] NULL / TRUE / FALSE / UNKNOWN). */
  | { readonly op: "is"; readonly x: Evaluator; readonly want: boolean | null; readonly not: boolean }
  /** `fn(...args)`, or NULL at the first NULL argument (the later ones are then not evaluated). */
  | { readonly op: "strict"; readonly fn: (...args: never[]) => SqlValue; readonly args: readonly Evaluator[] }
  /** The value of the first `then` whose `when` is TRUE, else of `otherwise`. */
  | { readonly op: "case"; readonly whens: readonly (readonly [when: Evaluator, then: Evaluator])[]; readonly otherwise: Evaluator };

const CODES = new WeakMap<Evaluator, ExprCode>();

/**
 * `ev`, recorded as computing `code` (which must be what `ev` does).
 *
 * @example
 * ```ts
 * const read3 = withCode((f) => f[3]!, { op: "field", index: 3 });
 * ```
 */
export function withCode(ev: Evaluator, code: ExprCode): Evaluator {
  CODES.set(ev, code);
  return ev;
}

/**
 * What `ev` computes, when it was recorded with {@link withCode}.
 *
 * @example
 * ```ts
 * codeOf(withCode((f) => f[3]!, { op: "field", index: 3 })); // { op: "field", index: 3 }
 * ```
 */
export function codeOf(ev: Evaluator): ExprCode | undefined {
  return CODES.get(ev);
}

/**
 * The evaluator of `fn` applied to the values of one or two operands (left to
 * right), NULL at the first NULL one, with its {@link ExprCode}.
 *
 * @example
 * ```ts
 * const plus = strictCall((a: number, b: number) => a + b, x.eval, y.eval);
 * plus(fields); // null when x or y is NULL
 * ```
 */
export function strictCall<A>(fn: (a: A) => SqlValue, x: Evaluator): Evaluator;
export function strictCall<A, B>(fn: (a: A, b: B) => SqlValue, x: Evaluator, y: Evaluator): Evaluator;
export function strictCall(fn: (a: never, b: never) => SqlValue, x: Evaluator, y?: Evaluator): Evaluator {
  const f = fn as (a: SqlValue, b?: SqlValue) => SqlValue;
  if (y === undefined) {
    return withCode((r) => { const a = x(r); return a === null ? null : f(a); }, { op: "strict", fn, args: [x] });
  }
  return withCode((r) => {
    const a = x(r); if (a === null) return null;
    const b = y(r); if (b === null) return null;
    return f(a, b);
  }, { op: "strict", fn, args: [x, y] });
}
