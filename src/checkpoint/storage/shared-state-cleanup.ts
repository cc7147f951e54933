/**
 * Which shared (incremental) state files to delete after a checkpoint
 * completed: mark and sweep from the retained checkpoints' metadata, with no
 * persisted reference counts. A pure decision, no I/O: the filesystem storage
 * lists `shared/`, reads the retained metadata, and deletes what this returns.
 */

/** A file found in the `shared/` folder. */
export interface SharedFileEntry {
  /** File name (a shared state file, or the temporary file of one being written). */
  readonly name: string;
  /** The checkpoint that wrote it (from its name). */
  readonly checkpointId: number;
}

/**
 * Names of the shared files to delete: those no retained completed
 * checkpoint references (`referenced`) AND written by a checkpoint older than
 * the newest completed one (`newestCompleted`). Files of checkpoints at or
 * above it may belong to checkpoints still in flight, and their chains may
 * include deltas of aborted checkpoints with lower ids — but any such delta
 * below `newestCompleted` is in the newest completed checkpoint's chain too
 * (a subtask's chain only grows or restarts from a new base), so it is
 * referenced and kept.
 *
 * @example
 * ```ts
 * sharedFilesToDelete(
 *   [{ name: "a-0-1-….state", checkpointId: 1 }, { name: "a-0-2-….state", checkpointId: 2 }, { name: "a-0-4-….state", checkpointId: 4 }],
 *   new Set(["a-0-2-….state"]),
 *   3,
 * ); // ["a-0-1-….state"]: 2 is referenced, 4 may be in flight
 * ```
 */
export function sharedFilesToDelete(files: readonly SharedFileEntry[], referenced: ReadonlySet<string>, newestCompleted: number): string[] {
  return files
    .filter((f) => f.checkpointId < newestCompleted && !referenced.has(f.name))
    .map((f) => f.name)
    .sort();
}
