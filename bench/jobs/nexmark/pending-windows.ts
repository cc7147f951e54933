/**
 * Event-time windows for the hand-fused loops and RxJS pipelines of the
 * Nexmark bench: accumulators by window end, fired (and dropped) once the
 * watermark — the highest event time seen minus the out-of-orderness bound,
 * minus 1 ms, as `WatermarkStrategy.forBoundedOutOfOrderness` computes it —
 * reaches a window's last millisecond; `fireAll` at the end of the input.
 */
import { NEXMARK_OUT_OF_ORDERNESS_MS } from "./nexmark-query.ts";

export class PendingWindows<A> {
  private readonly byEnd = new Map<number, A>();
  /** The smallest pending end (Infinity when none). */
  private nextEnd = Number.POSITIVE_INFINITY;
  private maxTimestamp = Number.NEGATIVE_INFINITY;

  /** @param emit called with each fired window's end and accumulator */
  constructor(
    private readonly create: () => A,
    private readonly emit: (end: number, acc: A) => void,
  ) {}

  /** The accumulator of the window ending at `end`. */
  get(end: number): A {
    let acc = this.byEnd.get(end);
    if (acc === undefined) {
      this.byEnd.set(end, (acc = this.create()));
      if (end < this.nextEnd) this.nextEnd = end;
    }
    return acc;
  }

  /** An event at `timestamp` was seen: fires the windows the watermark passed. */
  advance(timestamp: number): void {
    if (timestamp <= this.maxTimestamp) return;
    this.maxTimestamp = timestamp;
    if (this.nextEnd - 1 <= timestamp - NEXMARK_OUT_OF_ORDERNESS_MS - 1) this.fire(timestamp - NEXMARK_OUT_OF_ORDERNESS_MS - 1);
  }

  /** End of input: fires every window. */
  fireAll(): void {
    this.fire(Number.POSITIVE_INFINITY);
  }

  private fire(watermark: number): void {
    let next = Number.POSITIVE_INFINITY;
    for (const [end, acc] of this.byEnd) {
      if (end - 1 <= watermark) {
        this.byEnd.delete(end);
        this.emit(end, acc);
      } else if (end < next) next = end;
    }
    this.nextEnd = next;
  }
}

/** Start of the tumbling (or hopping, with `size` = slide) window of `size` ms holding `timestamp`, aligned to the epoch. */
export function windowStart(timestamp: number, size: number): number {
  return timestamp - (((timestamp % size) + size) % size);
}
