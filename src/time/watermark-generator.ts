/**
 * Watermark generators: they watch event timestamps and say how far event
 * time has progressed (Flink's WatermarkGenerator), on each event and/or
 * periodically.
 */

/** Where a generator emits watermarks and idleness. */
export interface WatermarkOutput {
  /** Event time has reached `timestamp`: no record at or below it is expected any more. */
  emitWatermark(timestamp: number): void;
  /** This input has no records for now and must not hold back event time. */
  markIdle(): void;
  /** This input emits again. */
  markActive(): void;
}

/**
 * Generates watermarks for one source reader.
 *
 * @example
 * ```ts
 * const punctuated: WatermarkGenerator<{ ts: number; end?: boolean }> = {
 *   onEvent: (e, ts, out) => { if (e.end) out.emitWatermark(ts); },
 *   onPeriodicEmit: () => {},
 * };
 * ```
 */
export interface WatermarkGenerator<T> {
  onEvent(event: T, eventTimestamp: number, output: WatermarkOutput): void;
  /** Called every auto-watermark interval (default 200 ms). */
  onPeriodicEmit(output: WatermarkOutput): void;
}

/** Watermarks that trail the highest timestamp seen by `maxOutOfOrdernessMs` (Flink's BoundedOutOfOrdernessWatermarks). */
export class BoundedOutOfOrdernessWatermarks<T> implements WatermarkGenerator<T> {
  private maxTimestamp: number;

  constructor(private readonly maxOutOfOrdernessMs: number) {
    if (!(maxOutOfOrdernessMs >= 0)) throw new RangeError(`max out-of-orderness must be ≥ 0 ms, got ${maxOutOfOrdernessMs}`);
    this.maxTimestamp = Number.NEGATIVE_INFINITY;
  }

  onEvent(_event: T, eventTimestamp: number): void {
    if (eventTimestamp > this.maxTimestamp) this.maxTimestamp = eventTimestamp;
  }

  onPeriodicEmit(output: WatermarkOutput): void {
    if (this.maxTimestamp !== Number.NEGATIVE_INFINITY) output.emitWatermark(this.maxTimestamp - this.maxOutOfOrdernessMs - 1);
  }
}

/**
 * Marks the input idle after `idleTimeoutMs` without events (processing time from
 * `now`), and active again with the next event.
 */
export class WatermarksWithIdleness<T> implements WatermarkGenerator<T> {
  private lastActivity: number;
  private idle = false;

  constructor(
    private readonly inner: WatermarkGenerator<T>,
    private readonly idleTimeoutMs: number,
    private readonly now: () => number,
  ) {
    this.lastActivity = now();
  }

  onEvent(event: T, eventTimestamp: number, output: WatermarkOutput): void {
    this.lastActivity = this.now();
    if (this.idle) {
      this.idle = false;
      output.markActive();
    }
    this.inner.onEvent(event, eventTimestamp, output);
  }

  onPeriodicEmit(output: WatermarkOutput): void {
    if (this.idle) return;
    // what the events seen so far promise, also when going idle now
    this.inner.onPeriodicEmit(output);
    if (this.now() - this.lastActivity >= this.idleTimeoutMs) {
      this.idle = true;
      output.markIdle();
    }
  }
}
