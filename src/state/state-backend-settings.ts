/**
 * Which keyed state backend a job uses, and how: serializable settings that
 * travel with the checkpoint settings to every task (and worker thread).
 */

/** The keyed state backends: `"heap"` (JavaScript maps) or `"disk"` (an embedded store on local disk). */
export type StateBackendName = "heap" | "disk";

/** The state backend names, for validation and messages. */
export const STATE_BACKEND_NAMES: readonly StateBackendName[] = ["heap", "disk"];

/** How keyed state is kept and checkpointed. */
export interface StateBackendSettings {
  readonly type: StateBackendName;
  /**
   * Checkpoints write only what changed since the previous one (with a
   * filesystem checkpoint storage; the jobmanager storage always gets full
   * snapshots). Default: true for `"disk"`, false for `"heap"`.
   */
  readonly incremental: boolean;
  /**
   * Disk backend: where the working state lives, one store per operator
   * subtask below it. Default: `<checkpoint directory>.local` with a
   * filesystem checkpoint storage (kept for local recovery), else a
   * temporary directory removed when the job ends.
   */
  readonly localDirectory?: string;
  /** Disk backend: decoded values kept in memory per operator subtask (hot keys). */
  readonly cacheEntries?: number;
}

/**
 * Checks a state backend name from a flag, a SQL `SET` or the API.
 *
 * @example
 * ```ts
 * parseStateBackendName("disk", "--state-backend"); // "disk"
 * ```
 * @throws RangeError naming `where` and the valid names
 */
export function parseStateBackendName(name: string, where: string): StateBackendName {
  const lower = name.trim().toLowerCase();
  // Flink's names for the same two kinds of backend.
  const alias: Record<string, StateBackendName> = { hashmap: "heap", rocksdb: "disk" };
  const found = (STATE_BACKEND_NAMES as readonly string[]).includes(lower) ? (lower as StateBackendName) : alias[lower];
  if (found === undefined) throw new RangeError(`${where}: unknown state backend '${name}'; available: ${STATE_BACKEND_NAMES.join(", ")}`);
  return found;
}
