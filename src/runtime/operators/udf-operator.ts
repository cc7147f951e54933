/**
 * Base of operators that wrap a user function: gives it its runtime context,
 * calls `initializeState`/`open`/`close`, and forwards the checkpoint hooks.
 */
import { isCheckpointedFunction, type CheckpointListener } from "../../core/checkpointed-function.ts";
import { isRichFunction } from "../../core/rich-function.ts";
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
    if (isRichFunction(f)) f.setRuntimeContext(runtimeContextOf(context));
    if (isCheckpointedFunction(f)) {
      await f.initializeState({
        isRestored: () => context.isRestored,
        getOperatorStateStore: () => context.operatorState,
      });
    }
    if (isRichFunction(f)) await f.open?.();
  }

  abstract processElement(value: IN): void;

  async close(): Promise<void> {
    const f = this.fn as unknown;
    if (isRichFunction(f)) await f.close?.();
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

/** The RuntimeContext view of an operator context. */
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
    getState: (d) => keyed().getState(d),
    getListState: (d) => keyed().getListState(d),
    getMapState: (d) => keyed().getMapState(d),
    getReducingState: (d) => keyed().getReducingState(d),
    getAggregatingState: (d) => keyed().getAggregatingState(d),
  };
}
