/**
 * SQL's three-valued logic over `true`, `false` and `null` (UNKNOWN), as
 * Flink evaluates `AND`, `OR`, `NOT` and the `IS [NOT] TRUE/FALSE/UNKNOWN`
 * predicates. A `WHERE`/`HAVING`/`ON` condition keeps a row only when it is
 * `true` ({@link isTrue}): UNKNOWN filters the row out.
 */

/** A SQL BOOLEAN value: `null` is UNKNOWN. */
export type SqlBoolean = boolean | null;

/**
 * `a AND b`: false if either is false, else UNKNOWN if either is UNKNOWN, else true.
 *
 * @example
 * ```ts
 * sqlAnd(null, false); // false
 * sqlAnd(null, true);  // null
 * ```
 */
export function sqlAnd(a: SqlBoolean, b: SqlBoolean): SqlBoolean {
  if (a === false || b === false) return false;
  return a === null || b === null ? null : true;
}

/**
 * `a OR b`: true if either is true, else UNKNOWN if either is UNKNOWN, else false.
 *
 * @example
 * ```ts
 * sqlOr(null, true);  // true
 * sqlOr(null, false); // null
 * ```
 */
export function sqlOr(a: SqlBoolean, b: SqlBoolean): SqlBoolean {
  if (a === true || b === true) return true;
  return a === null || b === null ? null : false;
}

/** `NOT a`: UNKNOWN stays UNKNOWN. */
export function sqlNot(a: SqlBoolean): SqlBoolean {
  return a === null ? null : !a;
}

/** `AND` over any number of operands (true for none). */
export function sqlAndAll(values: Iterable<SqlBoolean>): SqlBoolean {
  let result: SqlBoolean = true;
  for (const v of values) {
    if (v === false) return false;
    if (v === null) result = null;
  }
  return result;
}

/** `OR` over any number of operands (false for none). */
export function sqlOrAll(values: Iterable<SqlBoolean>): SqlBoolean {
  let result: SqlBoolean = false;
  for (const v of values) {
    if (v === true) return true;
    if (v === null) result = null;
  }
  return result;
}

/** `a IS TRUE`: what a `WHERE` condition must be for the row to pass. */
export function isTrue(a: SqlBoolean): boolean {
  return a === true;
}

/** `a IS FALSE`. */
export function isFalse(a: SqlBoolean): boolean {
  return a === false;
}

/** `a IS NOT TRUE` (false or UNKNOWN). */
export function isNotTrue(a: SqlBoolean): boolean {
  return a !== true;
}

/** `a IS NOT FALSE` (true or UNKNOWN). */
export function isNotFalse(a: SqlBoolean): boolean {
  return a !== false;
}

/** `a IS UNKNOWN` (the same as `a IS NULL` for a BOOLEAN). */
export function isUnknown(a: SqlBoolean): boolean {
  return a === null;
}
