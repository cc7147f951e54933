/**
 * The key of a row by some of its fields, for `keyBy`: a string that is the
 * same exactly when the fields are not distinct (see `sqlValueKey`), so NULL,
 * BIGINT and DECIMAL keys hash alike on every worker and after a restore.
 */
import type { Row } from "../data/row.ts";
import { sqlValueKey } from "../types/sql-value-key.ts";

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
    return (row) => sqlValueKey(row.fields[p]!);
  }
  return (row) => {
    let key = "";
    for (const p of positions) key += sqlValueKey(row.fields[p]!) + "\u0001";
    return key;
  };
}
