/**
 * Base of operators that wrap a user function: gives it its runtime context,
 * calls `initializeState`/`open(context)`/`close`, and forwards the checkpoint
 * hooks. The function is a class instance or an object literal (each parallel
 * instance has its own copy), or a plain function (no hooks).
 */
import { isCheckpointedFunction, type CheckpointListener } from "../../core/checkpointed-function.ts";
import { closeFunction, openFunction, provideRuntimeContext } from "../../core/function-object.ts";
import type { RuntimeContext } from "../../core/runtime-context.ts";
import type { OperatorContext, Output, StreamOperator } from "./stream-operator.ts";

/** Lifecycle plumbing shared by every function-wrapping operator. */
export abstract class UdfOperator<IN, OUT, F = unknown> implements StreamOperator<IN, OUT> {
  protected ctx!: OperatorContext;
  protected out!: Output<OUT>;

  constructor(protected fn: F) {}

  async open(context: OperatorContext, output: Output<OUT>): Promise<void> {
    this.ctx = context;
    this.out = output;
    const f = this.fn as unknown;
    const runtimeContext = runtimeContextOf(context);
    provideRuntimeContext(f, runtimeContext);
    if (isCheckpointedFunction(f)) {
      await f.initializeState({
        isRestored: () => context.isRestored,
        getOperatorStateStore: () => context.operatorState,
      });
    }
    await openFunction(f, runtimeContext);
  }

  abstract processElement(value: IN): void;

  async close(): Promise<void> {
    await closeFunction(this.fn);
  }

  snapshotState(checkpointId: number): void {
    const f = this.fn as unknown;
    if (isCheckpointedFunction(f)) f.snapshotState({ getCheckpointId: () => checkpointId });
  }

  async notifyCheckpointComplete(checkpointId: number): Promise<void> {
    await (this.fn as CheckpointListener).notifyCheckpointComplete?.(checkpointId);
  }

  async notifyCheckpointAborted(checkpointId: number): Promise<void> {
    await (this.fn as CheckpointListener).notifyCheckpointAborted?.(checkpointId);
  }
}

/**
 * The RuntimeContext view of an operator context; it also carries the
 * internal `getEngineState` that `engineKeyedState` (core/runtime-context.ts) reads.
 */
export function runtimeContextOf(c: OperatorContext): RuntimeContext {
  const keyed = () => {
    if (!c.keyedState)
      throw new Error(`keyed state is only available on a keyed stream (operator '${c.operatorUid}'): call keyBy() first`);
    return c.keyedState;
  };
  return {
    getTaskName: () => c.operatorName,
    getOperatorUid: () => c.operatorUid,
    getIndexOfThisSubtask: () => c.subtaskIndex,
    getNumberOfParallelSubtasks: () => c.parallelism,
    getMaxNumberOfParallelSubtasks: () => c.maxParallelism,
    getAttemptNumber: () => c.attempt,
    getMetricGroup: () => c.metricGroup,
    getState: (d) => keyed().getState(d),
    getListState: (d) => keyed().getListState(d),
    getMapState: (d) => keyed().getMapState(d),
    getReducingState: (d) => keyed().getReducingState(d),
    getAggregatingState: (d) => keyed().getAggregatingState(d),
    getEngineState: <V>(name: string) => keyed().getEngineState<V>(name),
  } as RuntimeContext;
}
