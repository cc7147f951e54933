/**
 * The key of a row by some of its fields, for `keyBy`: a string that is the
 * same exactly when the fields are not distinct (see `sqlValueKey`), so NULL,
 * BIGINT and DECIMAL keys hash alike on every worker and after a restore.
 *
 * A selector remembers the keys of its last few distinct rows: the rows of a
 * window (`window_start`, `window_end`; two windows are open while rows are
 * out of order) or of a hot key share their field values, and a TIMESTAMP's
 * digits cost more than the comparisons. Only primitive values are
 * remembered (an array, map or DECIMAL object may have been changed since).
 */
import type { Row } from "../data/row.ts";
import type { SqlValue } from "../types/sql-value.ts";
import { sqlValueCompactKey, sqlValueKey } from "../types/sql-value-key.ts";

/** Never a field value: what a selector remembers before its first rows. */
const NONE: unique symbol = Symbol("none");

/** How many keys a selector remembers (replaced in turn). */
const REMEMBERED = 4;

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
  const n = positions.length;
  if (n === 0) return () => "";
  // entry e remembers the values values[e * n .. e * n + n) with the key keys[e]
  const values: (SqlValue | typeof NONE)[] = new Array<SqlValue | typeof NONE>(REMEMBERED * n).fill(NONE);
  const keys: string[] = new Array<string>(REMEMBERED).fill("");
  let replaced = 0;
  /** The entry of the last key found (the next row most likely has it too): looked at first. */
  let hit = 0;
  if (n === 1) {
    const p = positions[0]!;
    return (row) => {
      const v = row.fields[p]!;
      for (let j = 0; j < REMEMBERED; j++) {
        const e = (hit + j) % REMEMBERED;
        if (values[e] === v) {
          hit = e;
          return keys[e]!;
        }
      }
      const key = sqlValueKey(v);
      if (isPrimitive(v)) {
        values[replaced] = v;
        keys[replaced] = key;
        hit = replaced;
        replaced = (replaced + 1) % REMEMBERED;
      }
      return key;
    };
  }
  return (row) => {
    const fields = row.fields;
    for (let j = 0; j < REMEMBERED; j++) {
      const e = (hit + j) % REMEMBERED;
      const at = e * n;
      let i = 0;
      while (i < n && fields[positions[i]!] === values[at + i]) i++;
      if (i === n) {
        hit = e;
        return keys[e]!;
      }
    }
    let key = "";
    let primitive = true;
    for (let i = 0; i < n; i++) {
      const v = fields[positions[i]!]!;
      key += sqlValueKey(v) + "\u0001";
      primitive &&= isPrimitive(v);
    }
    if (primitive) {
      for (let i = 0, at = replaced * n; i < n; i++) values[at + i] = fields[positions[i]!]!;
      keys[replaced] = key;
      hit = replaced;
      replaced = (replaced + 1) % REMEMBERED;
    }
    return key;
  };
}

/**
 * A selector of the compact key of a row by the fields at `positions`, for maps held in memory: with one
 * position, the field's {@link sqlValueCompactKey} (a number for an integer value: no string built);
 * else what {@link rowKeySelector} gives. Rows get the same compact key exactly when they get the same
 * key; `valueKeyOfCompactKey` gives the key back.
 *
 * @example
 * ```ts
 * const key = rowCompactKeySelector([0]);
 * key(Row.of(7n, "a")); // 7
 * key(Row.of("x"));     // '"x"'
 * ```
 */
export function rowCompactKeySelector(positions: readonly number[]): (row: Row) => string | number {
  if (positions.length !== 1) return rowKeySelector(positions);
  const p = positions[0]!;
  const others = rowKeySelector(positions);
  return (row) => {
    const v = row.fields[p]!;
    // the usual case inline: an integer number is its own compact key
    if (typeof v === "number" && Number.isSafeInteger(v)) return v === 0 ? 0 : v;
    // a string's key is remembered by the key selector (hot keys repeat); any other value has its compact key
    return typeof v === "string" ? others(row) : sqlValueCompactKey(v);
  };
}
