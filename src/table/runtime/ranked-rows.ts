/**
 * Rows kept sorted for Top-N (`ROW_NUMBER`, `RANK`, `DENSE_RANK` over an
 * `ORDER BY`): insertion after the rows that sort before or tie with a new
 * row (so ties keep their arrival order), and the rank numbers of a sorted
 * prefix.
 */
import type { SqlValue } from "../types/sql-value.ts";
import type { FieldsComparator } from "./sort-key-comparator.ts";

/** The ranking function of a Top-N. */
export type RankType = "ROW_NUMBER" | "RANK" | "DENSE_RANK";

/**
 * Inserts `fields` into `sorted` (sorted by `cmp`) after every row that does
 * not sort after it; returns its position.
 *
 * @example
 * ```ts
 * const rows = [[1], [3]];
 * insertSorted(rows, [2], (a, b) => (a[0] as number) - (b[0] as number)); // 1: rows is [[1], [2], [3]]
 * ```
 */
export function insertSorted(sorted: SqlValue[][], fields: SqlValue[], cmp: FieldsComparator): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (cmp(sorted[mid]!, fields) <= 0) lo = mid + 1;
    else hi = mid;
  }
  sorted.splice(lo, 0, fields);
  return lo;
}

/**
 * The rank numbers of the first rows of `sorted`, as long as they are at most
 * `maxRank`: `ranks[i]` is the rank of `sorted[i]`. `ROW_NUMBER` counts rows,
 * `RANK` gives ties the same number and skips after them, `DENSE_RANK` gives
 * ties the same number without gaps.
 *
 * @example
 * ```ts
 * const byFirst = (a: SqlValue[], b: SqlValue[]) => (a[0] as number) - (b[0] as number);
 * rankNumbers([[1], [1], [2]], byFirst, "RANK", 10);       // [1, 1, 3]
 * rankNumbers([[1], [1], [2]], byFirst, "DENSE_RANK", 10); // [1, 1, 2]
 * rankNumbers([[1], [1], [2]], byFirst, "ROW_NUMBER", 2);  // [1, 2]
 * ```
 */
export function rankNumbers(sorted: readonly SqlValue[][], cmp: FieldsComparator, rankType: RankType, maxRank: number): number[] {
  const ranks: number[] = [];
  let rank = 0;
  for (let i = 0; i < sorted.length; i++) {
    rank = rankAt(sorted, i, rank, cmp, rankType);
    if (rank > maxRank) break;
    ranks.push(rank);
  }
  return ranks;
}

/**
 * Adds `fields` to `sorted` (sorted by `cmp`, every row ranked at most `maxRank`) unless it would rank past
 * `maxRank`, and drops the rows that its arrival ranks past `maxRank`, in place and without allocating; returns
 * how many rows `sorted` gained (1, 0 or fewer).
 *
 * @example
 * ```ts
 * const byFirst = (a: readonly SqlValue[], b: readonly SqlValue[]) => (a[0] as number) - (b[0] as number);
 * const rows = [[1], [3]];
 * keepRanked(rows, [2], byFirst, "ROW_NUMBER", 2); // 0: rows is [[1], [2]]
 * ```
 */
export function keepRanked(sorted: SqlValue[][], fields: SqlValue[], cmp: FieldsComparator, rankType: RankType, maxRank: number): number {
  const before = sorted.length;
  // maxRank rows sort before it (DENSE_RANK counts values, not rows: left to the count below)
  if (rankType !== "DENSE_RANK" && before >= maxRank && cmp(sorted[before - 1]!, fields) < 0) return 0;
  insertSorted(sorted, fields, cmp);
  let rank = 0;
  for (let i = 0; i < sorted.length; i++) {
    rank = rankAt(sorted, i, rank, cmp, rankType);
    if (rank > maxRank) {
      sorted.length = i;
      break;
    }
  }
  return sorted.length - before;
}

/** The rank of `sorted[i]`, given `previous`, the rank of `sorted[i - 1]` (0 for the first row). */
function rankAt(sorted: readonly SqlValue[][], i: number, previous: number, cmp: FieldsComparator, rankType: RankType): number {
  if (rankType === "ROW_NUMBER") return i + 1;
  if (i > 0 && cmp(sorted[i - 1]!, sorted[i]!) === 0) return previous;
  return rankType === "RANK" ? i + 1 : previous + 1;
}
