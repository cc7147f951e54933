/**
 * Watermarks of a source reader generated per split and combined (Flink's
 * per-split watermarks, with the promise made safe for readers that queue
 * splits): each split (and the reader's main output, once it emitted a
 * record) has its own generator; the reader's watermark is the minimum over
 * its registered splits, idle ones excluded.
 *
 * - A registered split that has not emitted a record yet (queued) holds the
 *   watermark at its start: -Infinity, or the split's watermark from the
 *   checkpoint it was restored from. So a reader that reads a later-in-time
 *   split before an earlier one never makes the earlier one's rows late.
 *   Queued splits are never idle (their idle timer starts with their first record),
 *   unless registered `activeFromStart` (a split read now, such as a Kafka partition).
 * - A finished split makes a last periodic emit; its final watermark is the
 *   reader's watermark while the reader has no other split.
 * - A reader that says it has nothing to read (`markReaderIdle`) and holds no
 *   split is idle; all inputs idle makes the reader idle. Going idle, it first
 *   advances to the minimum of what its idle inputs promised (those with a
 *   watermark): what it would have emitted had the inputs without one gone idle
 *   first. Inputs found idle in one periodic emit go idle in the order of the
 *   splits, so without this the watermark promised by the splits read last
 *   would depend on that order (and stay unsent when a split without records
 *   came after them: a loaded machine whose periodic emit came late); for the
 *   same reason a periodic emit combines the inputs once, after all of them.
 */
import type { WatermarkGenerator, WatermarkOutput } from "../../time/watermark-generator.ts";

/** One generator and what it last said. */
interface Input<T> {
  readonly generator: WatermarkGenerator<T>;
  readonly output: WatermarkOutput;
  watermark: number;
  idle: boolean;
  /** Whether it carried a record: the main output takes part only then, a split gets periodic emits only then. */
  active: boolean;
}

export class SplitWatermarks<T> {
  private readonly main: Input<T>;
  private readonly splits = new Map<string, Input<T>>();
  /** The split of the last record and its input (undefined once released). */
  private lastId: string | undefined;
  private lastInput: Input<T> | undefined;
  /** The highest final watermark of a finished split. */
  private finished = Number.NEGATIVE_INFINITY;
  private readerIdle = false;
  /** What `emit` and `setIdle` were last called with. */
  private emitted = Number.NEGATIVE_INFINITY;
  private idle = false;
  /** While a periodic emit runs: the inputs are combined once, after it. */
  private deferred = false;

  /**
   * @param create a new generator (one per split)
   * @param emit called with the combined watermark when it changes
   * @param setIdle called with true when the reader is idle, false when it is active again
   * @param restored per-split watermarks from the checkpoint the reader was restored from (split id → watermark)
   */
  constructor(
    private readonly create: () => WatermarkGenerator<T>,
    private readonly emit: (watermark: number) => void,
    private readonly setIdle: (idle: boolean) => void,
    private readonly restored: Map<string, number> = new Map(),
  ) {
    this.main = this.input(Number.NEGATIVE_INFINITY);
  }

  /** A record of the main output (no split). */
  onMainEvent(event: T, timestamp: number): void {
    this.main.active = true;
    this.readerIdle = false;
    this.main.generator.onEvent(event, timestamp, this.main.output);
  }

  /** A record of split `id`. */
  onSplitEvent(id: string, event: T, timestamp: number): void {
    // a reader emits runs of records of one split: its input is looked up once per run, not per record
    let s = this.lastInput;
    if (id !== this.lastId || s === undefined) {
      s = this.split(id);
      this.lastId = id;
      this.lastInput = s;
    }
    s.active = true;
    s.generator.onEvent(event, timestamp, s.output);
  }

  /**
   * Registers split `id` (it holds back the watermark from now on). `activeFromStart`: its generator gets
   * periodic emits before its first record (a split read now, whose idleness counts from registration).
   */
  split(id: string, activeFromStart = false): Input<T> {
    let s = this.splits.get(id);
    if (!s) {
      s = this.input(this.restored.get(id) ?? Number.NEGATIVE_INFINITY);
      s.active = activeFromStart;
      this.restored.delete(id);
      this.splits.set(id, s);
      if (this.readerIdle) {
        this.readerIdle = false;
        this.update();
      }
    }
    return s;
  }

  /** Split `id` is finished: a last periodic emit, then it no longer holds back the watermark. */
  release(id: string): void {
    const s = this.splits.get(id);
    if (!s) return;
    if (id === this.lastId) this.lastInput = undefined;
    if (s.active) s.generator.onPeriodicEmit(s.output);
    if (s.watermark > this.finished) this.finished = s.watermark;
    this.splits.delete(id);
    this.update();
  }

  /** The reader has nothing to read for now: without splits it is idle until it registers one or emits. */
  markReaderIdle(): void {
    if (this.readerIdle) return;
    this.readerIdle = true;
    this.update();
  }

  /** Every auto-watermark interval. */
  onPeriodicEmit(): void {
    this.deferred = true;
    try {
      if (this.main.active) this.main.generator.onPeriodicEmit(this.main.output);
      for (const s of this.splits.values()) if (s.active) s.generator.onPeriodicEmit(s.output);
    } finally {
      this.deferred = false;
    }
    this.update();
  }

  /** The watermarks of the registered splits, for a checkpoint (split id → watermark; -Infinity left out). */
  splitWatermarks(): Map<string, number> {
    const all = new Map<string, number>();
    for (const [id, s] of this.splits) if (s.watermark !== Number.NEGATIVE_INFINITY) all.set(id, s.watermark);
    // restored splits the reader has not registered yet keep theirs
    for (const [id, wm] of this.restored) if (!all.has(id)) all.set(id, wm);
    return all;
  }

  private input(watermark: number): Input<T> {
    const input: Input<T> = {
      generator: this.create(),
      watermark,
      idle: false,
      active: false,
      output: {
        emitWatermark: (ts) => {
          if (ts <= input.watermark) return;
          input.watermark = ts;
          input.idle = false;
          this.update();
        },
        markIdle: () => {
          input.idle = true;
          this.update();
        },
        markActive: () => {
          input.idle = false;
          this.update();
        },
      },
    };
    return input;
  }

  private update(): void {
    if (this.deferred) return;
    let min = Number.POSITIVE_INFINITY;
    /** The least watermark an idle input promised before it went idle (those without one left out). */
    let promised = Number.POSITIVE_INFINITY;
    let any = false;
    let anyActive = false;
    for (const i of this.inputs()) {
      any = true;
      if (i.idle) {
        if (i.watermark !== Number.NEGATIVE_INFINITY && i.watermark < promised) promised = i.watermark;
        continue;
      }
      anyActive = true;
      if (i.watermark < min) min = i.watermark;
    }
    if (!any) {
      // no split: what the finished ones promised holds; an idle reader does not hold back event time
      this.advance(this.finished);
      if (this.readerIdle) this.status(true);
      return;
    }
    if (!anyActive) {
      if (promised !== Number.POSITIVE_INFINITY) this.advance(promised);
      return this.status(true);
    }
    this.status(false);
    this.advance(min);
  }

  private advance(watermark: number): void {
    if (watermark <= this.emitted) return;
    this.emitted = watermark;
    this.idle = false; // a watermark makes the reader active
    this.emit(watermark);
  }

  private status(idle: boolean): void {
    if (idle === this.idle) return;
    this.idle = idle;
    this.setIdle(idle);
  }

  private *inputs(): IterableIterator<Input<T>> {
    if (this.main.active) yield this.main;
    yield* this.splits.values();
  }
}
