/**
 * BIGINT values: a JavaScript `number` when the value is a safe integer
 * (|v| ≤ 2^53 − 1), a `bigint` only beyond, so that the common case allocates
 * nothing. The form is canonical — every producer of a BIGINT value gives a
 * `number` exactly when `Number.isSafeInteger(v)` (and never `-0`) — so equal
 * values have one representation. Consumers still accept both forms (a
 * `bigint` 5n from state written by an earlier version, or from a user
 * function): comparisons, keys and the operations here treat `5` and `5n`
 * alike, and give canonical results.
 *
 * The operations keep Java's `long` semantics exactly: results wrap around at
 * 64 bits as before; an operation on two numbers whose result is not a safe
 * integer is redone with bigints.
 */

/** A BIGINT value: a safe-integer `number`, or a `bigint` beyond ±(2^53 − 1). */
export type BigintValue = number | bigint;

const MAX_SAFE = Number.MAX_SAFE_INTEGER;
const MAX_SAFE_BIG = BigInt(Number.MAX_SAFE_INTEGER);
/** A constant: negating a bigint allocates one. */
const MIN_SAFE_BIG = -MAX_SAFE_BIG;

/**
 * The canonical form of a 64-bit integer held as a `bigint`.
 *
 * @example
 * ```ts
 * bigintOf(5n);       // 5
 * bigintOf(2n ** 60n); // 1152921504606846976n
 * ```
 */
export function bigintOf(x: bigint): BigintValue {
  return x >= MIN_SAFE_BIG && x <= MAX_SAFE_BIG ? Number(x) : x;
}

/**
 * The canonical form of a BIGINT value in either form (`-0` is 0).
 *
 * @example
 * ```ts
 * canonicalBigint(5n); // 5
 * canonicalBigint(-0); // 0
 * ```
 */
export function canonicalBigint(v: BigintValue): BigintValue {
  return typeof v === "bigint" ? bigintOf(v) : v === 0 ? 0 : v;
}

/**
 * A BIGINT value as a `bigint`.
 *
 * @example
 * ```ts
 * toBigInt(5); // 5n
 * ```
 */
export function toBigInt(v: BigintValue): bigint {
  return typeof v === "bigint" ? v : BigInt(v);
}

/**
 * The canonical BIGINT value of an integer `x` wrapped to 64 bits (Java's `long` overflow).
 *
 * @example
 * ```ts
 * int64(2n ** 63n); // -9223372036854775808n
 * ```
 */
export function int64(x: bigint): BigintValue {
  return bigintOf(BigInt.asIntN(64, x));
}

/**
 * The canonical BIGINT value of an integer-valued double, saturated to the
 * 64-bit range and NaN as 0 (Java's `(long) d`), truncated toward zero.
 *
 * @example
 * ```ts
 * bigintOfDouble(1e300); // 9223372036854775807n
 * bigintOfDouble(-2.7);  // -2
 * ```
 */
export function bigintOfDouble(x: number): BigintValue {
  if (Number.isNaN(x)) return 0;
  const t = Math.trunc(x);
  if (t <= MAX_SAFE && t >= -MAX_SAFE) return t + 0;
  if (x >= 9223372036854775807) return 9223372036854775807n;
  if (x <= -9223372036854775808) return -9223372036854775808n;
  return BigInt(t);
}

/**
 * `a + b` wrapped to 64 bits.
 *
 * @example
 * ```ts
 * addInt64(2 ** 53 - 1, 1); // 9007199254740992n
 * ```
 */
export function addInt64(a: BigintValue, b: BigintValue): BigintValue {
  if (typeof a === "number" && typeof b === "number") {
    const r = a + b;
    if (r <= MAX_SAFE && r >= -MAX_SAFE) return r;
  }
  return int64(toBigInt(a) + toBigInt(b));
}

/**
 * `a - b` wrapped to 64 bits.
 *
 * @example
 * ```ts
 * subtractInt64(-(2 ** 53) + 1, 1); // -9007199254740992n
 * ```
 */
export function subtractInt64(a: BigintValue, b: BigintValue): BigintValue {
  if (typeof a === "number" && typeof b === "number") {
    const r = a - b;
    if (r <= MAX_SAFE && r >= -MAX_SAFE) return r;
  }
  return int64(toBigInt(a) - toBigInt(b));
}

/**
 * `a * b` wrapped to 64 bits. A product of two safe integers is exact when it
 * is safe, and a double at least 2^53 in size otherwise (then redone exactly).
 *
 * @example
 * ```ts
 * multiplyInt64(2 ** 32, 2 ** 32); // 0 (wrapped)
 * ```
 */
export function multiplyInt64(a: BigintValue, b: BigintValue): BigintValue {
  if (typeof a === "number" && typeof b === "number") {
    const r = a * b;
    if (r <= MAX_SAFE && r >= -MAX_SAFE) return r + 0;
  }
  return int64(toBigInt(a) * toBigInt(b));
}

/**
 * `a / b` truncated toward zero, wrapped to 64 bits (MIN / −1 is MIN). `b` is not 0.
 * On numbers `a % b` is exact, so `a − a % b` is an exact multiple of `b`.
 *
 * @example
 * ```ts
 * divideInt64(-7, 2); // -3
 * ```
 */
export function divideInt64(a: BigintValue, b: BigintValue): BigintValue {
  if (typeof a === "number" && typeof b === "number") return (a - (a % b)) / b + 0;
  return int64(toBigInt(a) / toBigInt(b));
}

/**
 * `a % b` with the sign of `a` (Java's `%`). `b` is not 0.
 *
 * @example
 * ```ts
 * remainderInt64(-7, 2); // -1
 * ```
 */
export function remainderInt64(a: BigintValue, b: BigintValue): BigintValue {
  if (typeof a === "number" && typeof b === "number") return (a % b) + 0;
  return bigintOf(toBigInt(a) % toBigInt(b));
}

/**
 * `-a` wrapped to 64 bits (−MIN is MIN).
 *
 * @example
 * ```ts
 * negateInt64(-(2n ** 63n)); // -9223372036854775808n
 * ```
 */
export function negateInt64(a: BigintValue): BigintValue {
  return typeof a === "number" ? 0 - a : int64(-a);
}
