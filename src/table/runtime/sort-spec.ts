/**
 * A sort key of a planned `ORDER BY` (Top-N, `OVER`, `ROW_NUMBER()`): an
 * input position, the direction and where NULLs go (Flink: NULLs first when
 * ascending, last when descending, unless written).
 */
export interface SortKey {
  field: number;
  descending: boolean;
  nullsFirst: boolean;
}
