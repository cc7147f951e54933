/**
 * Runs a sink's writer in the last operator of a chain. A writer that keeps
 * operator state (`CheckpointedFunction`) or acts on completed checkpoints
 * (`CheckpointListener`) gets those hooks like any user function; its
 * `close()` is the function's close hook.
 */
import type { Sink, SinkWriter } from "../../core/sink.ts";
import type { OperatorContext, Output } from "./stream-operator.ts";
import { UdfOperator } from "./udf-operator.ts";

export class SinkOperator<T> extends UdfOperator<T, never, SinkWriter<T> | undefined> {
  private writer!: SinkWriter<T>;

  constructor(private readonly sink: Sink<T>) {
    super(undefined);
  }

  override async open(ctx: OperatorContext, output: Output<never>): Promise<void> {
    this.writer = this.sink.createWriter({
      subtaskIndex: ctx.subtaskIndex,
      parallelism: ctx.parallelism,
      operatorUid: ctx.operatorUid,
      attempt: ctx.attempt,
      reportResult: (name, values) => ctx.reportResult(name, values),
      clock: ctx.clock,
      log: (line) => void process.stderr.write(`weir: [${ctx.operatorUid} ${ctx.subtaskIndex + 1}/${ctx.parallelism}] ${line}\n`),
    });
    this.fn = this.writer;
    await super.open(ctx, output);
  }

  processElement(value: T): void {
    this.writer.write(value);
  }

  async finish(): Promise<void> {
    await this.writer.finish?.();
  }
}
