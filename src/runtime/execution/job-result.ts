/**
 * What a finished job hands back to its client (Flink's JobExecutionResult).
 */
import type { CheckpointStats } from "../../checkpoint/coordinator/index.ts";

export class JobExecutionResult {
  constructor(
    readonly jobName: string,
    /** Wall time from start to finish, in ms. */
    readonly netRuntimeMs: number,
    /** Restarts after failures. */
    readonly restarts: number,
    /** Id of the checkpoint the job restored from when it started, if any. */
    readonly restoredFrom: number | null,
    /** Statistics of the checkpoints of the last attempt (null if none ran). */
    readonly checkpoints: CheckpointStats | null,
    private readonly collected: Readonly<Record<string, unknown[]>>,
    /** Path of the savepoint the job stopped with (`stopWithSavepoint`), else null. */
    readonly savepointPath: string | null = null,
  ) {}

  /**
   * Everything a collect sink named `name` received, all subtasks in order.
   *
   * @example
   * ```ts
   * const sums = result.getCollected<[string, number]>("sums");
   * ```
   */
  getCollected<T = unknown>(name: string): T[] {
    const v = this.collected[name];
    if (!v && this.savepointPath)
      throw new Error(`the job stopped with savepoint ${this.savepointPath} before its end: collect sinks report results only when a job finishes`);
    if (!v) throw new Error(`no collect sink named '${name}' reported results (known: ${Object.keys(this.collected).join(", ") || "none"})`);
    return v as T[];
  }
}
