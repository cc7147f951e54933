/**
 * The sink of `DataStream.executeAndCollect()`: sends the records it receives
 * to the client that started the job, through a `BroadcastChannel` named after
 * the run's job id (so it works from any worker thread of the process).
 *
 * With checkpointing, the records between two barriers are one epoch, kept in
 * operator state and sent when their checkpoint completes, as Flink's collect
 * sink does: an epoch a failure rolls back is never sent (the sources replay
 * its records), an epoch of a completed checkpoint is sent exactly once (the
 * client drops an epoch it already has, e.g. sent again after a restore
 * because the failure came between the completion and the notification).
 * Without checkpointing, records are sent as they come, tagged with the
 * attempt, and a client that already returned records of an attempt that then
 * failed refuses to go on (it cannot tell which ones the next attempt repeats).
 */
import { BroadcastChannel } from "node:worker_threads";
import type { CheckpointListener, CheckpointedFunction, FunctionInitializationContext, FunctionSnapshotContext } from "../../core/checkpointed-function.ts";
import type { Sink, SinkContext, SinkWriter } from "../../core/sink.ts";
import { ListStateDescriptor, type ListState } from "../../state/index.ts";

/** A message from the sink to the client. */
export type ClientResultMessage =
  /** Records: the epoch of checkpoint `checkpointId`, or (null) records sent as they came. */
  | { readonly kind: "records"; readonly attempt: number; readonly checkpointId: number | null; readonly values: unknown[] }
  /** Every record was sent: the job finished. */
  | { readonly kind: "end"; readonly attempt: number };

/** The channel of the results of run `jobId`. */
export function clientResultChannel(jobId: string): string {
  return `weir:execute-and-collect:${jobId}`;
}

/** Records sent at once when sending as they come. */
const SEND_BATCH = 256;

/** The records of one checkpoint's epoch, waiting for it to complete. */
interface Epoch<T> {
  readonly checkpointId: number;
  readonly values: T[];
}

/**
 * The sink that sends results to the client of the run (parallelism 1).
 *
 * @param epochs send records per completed checkpoint (the job checkpoints) or as they come
 */
export function clientResultSink<T>(epochs: boolean): Sink<T> {
  return { createWriter: (ctx) => (epochs ? new EpochWriter<T>(ctx) : new ImmediateWriter<T>(ctx)) };
}

/** Sends each epoch when its checkpoint completes. */
class EpochWriter<T> implements SinkWriter<T>, CheckpointedFunction, CheckpointListener {
  private readonly channel: BroadcastChannel;
  private state!: ListState<Epoch<T>>;
  private current: T[] = [];
  private pending: Epoch<T>[] = [];
  private finished = false;

  constructor(private readonly ctx: SinkContext) {
    this.channel = new BroadcastChannel(clientResultChannel(ctx.jobId));
  }

  /** A restored epoch's checkpoint completed: send it (again: the client drops what it has). */
  initializeState(context: FunctionInitializationContext): void {
    this.state = context.getOperatorStateStore().getListState(new ListStateDescriptor<Epoch<T>>("execute-and-collect-epochs"));
    if (context.isRestored()) for (const epoch of this.state.get()) this.send(epoch);
    this.state.clear();
  }

  write(value: T): void {
    this.current.push(value);
  }

  snapshotState(context: FunctionSnapshotContext): void {
    if (this.current.length > 0) this.pending.push({ checkpointId: context.getCheckpointId(), values: this.current });
    this.current = [];
    this.state.update(this.pending);
  }

  notifyCheckpointComplete(checkpointId: number): void {
    while (this.pending.length > 0 && this.pending[0]!.checkpointId <= checkpointId) this.send(this.pending.shift()!);
  }

  finish(): void {
    this.finished = true;
  }

  /** After the final checkpoint sent the last epoch: the end. */
  close(): void {
    if (this.finished && this.pending.length === 0 && this.current.length === 0) this.channel.postMessage(endMessage(this.ctx));
    this.channel.close();
  }

  private send(epoch: Epoch<T>): void {
    const message: ClientResultMessage = { kind: "records", attempt: this.ctx.attempt, checkpointId: epoch.checkpointId, values: epoch.values };
    this.channel.postMessage(message);
  }
}

/** Sends records as they come, in batches. */
class ImmediateWriter<T> implements SinkWriter<T> {
  private readonly channel: BroadcastChannel;
  private batch: T[] = [];
  private scheduled: NodeJS.Immediate | undefined;
  private finished = false;

  constructor(private readonly ctx: SinkContext) {
    this.channel = new BroadcastChannel(clientResultChannel(ctx.jobId));
  }

  write(value: T): void {
    this.batch.push(value);
    if (this.batch.length >= SEND_BATCH) this.send();
    else this.scheduled ??= setImmediate(() => this.send());
  }

  finish(): void {
    this.send();
    this.finished = true;
  }

  close(): void {
    if (this.finished) this.channel.postMessage(endMessage(this.ctx));
    if (this.scheduled) clearImmediate(this.scheduled);
    this.channel.close();
  }

  private send(): void {
    if (this.scheduled) clearImmediate(this.scheduled);
    this.scheduled = undefined;
    if (this.batch.length === 0) return;
    const message: ClientResultMessage = { kind: "records", attempt: this.ctx.attempt, checkpointId: null, values: this.batch };
    this.batch = [];
    this.channel.postMessage(message);
  }
}

function endMessage(ctx: SinkContext): ClientResultMessage {
  return { kind: "end", attempt: ctx.attempt };
}
