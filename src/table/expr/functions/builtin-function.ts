/**
 * The shape of a built-in scalar function: one entry per function (with its
 * aliases) giving its arity and a `bind` that checks the argument types
 * (located errors naming them), infers the result type and returns the
 * evaluator. Plus the helpers the function families share.
 */
import type { SourceLoc, TimeUnit } from "../../sql/ast.ts";
import type { SqlValue } from "../../types/sql-value.ts";
import type { LogicalType } from "../../types/logical-type.ts";
import { MAX_LENGTH } from "../../sql/parse-type.ts";
import { anyNullable, showType, type BindContext, type BoundExpr, type Evaluator } from "../bound-expr.ts";
import { commonType, isIntegerType, isNumericType, isStringType, logicalType, withNullable } from "../type-rules.ts";
import { SqlValidationError } from "../../validation/sql-validation-error.ts";

/** A call being bound: the function's name as called (upper case), its bound arguments and where it is. */
export interface CallSite {
  readonly name: string;
  readonly args: readonly BoundExpr[];
  readonly loc: SourceLoc;
  /** The time unit of functions whose first argument is one (`TIMESTAMPDIFF(DAY, a, b)`): not in `args`. */
  readonly unit?: TimeUnit;
  readonly context: BindContext;
}

/** A built-in scalar function. */
export interface BuiltinFunction {
  /** Its name and aliases, upper case. */
  readonly names: readonly string[];
  /** Minimum and maximum number of arguments (`Infinity` for variadic). */
  readonly arity: readonly [number, number];
  /** The first argument is a time unit keyword (TIMESTAMPDIFF, TIMESTAMPADD). */
  readonly unitFirst?: boolean;
  /** Checks the argument types and returns the bound call; throws {@link SqlValidationError}. */
  bind(call: CallSite): BoundExpr;
}

export const BOOLEAN = logicalType({ kind: "boolean" }, false);
export const INT = logicalType({ kind: "int" }, false);
export const BIGINT = logicalType({ kind: "bigint" }, false);
export const DOUBLE = logicalType({ kind: "double" }, false);
export const STRING = logicalType({ kind: "varchar", length: MAX_LENGTH }, false);
export const DATE = logicalType({ kind: "date" }, false);

/** `Cannot apply 'F' to arguments of type <A>, <B>`, located at the call. */
export function argumentTypeError(call: CallSite, detail?: string): SqlValidationError {
  const types = call.args.map((a) => `<${showType(a.type)}>`).join(", ");
  return new SqlValidationError(`Cannot apply '${call.name}' to arguments of type ${types === "" ? "()" : types}${detail === undefined ? "" : `: ${detail}`}`, call.loc);
}

type Family = "string" | "numeric" | "integer" | "boolean" | "temporal" | "timestamp" | "date" | "array" | "map" | "collection";

const CHECKS: Record<Family, (t: LogicalType) => boolean> = {
  string: isStringType,
  numeric: isNumericType,
  integer: isIntegerType,
  boolean: (t) => t.kind === "boolean",
  temporal: (t) => t.kind === "date" || t.kind === "timestamp" || t.kind === "time",
  timestamp: (t) => t.kind === "timestamp",
  date: (t) => t.kind === "date",
  array: (t) => t.kind === "array",
  map: (t) => t.kind === "map",
  collection: (t) => t.kind === "array" || t.kind === "map" || t.kind === "multiset",
};

/**
 * Checks that argument `i` (and all later ones when `rest`) is of `family`
 * (a NULL literal fits any family); absent optional arguments pass.
 */
export function expectArgs(call: CallSite, ...families: (Family | readonly Family[])[]): void {
  for (let i = 0; i < call.args.length; i++) {
    const f = families[Math.min(i, families.length - 1)]!;
    const t = call.args[i]!.type;
    if (t.kind === "null") continue;
    const ok = typeof f === "string" ? CHECKS[f](t) : f.some((x) => CHECKS[x](t));
    if (!ok) throw argumentTypeError(call);
  }
}

/** The common type of the arguments (CHAR widened to VARCHAR), or a located error naming their types. */
export function commonArgumentType(call: CallSite, args: readonly BoundExpr[] = call.args): LogicalType {
  let t: LogicalType = args[0]!.type;
  for (const x of args.slice(1)) {
    const n = commonType(t, x.type);
    if (n === undefined) throw argumentTypeError(call, `no common type of <${showType(t)}> and <${showType(x.type)}>`);
    t = n;
  }
  if (t.kind === "char") t = logicalType({ kind: "varchar", length: t.length }, t.nullable);
  return t;
}

/** The value of a constant argument (validation error when it is not constant). */
export function constantArg(call: CallSite, i: number, what: string): SqlValue {
  const a = call.args[i]!;
  if (!a.constant) throw new SqlValidationError(`The ${what} of ${call.name} must be a constant`, call.loc);
  return a.eval([]);
}

/**
 * A call that is NULL when any argument is NULL and otherwise applies `fn` to
 * the argument values; nullable when an argument is (or when `alwaysNullable`:
 * `fn` may return NULL itself).
 */
export function strict(call: CallSite, type: LogicalType, fn: (...values: never[]) => SqlValue, alwaysNullable = false, args: readonly Evaluator[] = call.args.map((a) => a.eval)): BoundExpr {
  const t = withNullable(type, alwaysNullable || anyNullable(...call.args));
  const constant = call.args.every((a) => a.constant);
  const g = fn as (...values: SqlValue[]) => SqlValue;
  switch (args.length) {
    case 0: return { type: t, constant, eval: () => g() };
    case 1: {
      const [a] = args as [Evaluator];
      return { type: t, constant, eval: (f) => { const x = a(f); return x === null ? null : g(x); } };
    }
    case 2: {
      const [a, b] = args as [Evaluator, Evaluator];
      return { type: t, constant, eval: (f) => {
        const x = a(f); if (x === null) return null;
        const y = b(f); return y === null ? null : g(x, y);
      } };
    }
    case 3: {
      const [a, b, c] = args as [Evaluator, Evaluator, Evaluator];
      return { type: t, constant, eval: (f) => {
        const x = a(f); if (x === null) return null;
        const y = b(f); if (y === null) return null;
        const z = c(f); return z === null ? null : g(x, y, z);
      } };
    }
    default:
      return { type: t, constant, eval: (f) => {
        const vs: SqlValue[] = [];
        for (const e of args) { const v = e(f); if (v === null) return null; vs.push(v); }
        return g(...vs);
      } };
  }
}
