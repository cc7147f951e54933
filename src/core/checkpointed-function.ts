/**
 * Hooks for functions with operator (non-keyed) state and for functions that
 * must know when a checkpoint completed (Flink's `CheckpointedFunction` and
 * `CheckpointListener`).
 */
import type { ListState, ListStateDescriptor } from "../state/index.ts";

/** Operator state of one parallel instance. */
export interface OperatorStateStore {
  /** List state split among subtasks on rescale. */
  getListState<T>(descriptor: ListStateDescriptor<T>): ListState<T>;
  /** List state of which every subtask gets the union of all subtasks' lists on restore. */
  getUnionListState<T>(descriptor: ListStateDescriptor<T>): ListState<T>;
}

/** Given to `initializeState`. */
export interface FunctionInitializationContext {
  /** True when the job restored state from a checkpoint or savepoint. */
  isRestored(): boolean;
  getOperatorStateStore(): OperatorStateStore;
}

/** Given to `snapshotState`. */
export interface FunctionSnapshotContext {
  getCheckpointId(): number;
}

/**
 * A function that keeps operator state.
 *
 * @example
 * ```ts
 * class BufferingSink extends RichFunction implements CheckpointedFunction {
 *   private buffer: string[] = [];
 *   private state!: ListState<string>;
 *   initializeState(ctx: FunctionInitializationContext) {
 *     this.state = ctx.getOperatorStateStore().getListState(new ListStateDescriptor("buffer"));
 *     if (ctx.isRestored()) this.buffer = this.state.get();
 *   }
 *   snapshotState() { this.state.update(this.buffer); }
 * }
 * ```
 */
export interface CheckpointedFunction {
  /** Called before `open`, on every (re)start: register state here and read it when restored. */
  initializeState(context: FunctionInitializationContext): void | Promise<void>;
  /** Called at a checkpoint, before the state is captured: write what must be kept into the state. */
  snapshotState(context: FunctionSnapshotContext): void;
}

/** A function told when checkpoints complete or are aborted. */
export interface CheckpointListener {
  notifyCheckpointComplete?(checkpointId: number): void | Promise<void>;
  notifyCheckpointAborted?(checkpointId: number): void | Promise<void>;
}

/** True if `f` implements CheckpointedFunction. */
export function isCheckpointedFunction(f: unknown): f is CheckpointedFunction {
  return (
    typeof f === "object" &&
    f !== null &&
    typeof (f as CheckpointedFunction).initializeState === "function" &&
    typeof (f as CheckpointedFunction).snapshotState === "function"
  );
}
