/**
 * The window of a window table-valued function (`TUMBLE`, `HOP`, `CUMULATE`,
 * `SESSION`) after planning: the position of the time attribute column in the
 * input row and the sizes in milliseconds. Windows are aligned to the epoch
 * plus `offset`, as Flink's: a window `[start, end)` contains the rows whose
 * time is `>= start` and `< end`; `window_time` is `end - 1`.
 */

/** A planned window. */
export type WindowSpec =
  | { kind: "tumble"; timeField: number; size: number; offset: number }
  | { kind: "hop"; timeField: number; size: number; slide: number; offset: number }
  | { kind: "cumulate"; timeField: number; maxSize: number; step: number; offset: number }
  | {
      kind: "session";
      timeField: number;
      gap: number;
      /** `TABLE t PARTITION BY k`: sessions are per partition (input positions). */
      partitionKeys: readonly number[];
    };
