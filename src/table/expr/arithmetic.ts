/**
 * Arithmetic: `+ - * / %` (and MOD) with Flink's result types and overflow
 * behaviour, and `timestamp ± day-time interval`. INT/SMALLINT/TINYINT and
 * BIGINT wrap on overflow as Flink's generated Java does; DECIMAL is exact;
 * integer and decimal division (and `%`) by zero throws
 * {@link SqlRuntimeError}; FLOAT/DOUBLE follow IEEE.
 */
import {
  additionType, decimalAdd, decimalDivide, decimalModulo, decimalMultiply, decimalMultiplyInteger, decimalSubtract,
  DecimalDivisionByZeroError, divisionType, moduloType, multiplicationType, type Decimal,
} from "../types/decimal.ts";
import { addInt64, divideInt64, multiplyInt64, remainderInt64, subtractInt64, toBigInt, type BigintValue } from "../types/bigint-value.ts";
import type { LogicalType } from "../types/logical-type.ts";
import { anyNullable as nullable, coerce, type BoundExpr, type Evaluator } from "./bound-expr.ts";
import { wrapInteger } from "./cast.ts";
import { SqlRuntimeError } from "./sql-runtime-error.ts";
import { codeOf, strictCall } from "./expr-code.ts";
import { asDecimalType, commonType, isNumericType, logicalType, withNullable } from "./type-rules.ts";

function divZero(): never {
  throw new SqlRuntimeError("Division by zero");
}

/** Milliseconds of one day-time INTERVAL unit. */
export const DAY_TIME_MS: Partial<Record<string, number>> = { DAY: 86_400_000, HOUR: 3_600_000, MINUTE: 60_000, SECOND: 1000 };

/** `+ - * / %` with Flink's result types and overflow behaviour. */
export function arithmetic(op: string, l: BoundExpr, r: BoundExpr, mismatch: () => Error): BoundExpr {
  if (op === "+" || op === "-") {
    const shifted = timestampShift(op, l, r) ?? (op === "+" ? timestampShift(op, r, l) : undefined);
    if (shifted !== undefined) return shifted;
  }
  const lt = l.type.kind === "null" ? r.type : l.type;
  const rt = r.type.kind === "null" ? l.type : r.type;
  if (!isNumericType(lt) || !isNumericType(rt)) throw mismatch();
  const isNull = nullable(l, r);
  const c = l.constant && r.constant;
  const le = l.eval;
  const re = r.eval;
  if (lt.kind === "double" || rt.kind === "double" || lt.kind === "float" || rt.kind === "float") {
    const kind = lt.kind === "double" || rt.kind === "double" ? "double" : "float";
    const target = logicalType({ kind }, isNull);
    const x = coerce({ ...l, type: lt }, target);
    const y = coerce({ ...r, type: rt }, target);
    const k = numberOp(op);
    return { type: target, constant: c, eval: strictCall(kind === "float" ? (a: number, b: number) => Math.fround(k(a, b)) : k, x, y) };
  }
  if (lt.kind === "decimal" || rt.kind === "decimal") {
    const da = asDecimalType(lt);
    const db = asDecimalType(rt);
    const res = op === "+" || op === "-" ? additionType(da, db) : op === "*" ? multiplicationType(da, db) : op === "/" ? divisionType(da, db) : moduloType(da, db);
    const type = logicalType({ kind: "decimal", ...res }, isNull);
    if (op === "*" && (lt.kind === "decimal") !== (rt.kind === "decimal")) {
      // DECIMAL × an integer type: the integer is not made a decimal first (see decimalMultiplyInteger)
      const times = (a: Decimal, n: BigintValue): Decimal | null => decimalMultiplyInteger(a, n, res);
      return { type, constant: c, eval: lt.kind === "decimal" ? strictCall(times, le, re) : strictCall((n: BigintValue, a: Decimal) => times(a, n), le, re) };
    }
    const toDec = (t: LogicalType, e: Evaluator): Evaluator =>
      t.kind === "decimal" ? e : t.kind === "bigint" ? strictCall((v: BigintValue) => ({ unscaled: toBigInt(v), scale: 0 }), e)
        : strictCall((v: number) => ({ unscaled: BigInt(v), scale: 0 }), e);
    const x = toDec(lt, le);
    const y = toDec(rt, re);
    const k = op === "+" ? decimalAdd : op === "-" ? decimalSubtract : op === "*" ? decimalMultiply : op === "/" ? decimalDivide : decimalModulo;
    return { type, constant: c, eval: strictCall((a: Decimal, b: Decimal) => {
      try {
        return k(a, b, res);
      } catch (err) {
        if (err instanceof DecimalDivisionByZeroError) divZero();
        throw err;
      }
    }, x, y) };
  }
  const wide = commonType(lt, rt)!;
  const type = withNullable(wide, isNull);
  if (wide.kind === "bigint") {
    const x = coerce({ ...l, type: lt }, wide);
    const y = coerce({ ...r, type: rt }, wide);
    return { type, constant: c, eval: strictCall(bigintOp(op), x, y) };
  }
  const kind = wide.kind as "tinyint" | "smallint" | "int";
  return { type, constant: c, eval: strictCall(intOp(op, kind), le, re) };
}

function numberOp(op: string): (a: number, b: number) => number {
  switch (op) {
    case "+": return (a, b) => a + b;
    case "-": return (a, b) => a - b;
    case "*": return (a, b) => a * b;
    case "/": return (a, b) => a / b;
    default: return (a, b) => a % b;
  }
}

/** BIGINT arithmetic on either form of a value (see `bigint-value.ts`); `b == 0` is true for 0 and 0n. */
function bigintOp(op: string): (a: BigintValue, b: BigintValue) => BigintValue {
  switch (op) {
    case "+": return addInt64;
    case "-": return subtractInt64;
    case "*": return multiplyInt64;
    case "/": return (a, b) => (b == 0 ? divZero() : divideInt64(a, b));
    default: return (a, b) => (b == 0 ? divZero() : remainderInt64(a, b));
  }
}

function intOp(op: string, kind: "tinyint" | "smallint" | "int"): (a: number, b: number) => number {
  switch (op) {
    case "+": return (a, b) => wrapInteger(kind, a + b);
    case "-": return (a, b) => wrapInteger(kind, a - b);
    case "*": return kind === "int" ? Math.imul : (a, b) => wrapInteger(kind, a * b);
    case "/": return (a, b) => (b === 0 ? divZero() : wrapInteger(kind, Math.trunc(a / b)));
    default: return (a, b) => (b === 0 ? divZero() : (a % b) | 0);
  }
}

/** `timestamp ± day-time interval`, or undefined when the operands are not that. */
function timestampShift(op: string, ts: BoundExpr, iv: BoundExpr): BoundExpr | undefined {
  if (ts.type.kind !== "timestamp" || iv.type.kind !== "interval" || DAY_TIME_MS[iv.type.from] === undefined) return undefined;
  const te = ts.eval;
  const ie = iv.eval;
  return { type: withNullable(ts.type, nullable(ts, iv)), constant: ts.constant && iv.constant, eval: strictCall(op === "-" ? subtractMs : addMs, te, ie) };
}

const addMs = (t: number, i: number): number => t + i;
const subtractMs = (t: number, i: number): number => t - i;

/**
 * Whether `ev` computes `fields[field]`, or it ± a constant day-time interval (`ts - INTERVAL '4' SECOND`):
 * then its value never decreases as the field's grows, so the largest value over many rows is its value for
 * the largest field value (what a source's watermarks rely on, see source-watermarks.ts).
 *
 * @example
 * ```ts
 * growsWithField(bindExpression("ts - INTERVAL '4' SECOND").eval, 0); // true when ts is field 0
 * ```
 */
export function growsWithField(ev: Evaluator, field: number): boolean {
  const code = codeOf(ev);
  if (code === undefined) return false;
  if (code.op === "field") return code.index === field;
  if (code.op !== "strict" || (code.fn !== addMs && code.fn !== subtractMs)) return false;
  const [t, i] = code.args;
  const ic = codeOf(i!);
  return growsWithField(t!, field) && ic?.op === "literal" && typeof ic.value === "number";
}
