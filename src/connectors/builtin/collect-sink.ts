/**
 * A sink for tests and small results: collects every record in checkpointed
 * operator state, so its final contents are exactly-once inside the engine
 * (restored with the checkpoint, replay adds the rest), as Flink's own test
 * sinks do. When the job finishes the contents reach the client:
 * `result.getCollected(name)`.
 */
import type { CheckpointedFunction, FunctionInitializationContext } from "../../core/checkpointed-function.ts";
import type { Sink, SinkContext, SinkWriter } from "../../core/sink.ts";
import { ListStateDescriptor, type ListState } from "../../state/index.ts";

/**
 * Creates a collecting sink named `name`.
 *
 * @example
 * ```ts
 * stream.sinkTo(collectSink("sums"));
 * const result = await env.execute("job");
 * console.log(result.getCollected("sums"));
 * ```
 */
export function collectSink<T>(name: string): Sink<T> {
  return { createWriter: (ctx) => new CollectWriter<T>(name, ctx) };
}

class CollectWriter<T> implements SinkWriter<T>, CheckpointedFunction {
  private state!: ListState<T>;

  constructor(private readonly name: string, private readonly ctx: SinkContext) {}

  initializeState(context: FunctionInitializationContext): void {
    this.state = context.getOperatorStateStore().getListState(new ListStateDescriptor<T>(`collected:${this.name}`));
  }

  snapshotState(): void {}

  write(value: T): void {
    this.state.add(value);
  }

  finish(): void {
    this.ctx.reportResult(this.name, this.state.get());
  }
}
