/**
 * Drives a source reader in a source task. The reader's splits, with their
 * positions, are the operator's list state: captured at every checkpoint
 * (before the barrier leaves the source) and handed back to a new reader on
 * restore, so reading resumes exactly at the checkpointed positions.
 * Event timestamps and watermarks come from the source's WatermarkStrategy:
 * the timestamp assigner runs per record, the generator per record and every
 * auto-watermark interval, and the end of a bounded input emits the maximal
 * watermark so every event-time timer and window fires. Each split's
 * watermark is checkpointed with the reader's last one (watermark-state.ts)
 * and restored with the split, wherever a rescale puts it.
 */
import type { PollStatus, ReaderOutput, Source, SourceReader } from "../../core/source.ts";
import { ListStateDescriptor, type ListState } from "../../state/index.ts";
import type { TimestampAssigner, WatermarkAlignmentParams, WatermarkStrategy } from "../../time/watermark-strategy.ts";
import { MAX_WATERMARK, NO_TIMESTAMP } from "../elements.ts";
import type { OperatorContext, Output, SourceOperatorLike } from "./stream-operator.ts";
import { SplitWatermarks } from "./split-watermarks.ts";
import { WatermarkState } from "./watermark-state.ts";

const IDLE_POLL_MS = 10;

export class SourceOperator<T, Split> implements SourceOperatorLike<T> {
  private reader!: SourceReader<T, Split>;
  private splitsState!: ListState<Split>;
  private output!: ReaderOutput<T>;
  private out!: Output<T>;
  private watermarks: SplitWatermarks<T> | null = null;
  private lastWatermark = Number.NEGATIVE_INFINITY;
  private watermarkState!: WatermarkState;
  private idle = false;
  /** Records emitted so far. */
  emitted = 0;

  constructor(
    private readonly source: Source<T, Split>,
    private readonly strategy?: WatermarkStrategy<T>,
  ) {}

  async open(ctx: OperatorContext, out: Output<T>): Promise<void> {
    this.out = out;
    this.splitsState = ctx.operatorState.getListState(new ListStateDescriptor<Split>("splits"));
    const splits = ctx.sourceOverride
      ? (ctx.sourceOverride as Split[])
      : ctx.isRestored
        ? this.splitsState.get()
        : this.source.createSplits(ctx.parallelism).filter((_, i) => i % ctx.parallelism === ctx.subtaskIndex);
    this.watermarkState = new WatermarkState(ctx.operatorState);
    const strategy = this.strategy;
    const now = () => ctx.processingTime.now();
    const watermarks = strategy?.createGenerator
      ? new SplitWatermarks<T>(
          () => strategy.generator(now)!,
          (ts) => this.emitWatermark(ts),
          (idle) => this.setIdle(idle),
          ctx.isRestored ? this.restoredSplitWatermarks(splits) : undefined,
        )
      : null;
    this.watermarks = watermarks;
    const element = ctx.element;
    const assign: TimestampAssigner<T> | null = strategy?.timestampAssigner ?? null;
    const emit = (v: T, recordTimestamp: number | undefined): number => {
      this.emitted++;
      const ts = assign ? assign(v, recordTimestamp) : (recordTimestamp ?? NO_TIMESTAMP);
      element.timestamp = ts;
      out.collect(v);
      return ts;
    };
    const splitOutputs = new Map<string, ReaderOutput<T>>();
    this.output = {
      collect: (v, recordTimestamp) => {
        const ts = emit(v, recordTimestamp);
        // after the record, as in Flink: a watermark derived from a record follows it
        watermarks?.onMainEvent(v, ts);
      },
      collectSide: (tag, v) => out.collectSide(tag.id, v),
      createOutputForSplit: (id, options) => {
        let o = splitOutputs.get(id);
        if (!o) {
          watermarks?.split(id, options?.activeFromStart === true);
          o = {
            ...this.output,
            collect: (v, recordTimestamp) => {
              const ts = emit(v, recordTimestamp);
              watermarks?.onSplitEvent(id, v, ts);
            },
          };
          splitOutputs.set(id, o);
        }
        return o;
      },
      releaseOutputForSplit: (id) => {
        splitOutputs.delete(id);
        watermarks?.release(id);
      },
      markIdle: () => watermarks?.markReaderIdle(),
    };
    this.reader = this.source.createReader({
      subtaskIndex: ctx.subtaskIndex,
      parallelism: ctx.parallelism,
      operatorUid: ctx.operatorUid,
    });
    this.reader.addSplits(splits);
    if (ctx.isRestored) this.emitWatermark(this.watermarkState.restored());
  }

  processElement(): void {
    throw new Error("a source operator has no input");
  }

  emitNext(max: number): PollStatus | Promise<PollStatus> {
    return this.reader.pollNext(this.output, max);
  }

  whenAvailable(): Promise<void> {
    return this.reader.isAvailable?.() ?? new Promise((r) => setTimeout(r, IDLE_POLL_MS));
  }

  emitPeriodicWatermark(): void {
    this.watermarks?.onPeriodicEmit();
  }

  /** End of input: event time ends, every timer and window downstream fires. */
  finish(): void {
    this.emitWatermark(MAX_WATERMARK);
  }

  snapshotState(checkpointId: number): void {
    this.splitsState.update(this.reader.snapshotState(checkpointId));
    this.watermarkState.save(this.lastWatermark, this.watermarks?.splitWatermarks());
  }

  notifyCheckpointComplete(checkpointId: number): void {
    this.reader.notifyCheckpointComplete?.(checkpointId);
  }

  get alignment(): WatermarkAlignmentParams | null {
    return this.strategy?.alignment ?? null;
  }

  alignmentWatermark(): number {
    return this.idle ? MAX_WATERMARK : this.lastWatermark;
  }

  /** Current positions of the reader's splits (at-most-once failover resumes from them). */
  currentSplits(): Split[] {
    return this.reader.snapshotState(-1);
  }

  async close(): Promise<void> {
    await this.reader?.close?.();
  }

  /** The restored watermarks of this reader's splits (of all old readers' splits if the source names none). */
  private restoredSplitWatermarks(splits: readonly Split[]): Map<string, number> {
    const all = this.watermarkState.restoredSplits();
    const splitId = this.source.splitId?.bind(this.source);
    if (!splitId) return all;
    const mine = new Map<string, number>();
    for (const split of splits) {
      const id = splitId(split);
      const wm = all.get(id);
      if (wm !== undefined) mine.set(id, wm);
    }
    return mine;
  }

  private emitWatermark(timestamp: number): void {
    if (timestamp <= this.lastWatermark) return;
    this.setIdle(false);
    this.lastWatermark = timestamp;
    this.out.emitWatermark(timestamp);
  }

  private setIdle(idle: boolean): void {
    if (this.idle === idle) return;
    this.idle = idle;
    this.out.emitWatermarkStatus(idle);
  }
}
