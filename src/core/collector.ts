/** Where a function emits its results (Flink's `Collector`). */
export interface Collector<T> {
  /** Emits one record downstream. */
  collect(value: T): void;
}
