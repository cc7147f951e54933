/**
 * Watermarks of a source reader generated per split and combined (Flink's
 * per-split watermarks): each split (and the reader's main output, once it
 * emitted a record) has its own generator; the reader's watermark is the
 * minimum over the active ones, idle ones excluded; all idle makes the reader
 * idle. Releasing a finished split may advance it.
 */
import type { WatermarkGenerator, WatermarkOutput } from "../../time/watermark-generator.ts";

/** One generator and what it last said. */
interface Input<T> {
  readonly generator: WatermarkGenerator<T>;
  readonly output: WatermarkOutput;
  watermark: number;
  idle: boolean;
  /** The main output takes part only once it carried a record. */
  active: boolean;
}

export class SplitWatermarks<T> {
  private readonly main: Input<T>;
  private readonly splits = new Map<string, Input<T>>();

  /**
   * @param create a new generator (one per split)
   * @param emit called with the combined watermark when it changes
   * @param setIdle called with true when every input is idle, false when one is active again
   */
  constructor(
    private readonly create: () => WatermarkGenerator<T>,
    private readonly emit: (watermark: number) => void,
    private readonly setIdle: (idle: boolean) => void,
  ) {
    this.main = this.input(false);
  }

  /** A record of the main output (no split). */
  onMainEvent(event: T, timestamp: number): void {
    this.main.active = true;
    this.main.generator.onEvent(event, timestamp, this.main.output);
  }

  /** A record of split `id`. */
  onSplitEvent(id: string, event: T, timestamp: number): void {
    const s = this.split(id);
    s.generator.onEvent(event, timestamp, s.output);
  }

  /** Registers split `id` (it holds back the watermark from now on). */
  split(id: string): Input<T> {
    let s = this.splits.get(id);
    if (!s) this.splits.set(id, (s = this.input(true)));
    return s;
  }

  /** Split `id` is finished. */
  release(id: string): void {
    if (this.splits.delete(id)) this.update();
  }

  /** Every auto-watermark interval. */
  onPeriodicEmit(): void {
    if (this.main.active) this.main.generator.onPeriodicEmit(this.main.output);
    for (const s of this.splits.values()) s.generator.onPeriodicEmit(s.output);
  }

  private input(active: boolean): Input<T> {
    const input: Input<T> = {
      generator: this.create(),
      watermark: Number.NEGATIVE_INFINITY,
      idle: false,
      active,
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
    let min = Number.POSITIVE_INFINITY;
    let any = false;
    let anyActive = false;
    for (const i of this.inputs()) {
      any = true;
      if (i.idle) continue;
      anyActive = true;
      if (i.watermark < min) min = i.watermark;
    }
    if (!any) return;
    if (!anyActive) return this.setIdle(true);
    this.setIdle(false);
    if (min !== Number.NEGATIVE_INFINITY) this.emit(min);
  }

  private *inputs(): IterableIterator<Input<T>> {
    if (this.main.active) yield this.main;
    yield* this.splits.values();
  }
}
