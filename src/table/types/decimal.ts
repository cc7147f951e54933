/**
 * SQL `DECIMAL(p, s)` values: exact decimals as plain data, an unscaled
 * bigint and a scale (`12.30` is `{ unscaled: 1230n, scale: 2 }`), never a
 * binary float. Arithmetic follows Flink: the planner derives the result type
 * with {@link additionType}, {@link multiplicationType}, {@link divisionType}
 * or {@link moduloType} (Flink's `LogicalTypeMerging` rules, capped at
 * precision 38), and the runtime operation rounds HALF_UP to that type's scale.
 * A result with more digits than the type's precision is NULL (`null`), as in
 * Flink (`DecimalData.fromBigDecimal` gives null on overflow); a division by
 * zero throws {@link DecimalDivisionByZeroError}, as Java's BigDecimal does.
 *
 * A decimal is a plain object (not a class instance) so that rows holding it
 * pass the engine's plain-data check and travel between tasks and workers.
 */

/** The largest precision of a DECIMAL type (Flink's `DecimalType.MAX_PRECISION`). */
export const MAX_DECIMAL_PRECISION = 38;

/** Flink's `MINIMUM_ADJUSTED_SCALE`: digits after the point kept when a result type is capped at precision 38. */
const MINIMUM_ADJUSTED_SCALE = 6;

/**
 * An exact decimal value: `unscaled × 10^-scale`. The scale is that of the
 * value's SQL type (`DECIMAL(5, 2)` values have scale 2).
 */
export interface Decimal {
  readonly unscaled: bigint;
  readonly scale: number;
}

/** A DECIMAL type: total digits (1…38) and digits after the point (0…precision). */
export interface DecimalType {
  readonly precision: number;
  readonly scale: number;
}

/** Thrown by {@link decimalDivide} and {@link decimalModulo} when the divisor is zero. */
export class DecimalDivisionByZeroError extends Error {
  constructor() {
    super("Division by zero (DECIMAL)");
    this.name = "DecimalDivisionByZeroError";
  }
}

const TEN = 10n;
const POW10: bigint[] = [1n];

/** 10^n as a bigint (cached). */
function pow10(n: number): bigint {
  for (let i = POW10.length; i <= n; i++) POW10.push(POW10[i - 1]! * TEN);
  return POW10[n]!;
}

function abs(x: bigint): bigint {
  return x < 0n ? -x : x;
}

/** `n / d` rounded HALF_UP (halves away from zero), as Java's RoundingMode.HALF_UP. */
function divideHalfUp(n: bigint, d: bigint): bigint {
  const q = n / d;
  const r = n % d;
  if (r === 0n) return q;
  if (abs(r) * 2n >= abs(d)) return (n < 0n) === (d < 0n) ? q + 1n : q - 1n;
  return q;
}

/** Number of decimal digits of the unscaled value (0 has 1 digit, as Java's BigDecimal.precision). */
export function decimalDigits(d: Decimal): number {
  const a = abs(d.unscaled);
  return a === 0n ? 1 : a.toString().length;
}

/**
 * `{ unscaled, scale }` after checking the scale.
 *
 * @example
 * ```ts
 * decimal(1230n, 2); // 12.30
 * ```
 */
export function decimal(unscaled: bigint, scale: number): Decimal {
  if (!Number.isInteger(scale) || scale < 0) throw new RangeError(`DECIMAL scale must be a non-negative integer, got ${scale}`);
  return { unscaled, scale };
}

/** True when `v` is a {@link Decimal} (a plain object with a bigint `unscaled` and a number `scale`). */
export function isDecimal(v: unknown): v is Decimal {
  return (
    typeof v === "object" &&
    v !== null &&
    typeof (v as { unscaled?: unknown }).unscaled === "bigint" &&
    typeof (v as { scale?: unknown }).scale === "number"
  );
}

/** Checks a DECIMAL type: 1 ≤ precision ≤ 38, 0 ≤ scale ≤ precision. */
export function checkDecimalType(t: DecimalType): DecimalType {
  if (!Number.isInteger(t.precision) || t.precision < 1 || t.precision > MAX_DECIMAL_PRECISION) {
    throw new RangeError(`DECIMAL precision must be between 1 and ${MAX_DECIMAL_PRECISION} (both inclusive), got ${t.precision}`);
  }
  if (!Number.isInteger(t.scale) || t.scale < 0 || t.scale > t.precision) {
    throw new RangeError(`DECIMAL scale must be between 0 and the precision ${t.precision} (both inclusive), got ${t.scale}`);
  }
  return t;
}

/**
 * `d` as a value of type `t`: rescaled to `t.scale` (rounding HALF_UP when
 * digits are dropped), or null when it then has more than `t.precision`
 * digits (Flink's overflow rule for CAST and arithmetic).
 *
 * @example
 * ```ts
 * toDecimalType(parseDecimal("1.005"), { precision: 5, scale: 2 }); // 1.01
 * toDecimalType(parseDecimal("1000"), { precision: 3, scale: 0 });  // null
 * ```
 */
export function toDecimalType(d: Decimal, t: DecimalType): Decimal | null {
  const r = rescale(d.unscaled, d.scale, t.scale);
  const a = abs(r);
  if (a !== 0n && a >= pow10(t.precision)) return null;
  return { unscaled: r, scale: t.scale };
}

function rescale(unscaled: bigint, from: number, to: number): bigint {
  if (to === from) return unscaled;
  if (to > from) return unscaled * pow10(to - from);
  return divideHalfUp(unscaled, pow10(from - to));
}

const DECIMAL_TEXT = /^\s*([+-])?(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?\s*$/;

/**
 * Parses decimal text (`-12.30`, `.5`, `1e3`, `1.5E-2`) exactly. Without a
 * type the scale is the number of digits after the point (at least 0: `1e3`
 * is `1000`); with a type the value is rounded HALF_UP to its scale, and null
 * when it overflows the precision.
 *
 * @throws SyntaxError when `text` is not a decimal number
 * @example
 * ```ts
 * parseDecimal("12.30");                                // { unscaled: 1230n, scale: 2 }
 * parseDecimal("2.345", { precision: 3, scale: 2 });    // 2.35
 * ```
 */
export function parseDecimal(text: string, type?: DecimalType): Decimal | null {
  const m = DECIMAL_TEXT.exec(text);
  const int = m?.[2] ?? "";
  const frac = m?.[3] ?? "";
  if (m === null || (int === "" && frac === "")) throw new SyntaxError(`not a decimal number: ${JSON.stringify(text)}`);
  let unscaled = BigInt(int + frac || "0");
  if (m[1] === "-") unscaled = -unscaled;
  let scale = frac.length - (m[4] === undefined ? 0 : Number(m[4]));
  if (scale < 0) {
    unscaled *= pow10(-scale);
    scale = 0;
  }
  const d = { unscaled, scale };
  return type === undefined ? d : toDecimalType(d, type);
}

/**
 * The plain text of a decimal with exactly `scale` digits after the point,
 * as Flink prints DECIMAL values (Java's `BigDecimal.toPlainString`).
 *
 * @example
 * ```ts
 * decimalToString({ unscaled: -5n, scale: 3 }); // "-0.005"
 * ```
 */
export function decimalToString(d: Decimal): string {
  const neg = d.unscaled < 0n;
  let digits = abs(d.unscaled).toString();
  if (d.scale === 0) return neg ? "-" + digits : digits;
  if (digits.length <= d.scale) digits = "0".repeat(d.scale - digits.length + 1) + digits;
  const point = digits.length - d.scale;
  return (neg ? "-" : "") + digits.slice(0, point) + "." + digits.slice(point);
}

/** 10^0 … 10^22: the powers of ten that are exact doubles (literals, so exactly those values). */
const EXACT_POW10 = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22];
/**
 * 2^53: an integer of smaller magnitude is an exact double, and a bigint is of smaller magnitude exactly
 * when its conversion to a number is (conversion rounds monotonically and 2^53 is a double), a test
 * without the bigint comparisons (and the negated bound each would allocate).
 */
const EXACT_LIMIT = 2 ** 53;

/**
 * The nearest double to `d` (for CAST to DOUBLE and mixed DECIMAL/DOUBLE arithmetic).
 * When the unscaled value and 10^scale are both exact doubles, one IEEE division
 * rounds their quotient correctly, as parsing the decimal text does; else it parses the text.
 *
 * @example
 * ```ts
 * decimalToNumber({ unscaled: -12345n, scale: 3 }); // -12.345
 * ```
 */
export function decimalToNumber(d: Decimal): number {
  const u = Number(d.unscaled);
  if (d.scale < EXACT_POW10.length && Math.abs(u) < EXACT_LIMIT) return u / EXACT_POW10[d.scale]!;
  return Number(decimalToString(d));
}

/**
 * A decimal of type `t` for an integer or a finite double (CAST to DECIMAL):
 * exact for integers and bigints, the double's shortest decimal text for
 * fractions; null when it overflows `t`.
 *
 * @example
 * ```ts
 * decimalFromNumber(0.1, { precision: 10, scale: 3 }); // 0.100
 * decimalFromNumber(2n ** 70n, { precision: 38, scale: 0 }); // exact
 * ```
 */
export function decimalFromNumber(n: number | bigint, t: DecimalType): Decimal | null {
  if (typeof n === "bigint") return toDecimalType({ unscaled: n, scale: 0 }, t);
  if (!Number.isFinite(n)) return null;
  return parseDecimal(String(n), t);
}

/** Compares two decimals by value (scales may differ): negative, 0 or positive. */
export function compareDecimal(a: Decimal, b: Decimal): number {
  const s = Math.max(a.scale, b.scale);
  const x = rescale(a.unscaled, a.scale, s);
  const y = rescale(b.unscaled, b.scale, s);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** `d` without trailing zeros after the point (`1.500` → `1.5`): one form per value, for hashing and equality. */
export function normalizeDecimal(d: Decimal): Decimal {
  let { unscaled, scale } = d;
  while (scale > 0 && unscaled % TEN === 0n) {
    unscaled /= TEN;
    scale--;
  }
  return { unscaled, scale };
}

/** Flink's `adjustPrecisionScale`: a result type beyond precision 38 keeps the integer digits and at least 6 (or `scale`, if fewer) fraction digits. */
function adjust(precision: number, scale: number): DecimalType {
  if (precision <= MAX_DECIMAL_PRECISION) return { precision, scale };
  const integerDigits = precision - scale;
  const minScale = Math.min(scale, MINIMUM_ADJUSTED_SCALE);
  return { precision: MAX_DECIMAL_PRECISION, scale: Math.max(MAX_DECIMAL_PRECISION - integerDigits, minScale) };
}

/**
 * Result type of `a + b` and `a - b`: scale max(s1, s2), precision
 * max(p1 - s1, p2 - s2) + scale + 1, capped at 38.
 *
 * @example
 * ```ts
 * additionType({ precision: 5, scale: 2 }, { precision: 10, scale: 4 }); // DECIMAL(11, 4)
 * ```
 */
export function additionType(a: DecimalType, b: DecimalType): DecimalType {
  const scale = Math.max(a.scale, b.scale);
  return adjust(Math.max(a.precision - a.scale, b.precision - b.scale) + scale + 1, scale);
}

/** Result type of `a * b`: precision p1 + p2 + 1, scale s1 + s2, capped at 38 (e.g. DECIMAL(5,2) × DECIMAL(4,1) is DECIMAL(10,3)). */
export function multiplicationType(a: DecimalType, b: DecimalType): DecimalType {
  return adjust(a.precision + b.precision + 1, a.scale + b.scale);
}

/**
 * Result type of `a / b`: scale max(6, s1 + p2 + 1), precision
 * p1 - s1 + s2 + scale, capped at 38.
 *
 * @example
 * ```ts
 * divisionType({ precision: 10, scale: 0 }, { precision: 10, scale: 0 }); // DECIMAL(21, 11)
 * ```
 */
export function divisionType(a: DecimalType, b: DecimalType): DecimalType {
  const scale = Math.max(MINIMUM_ADJUSTED_SCALE, a.scale + b.precision + 1);
  return adjust(a.precision - a.scale + b.scale + scale, scale);
}

/** Result type of `MOD(a, b)` / `a % b`: scale max(s1, s2), precision min(p1 - s1, p2 - s2) + scale, capped at 38. */
export function moduloType(a: DecimalType, b: DecimalType): DecimalType {
  const scale = Math.max(a.scale, b.scale);
  return adjust(Math.min(a.precision - a.scale, b.precision - b.scale) + scale, scale);
}

/** Result type of `SUM` over DECIMAL(p, s): DECIMAL(38, s). */
export function sumType(a: DecimalType): DecimalType {
  return { precision: MAX_DECIMAL_PRECISION, scale: a.scale };
}

/** Result type of `AVG` over DECIMAL(p, s): DECIMAL(38, max(6, s)). */
export function avgType(a: DecimalType): DecimalType {
  return { precision: MAX_DECIMAL_PRECISION, scale: Math.max(MINIMUM_ADJUSTED_SCALE, a.scale) };
}

/**
 * `a + b` as a value of `result` (from {@link additionType}); null on overflow.
 *
 * @example
 * ```ts
 * const t = additionType({ precision: 3, scale: 2 }, { precision: 3, scale: 1 }); // DECIMAL(5, 2)
 * decimalAdd(parseDecimal("1.25")!, parseDecimal("10.5")!, t); // 11.75
 * ```
 */
export function decimalAdd(a: Decimal, b: Decimal, result: DecimalType): Decimal | null {
  const s = Math.max(a.scale, b.scale);
  return toDecimalType({ unscaled: rescale(a.unscaled, a.scale, s) + rescale(b.unscaled, b.scale, s), scale: s }, result);
}

/** `a - b` as a value of `result` (from {@link additionType}); null on overflow. */
export function decimalSubtract(a: Decimal, b: Decimal, result: DecimalType): Decimal | null {
  const s = Math.max(a.scale, b.scale);
  return toDecimalType({ unscaled: rescale(a.unscaled, a.scale, s) - rescale(b.unscaled, b.scale, s), scale: s }, result);
}

/** `a × b` as a value of `result` (from {@link multiplicationType}), rounded HALF_UP; null on overflow. */
export function decimalMultiply(a: Decimal, b: Decimal, result: DecimalType): Decimal | null {
  return toDecimalType({ unscaled: a.unscaled * b.unscaled, scale: a.scale + b.scale }, result);
}

/**
 * `a × n` for an integer `n` (a TINYINT … BIGINT value: a safe-integer `number`, or a `bigint` beyond), as a
 * value of `result` ({@link multiplicationType} of `a`'s type and the integer's): the value
 * {@link decimalMultiply} gives for `n` as a decimal of scale 0, computed in doubles when `n` is a number, the
 * product a safe integer (then exact) and of `a`'s scale, without the bigint product and the objects of the
 * general path.
 *
 * @example
 * ```ts
 * const t = multiplicationType({ precision: 3, scale: 3 }, { precision: 19, scale: 0 }); // DECIMAL(23, 3)
 * decimalMultiplyInteger(parseDecimal("0.908")!, 250, t); // 227.000
 * ```
 */
export function decimalMultiplyInteger(a: Decimal, n: number | bigint, result: DecimalType): Decimal | null {
  const u = Number(a.unscaled);
  if (typeof n === "number" && result.scale === a.scale && Math.abs(u) < EXACT_LIMIT) {
    // both factors are exact doubles, so the product is exact exactly when it is a safe integer
    const p = u * n;
    if (Number.isSafeInteger(p) && (result.precision >= EXACT_POW10.length || Math.abs(p) < EXACT_POW10[result.precision]!)) {
      return { unscaled: BigInt(p), scale: result.scale };
    }
  }
  return decimalMultiply(a, { unscaled: BigInt(n), scale: 0 }, result);
}

/**
 * `a / b` as a value of `result` (from {@link divisionType}), rounded HALF_UP
 * at the result's scale; null on overflow.
 *
 * @throws DecimalDivisionByZeroError when `b` is zero
 * @example
 * ```ts
 * const t = divisionType({ precision: 1, scale: 0 }, { precision: 1, scale: 0 }); // DECIMAL(7, 6)
 * decimalDivide(parseDecimal("2")!, parseDecimal("3")!, t); // 0.666667
 * ```
 */
export function decimalDivide(a: Decimal, b: Decimal, result: DecimalType): Decimal | null {
  if (b.unscaled === 0n) throw new DecimalDivisionByZeroError();
  // a/b = (ua / ub) × 10^(sb - sa); scaled to 10^-s: ua × 10^(s + sb - sa) / ub.
  const shift = result.scale + b.scale - a.scale;
  const n = shift >= 0 ? a.unscaled * pow10(shift) : a.unscaled;
  const d = shift >= 0 ? b.unscaled : b.unscaled * pow10(-shift);
  return toDecimalType({ unscaled: divideHalfUp(n, d), scale: result.scale }, result);
}

/**
 * The remainder of `a / b` with the sign of `a` (Java's `BigDecimal.remainder`,
 * SQL `MOD`), as a value of `result` (from {@link moduloType}); null on overflow.
 *
 * @throws DecimalDivisionByZeroError when `b` is zero
 */
export function decimalModulo(a: Decimal, b: Decimal, result: DecimalType): Decimal | null {
  if (b.unscaled === 0n) throw new DecimalDivisionByZeroError();
  const s = Math.max(a.scale, b.scale);
  return toDecimalType({ unscaled: rescale(a.unscaled, a.scale, s) % rescale(b.unscaled, b.scale, s), scale: s }, result);
}

/** `-a` (same type: it cannot overflow). */
export function decimalNegate(a: Decimal): Decimal {
  return { unscaled: -a.unscaled, scale: a.scale };
}
