/**
 * Which keyed state backend a job uses, and how: serializable settings that
 * travel with the checkpoint settings to every task (and worker thread).
 */

import { didYouMean } from "../util/did-you-mean.ts";

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
  const found = (STATE_BACKEND_NAMES as readonly string[]).includes(lower) ? (lower as StateBackendName) : FLINK_NAMES[lower];
  if (found === undefined) {
    const near = didYouMean(lower, [...STATE_BACKEND_NAMES, ...Object.keys(FLINK_NAMES)]);
    throw new RangeError(
      `${where}: unknown state backend '${name}'${near ? ` (did you mean '${near}'?)` : ""}; ` +
        `available: ${STATE_BACKEND_NAMES.join(", ")} (or Flink's names ${Object.keys(FLINK_NAMES).join(", ")})`,
    );
  }
  return found;
}

/** Flink's names of the same two kinds of backend: `hashmap` is `heap`, `rocksdb` is `disk`. */
export type FlinkStateBackendName = "hashmap" | "rocksdb";

const FLINK_NAMES: Readonly<Record<string, StateBackendName>> = { hashmap: "heap", rocksdb: "disk" } satisfies Record<FlinkStateBackendName, StateBackendName>;

/**
 * The one-line note to log when a user names the state backend `name`, or
 * undefined: Flink's `rocksdb` runs Weir's disk backend, which is not RocksDB.
 *
 * @example
 * ```ts
 * stateBackendNote("rocksdb"); // "state backend 'rocksdb' (Flink's name): Weir runs its disk backend, …"
 * stateBackendNote("disk");    // undefined
 * ```
 */
export function stateBackendNote(name: string): string | undefined {
  if (name.trim().toLowerCase() !== "rocksdb") return undefined;
  return "state backend 'rocksdb' (Flink's name): Weir runs its disk backend, which keeps state on local disk in lmdb, not RocksDB; checkpoints are incremental as with RocksDB";
}
