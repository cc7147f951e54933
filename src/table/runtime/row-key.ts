/**
 * The key of a row by some of its fields, for `keyBy`: a string that is the
 * same exactly when the fields are not distinct (see `sqlValueKey`), so NULL,
 * BIGINT and DECIMAL keys hash alike on every worker and after a restore.
 *
 * A selector remembers the key of its last row: consecutive rows of a window
 * (`window_start`, `window_end`) or of a hot key share their field values, and
 * a TIMESTAMP's digits cost more than the comparison. Only primitive values are
 * remembered (an array, map or DECIMAL object may have been changed since).
 */
import type { Row } from "../data/row.ts";
import type { SqlValue } from "../types/sql-value.ts";
import { sqlValueKey } from "../types/sql-value-key.ts";

/** Never a field value: what a selector remembers before its first row. */
const NONE: unique symbol = Symbol("none");

/** Whether `v` is immutable, so that an equal value later has the same key (`===` on primitives). */
function isPrimitive(v: SqlValue): boolean {
  return typeof v !== "object" || v === null;
}

/**
 * A key selector over the fields at `positions` (`""` for none: one group).
 *
 * @example
 * ```ts
 * const key = rowKeySelector([0]);
 * key(Row.of("Mary", 1n)) === key(Row.of("Mary", 2n)); // true
 * ```
 */
export function rowKeySelector(positions: readonly number[]): (row: Row) => string {
  if (positions.length === 0) return () => "";
  if (positions.length === 1) {
    const p = positions[0]!;
    let last: SqlValue | typeof NONE = NONE;
    let lastKey = "";
    return (row) => {
      const v = row.fields[p]!;
      if (v === last) return lastKey;
      const key = sqlValueKey(v);
      if (isPrimitive(v)) {
        last = v;
        lastKey = key;
      }
      return key;
    };
  }
  const n = positions.length;
  const last: (SqlValue | typeof NONE)[] = new Array<SqlValue | typeof NONE>(n).fill(NONE);
  let lastKey = "";
  return (row) => {
    const fields = row.fields;
    let i = 0;
    while (i < n && fields[positions[i]!] === last[i]) i++;
    if (i === n) return lastKey;
    let key = "";
    for (i = 0; i < n; i++) {
      const v = fields[positions[i]!]!;
      key += sqlValueKey(v) + "\u0001";
      // NONE at an object value's position: the next row computes its key again
      last[i] = isPrimitive(v) ? v : NONE;
    }
    lastKey = key;
    return key;
  };
}
