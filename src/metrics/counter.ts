/**
 * A count that goes up (and down): a plain number field, so incrementing it on
 * the hot path costs what incrementing a number costs (Flink's SimpleCounter).
 *
 * @example
 * ```ts
 * const seen = group.counter("seen");
 * seen.inc();
 * seen.inc(10);
 * seen.getCount(); // 11
 * ```
 */
export class Counter {
  /** The current count; engine code may add to it directly. */
  count = 0;

  inc(n = 1): void {
    this.count += n;
  }

  dec(n = 1): void {
    this.count -= n;
  }

  getCount(): number {
    return this.count;
  }
}
