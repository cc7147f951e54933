/**
 * The order of a planned `ORDER BY` over rows' fields: each {@link SortKey}
 * in turn, by `compareForSort` (SQL's total order), reversed for descending
 * keys, with NULLs first or last as the key says.
 */
import { compareForSort } from "../types/sql-compare.ts";
import type { SqlValue } from "../types/sql-value.ts";
import type { SortKey } from "./sort-spec.ts";

/** A three-way comparison of two rows' fields. */
export type FieldsComparator = (a: readonly SqlValue[], b: readonly SqlValue[]) => number;

/**
 * The comparator of `orderBy` (0 when the rows tie on every key).
 *
 * @example
 * ```ts
 * const cmp = sortKeyComparator([{ field: 1, descending: true, nullsFirst: false }]);
 * cmp(["a", 3], ["b", 5]) > 0; // true: 5 comes first
 * cmp(["a", null], ["b", 5]) > 0; // true: NULLs last
 * ```
 */
export function sortKeyComparator(orderBy: readonly SortKey[]): FieldsComparator {
  const keys = orderBy.map((k) => ({ field: k.field, sign: k.descending ? -1 : 1, nulls: k.nullsFirst ? -1 : 1 }));
  return (a, b) => {
    for (const k of keys) {
      const x = a[k.field]!;
      const y = b[k.field]!;
      if (x === null || y === null) {
        if (x === y) continue;
        return x === null ? k.nulls : -k.nulls;
      }
      const c = compareForSort(x, y);
      if (c !== 0) return c * k.sign;
    }
    return 0;
  };
}
