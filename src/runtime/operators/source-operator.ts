/**
 * Drives a source reader in a source task. The reader's splits, with their
 * positions, are the operator's list state: captured at every checkpoint
 * (before the barrier leaves the source) and handed back to a new reader on
 * restore, so reading resumes exactly at the checkpointed positions.
 */
import type { PollStatus, ReaderOutput, Source, SourceReader } from "../../core/source.ts";
import { ListStateDescriptor, type ListState } from "../../state/index.ts";
import type { OperatorContext, Output, SourceOperatorLike } from "./stream-operator.ts";

const IDLE_POLL_MS = 10;

export class SourceOperator<T, Split> implements SourceOperatorLike<T> {
  private reader!: SourceReader<T, Split>;
  private splitsState!: ListState<Split>;
  private output!: ReaderOutput<T>;
  /** Records emitted so far. */
  emitted = 0;

  constructor(private readonly source: Source<T, Split>) {}

  async open(ctx: OperatorContext, out: Output<T>): Promise<void> {
    this.output = {
      collect: (v) => {
        this.emitted++;
        out.collect(v);
      },
      collectSide: (tag, v) => out.collectSide(tag.id, v),
    };
    this.splitsState = ctx.operatorState.getListState(new ListStateDescriptor<Split>("splits"));
    const splits = ctx.sourceOverride
      ? (ctx.sourceOverride as Split[])
      : ctx.isRestored
      ? this.splitsState.get()
      : this.source.createSplits(ctx.parallelism).filter((_, i) => i % ctx.parallelism === ctx.subtaskIndex);
    this.reader = this.source.createReader({
      subtaskIndex: ctx.subtaskIndex,
      parallelism: ctx.parallelism,
      operatorUid: ctx.operatorUid,
    });
    this.reader.addSplits(splits);
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

  snapshotState(checkpointId: number): void {
    this.splitsState.update(this.reader.snapshotState(checkpointId));
  }

  notifyCheckpointComplete(checkpointId: number): void {
    this.reader.notifyCheckpointComplete?.(checkpointId);
  }

  /** Current positions of the reader's splits (at-most-once failover resumes from them). */
  currentSplits(): Split[] {
    return this.reader.snapshotState(-1);
  }

  async close(): Promise<void> {
    await this.reader?.close?.();
  }
}
