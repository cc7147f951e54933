/**
 * Reads the Nexmark splits of one parallel instance: makes their events in
 * turns (each split gets an equal share of a poll, so a reader with several
 * splits moves through event time evenly), with each split's own watermark
 * output, as fast as it is polled or, rate limited, when they are due on
 * the clock. A reader may emit each event converted (e.g. to a table row).
 */
import type { PollStatus, ReaderOutput, SourceReader } from "../../core/source.ts";
import { systemClock, type Clock } from "../../util/clock.ts";
import { nexmarkEventTime, type NexmarkEvent } from "./nexmark-event.ts";
import type { NexmarkGenerator } from "./nexmark-generator.ts";
import { nexmarkSplitId, type NexmarkSplit } from "./nexmark-split.ts";

/** A split being read. */
interface OpenSplit {
  readonly id: string;
  next: number;
  readonly stride: number;
}

/**
 * The reader of `NexmarkSource`, also of the `nexmark` table connector, which
 * emits rows: each event goes out as `convert(event)` with the event's time.
 */
export class NexmarkReader<T = NexmarkEvent> implements SourceReader<T, NexmarkSplit> {
  private readonly splits: OpenSplit[] = [];
  private readonly clock: Clock;
  /** Rate limited: wall-clock time at which event 0 is due (set by the first poll unless `startTime` is given). */
  private anchor: number | undefined;
  private readonly msPerEvent: number;

  constructor(
    private readonly generator: NexmarkGenerator,
    private readonly convert: (e: NexmarkEvent) => T = (e) => e as T,
  ) {
    const c = generator.config;
    this.clock = c.clock ?? systemClock;
    this.anchor = c.startTime;
    this.msPerEvent = 1000 / c.eventsPerSecond;
  }

  addSplits(splits: NexmarkSplit[]): void {
    for (const s of splits) if (s.next < this.generator.config.events) this.splits.push({ id: nexmarkSplitId(s), next: s.next, stride: s.stride });
  }

  pollNext(output: ReaderOutput<T>, maxRecords: number): PollStatus {
    if (this.splits.length === 0) return "end-of-input";
    const g = this.generator;
    const convert = this.convert;
    const end = Math.min(g.config.events, this.dueEnd());
    const share = Math.max(1, Math.ceil(maxRecords / this.splits.length));
    let emitted = 0;
    for (let i = 0; i < this.splits.length; i++) {
      const s = this.splits[i]!;
      const out = output.createOutputForSplit(s.id);
      let n = s.next;
      for (let k = 0; k < share && n < end; k++, n += s.stride) {
        const e = g.event(n);
        out.collect(convert(e), nexmarkEventTime(e));
      }
      emitted += (n - s.next) / s.stride;
      s.next = n;
      if (n >= g.config.events) {
        output.releaseOutputForSplit(s.id);
        this.splits.splice(i--, 1);
      }
    }
    if (this.splits.length === 0) return "end-of-input";
    return emitted > 0 || !g.config.rateLimited ? "more-available" : "nothing-available";
  }

  /** Rate limited: resolves when the next event of a split is due. */
  isAvailable(): Promise<void> {
    const waitMs = this.anchor === undefined ? 0 : this.anchor + this.nextNumber() * this.msPerEvent - this.clock.now();
    if (waitMs <= 0) return Promise.resolve();
    return new Promise((resolve) => this.clock.setTimeout(resolve, Math.ceil(waitMs)));
  }

  snapshotState(): NexmarkSplit[] {
    return this.splits.map((s) => ({ next: s.next, stride: s.stride }));
  }

  /** Event numbers below this are due: all of them without a rate limit. */
  private dueEnd(): number {
    if (!this.generator.config.rateLimited) return Number.POSITIVE_INFINITY;
    const now = this.clock.now();
    this.anchor ??= now - this.nextNumber() * this.msPerEvent;
    return Math.floor((now - this.anchor) / this.msPerEvent) + 1;
  }

  /** The lowest next event number over the open splits. */
  private nextNumber(): number {
    let min = Number.POSITIVE_INFINITY;
    for (const s of this.splits) if (s.next < min) min = s.next;
    return min;
  }
}
