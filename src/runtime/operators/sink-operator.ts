/**
 * Runs a sink's writer in the last operator of a chain. A writer that keeps
 * operator state (`CheckpointedFunction`) or acts on completed checkpoints
 * (`CheckpointListener`) gets those hooks like any user function; its
 * `close()` is the function's close hook. The records it writes are its
 * operator metric `numRecordsIn` (counted by the chain), the job's "records out".
 */
import type { Sink, SinkWriter } from "../../core/sink.ts";
import type { OperatorContext, Output } from "./stream-operator.ts";
import { UdfOperator } from "./udf-operator.ts";
import { getLogger } from "../../util/logger.ts";

export class SinkOperator<T> extends UdfOperator<T, never, SinkWriter<T> | undefined> {
  private writer!: SinkWriter<T>;
  private mailbox!: OperatorContext["mailbox"];
  /** The writer's last `blocked()` promise that a wake-up mail waits for. */
  private awaited: Promise<void> | undefined;
  /** The writer's `settleAtEnd()` after the end of input has not settled. */
  private waiting = false;

  constructor(private readonly sink: Sink<T>) {
    super(undefined);
  }

  override async open(ctx: OperatorContext, output: Output<never>): Promise<void> {
    this.writer = this.sink.createWriter({
      jobId: ctx.jobId,
      subtaskIndex: ctx.subtaskIndex,
      parallelism: ctx.parallelism,
      operatorUid: ctx.operatorUid,
      attempt: ctx.attempt,
      reportResult: (name, values) => ctx.reportResult(name, values),
      clock: ctx.clock,
      checkpointIntervalMs: ctx.checkpointIntervalMs,
      logger: getLogger().child({ operator: ctx.operatorUid, subtask: `${ctx.subtaskIndex + 1}/${ctx.parallelism}` }),
    });
    this.fn = this.writer;
    this.mailbox = ctx.mailbox;
    await super.open(ctx, output);
  }

  processElement(value: T): void {
    this.writer.write(value);
  }

  /** False while the writer's destination is full; its end wakes the task with a mail. */
  acceptsInput(): boolean {
    const blocked = this.writer.blocked?.();
    if (!blocked) return true;
    if (blocked !== this.awaited) {
      this.awaited = blocked;
      const wake = () => this.mailbox.put(() => {});
      blocked.then(wake, wake);
    }
    return false;
  }

  /** The sink is last in its chain: a watermark goes to the writer only. */
  processWatermark(timestamp: number): void {
    this.writer.writeWatermark?.(timestamp);
  }

  prepareSnapshotPreBarrier(): void | Promise<void> {
    return this.writer.flush?.();
  }

  async finish(): Promise<void> {
    await this.writer.finish?.();
    const pending = this.writer.settleAtEnd?.();
    if (pending === undefined) return;
    this.waiting = true;
    const settled = () => {
      this.waiting = false;
      this.mailbox.put(() => {}); // wakes the task's mail loop
    };
    pending.then(settled, settled);
  }

  /** True after the end of input while the writer waits for what mails bring (`SinkWriter.settleAtEnd`). */
  hasPendingWork(): boolean {
    return this.waiting;
  }
}
