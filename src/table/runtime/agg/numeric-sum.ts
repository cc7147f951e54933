/**
 * `SUM`, `SUM0` and `AVG`: a running sum and the number of non-NULL values
 * (so a retraction back to no values gives NULL again, as Flink's
 * `SumWithRetractAggFunction`).
 *
 * Result types follow Flink: `SUM` of TINYINT/SMALLINT/INT is that type and
 * wraps around as Java's arithmetic does, of BIGINT is BIGINT (64-bit
 * wrap-around), of DECIMAL(p, s) is DECIMAL(38, s) (exact; NULL when it
 * overflows 38 digits), of FLOAT/DOUBLE is DOUBLE-like (a JS number). `AVG`
 * of an integer type is that type (the exact sum divided by the count,
 * truncated toward zero), of DECIMAL is DECIMAL(38, max(6, s)) (rounded
 * HALF_UP), of FLOAT/DOUBLE a number. AVG's integer sum is exact where
 * Flink's would wrap around at 64 bits.
 */
import { addInt64, bigintOf, canonicalBigint, subtractInt64, type BigintValue } from "../../types/bigint-value.ts";
import { decimalDivide, toDecimalType, type Decimal } from "../../types/decimal.ts";
import type { LogicalType } from "../../types/logical-type.ts";
import type { SqlValue } from "../../types/sql-value.ts";
import type { AggFunction } from "./agg-function.ts";

/** How a sum is kept: wrapped 8/16/32-bit numbers, a wrapped 64-bit BIGINT value (see `bigint-value.ts`), an exact bigint (DECIMAL unscaled, integer AVG), a double. */
type Arithmetic = "i8" | "i16" | "i32" | "i64" | "exact" | "double";

/** A sum and the number of non-NULL values in it. */
export interface SumAcc {
  sum: number | bigint;
  n: number;
}

function wrap(a: Arithmetic, x: number | bigint): number | bigint {
  switch (a) {
    case "i8":
      return ((x as number) << 24) >> 24;
    case "i16":
      return ((x as number) << 16) >> 16;
    case "i32":
      return (x as number) | 0;
    default:
      return x;
  }
}

function integerArithmetic(t: LogicalType): Arithmetic | undefined {
  switch (t.kind) {
    case "tinyint":
      return "i8";
    case "smallint":
      return "i16";
    case "int":
      return "i32";
    case "bigint":
      return "i64";
    default:
      return undefined;
  }
}

/** The scale of decimal sums: the argument's (SUM's result keeps it). */
function decimalScale(t: LogicalType): number {
  return t.kind === "decimal" ? t.scale : 0;
}

/** A value as the term of a sum kept with `a` (a decimal at `scale`). */
function term(a: Arithmetic, v: SqlValue, scale: number): number | bigint {
  if (a === "exact") {
    if (typeof v === "bigint") return v * 10n ** BigInt(scale);
    if (typeof v === "number") return BigInt(v) * 10n ** BigInt(scale);
    const d = v as Decimal;
    return d.scale === scale ? d.unscaled : toDecimalType(d, { precision: 76, scale })!.unscaled;
  }
  if (a === "double") return typeof v === "number" ? v : typeof v === "bigint" ? Number(v) : Number((v as Decimal).unscaled) / 10 ** (v as Decimal).scale;
  return typeof v === "number" ? v : Number(v);
}

function zero(a: Arithmetic): number | bigint {
  return a === "exact" ? 0n : 0;
}

function sumFunction(a: Arithmetic, scale: number, result: (acc: SumAcc) => SqlValue): AggFunction<SumAcc> {
  if (a === "i64") {
    // a canonical BIGINT (a sum restored from an earlier version may be a bigint of any size)
    return {
      usesCounts: false,
      create: () => ({ sum: 0, n: 0 }),
      add(acc, v) {
        acc.sum = addInt64(acc.sum, v as BigintValue);
        acc.n++;
        return acc;
      },
      retract(acc, v) {
        acc.sum = subtractInt64(acc.sum, v as BigintValue);
        acc.n--;
        return acc;
      },
      merge(acc, _c, other) {
        acc.sum = addInt64(acc.sum, other.sum);
        acc.n += other.n;
        return acc;
      },
      getValue: result,
    };
  }
  return {
    usesCounts: false,
    create: () => ({ sum: zero(a), n: 0 }),
    add(acc, v) {
      acc.sum = wrap(a, (acc.sum as number) + (term(a, v, scale) as number));
      acc.n++;
      return acc;
    },
    retract(acc, v) {
      acc.sum = wrap(a, (acc.sum as number) - (term(a, v, scale) as number));
      acc.n--;
      return acc;
    },
    merge(acc, _c, other) {
      acc.sum = wrap(a, (acc.sum as number) + (other.sum as number));
      acc.n += other.n;
      return acc;
    },
    getValue: result,
  };
}

function sumArithmetic(resultType: LogicalType): Arithmetic {
  if (resultType.kind === "decimal") return "exact";
  return integerArithmetic(resultType) ?? "double";
}

/** The value of a sum kept with `a` as a value of `resultType`. */
function sumValue(a: Arithmetic, sum: number | bigint, resultType: LogicalType): SqlValue {
  if (a === "exact" && resultType.kind === "decimal") return toDecimalType({ unscaled: sum as bigint, scale: resultType.scale }, resultType);
  return a === "i64" ? canonicalBigint(sum) : sum;
}

/**
 * `SUM(x)` (`orZero` false: NULL without values) or `SUM0(x)` (0 without values) with result type `resultType`.
 *
 * @example
 * ```ts
 * const f = sumAgg({ kind: "int", nullable: true }, false);
 * const counts = new Map<string, ValueCount>();
 * const acc = f.add(f.add(f.create(), 2147483647, counts), 1, counts);
 * f.getValue(acc, counts); // -2147483648 (Java's int wrap-around)
 * ```
 */
export function sumAgg(resultType: LogicalType, orZero: boolean): AggFunction<SumAcc> {
  const a = sumArithmetic(resultType);
  const scale = decimalScale(resultType);
  return sumFunction(a, scale, (acc) => (acc.n === 0 && !orZero ? null : sumValue(a, acc.sum, resultType)));
}

/**
 * `AVG(x)` over arguments of `argType`, as a value of `resultType`.
 *
 * @example
 * ```ts
 * const f = avgAgg({ kind: "int", nullable: true }, { kind: "int", nullable: true });
 * const counts = new Map<string, ValueCount>();
 * f.getValue(f.add(f.add(f.create(), 1, counts), 2, counts), counts); // 1 (truncated)
 * ```
 */
export function avgAgg(argType: LogicalType, resultType: LogicalType): AggFunction<SumAcc> {
  if (argType.kind === "decimal" || integerArithmetic(argType) !== undefined) {
    const scale = decimalScale(argType);
    return sumFunction("exact", scale, (acc) => {
      if (acc.n === 0) return null;
      const sum = acc.sum as bigint;
      if (resultType.kind === "decimal") return decimalDivide({ unscaled: sum, scale }, { unscaled: BigInt(acc.n), scale: 0 }, resultType);
      const q = sum / 10n ** BigInt(scale) / BigInt(acc.n);
      return resultType.kind === "bigint" ? bigintOf(q) : resultType.kind === "float" || resultType.kind === "double" ? Number(sum) / 10 ** scale / acc.n : Number(q);
    });
  }
  return sumFunction("double", 0, (acc) => (acc.n === 0 ? null : (acc.sum as number) / acc.n));
}
