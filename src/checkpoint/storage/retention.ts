/**
 * Which checkpoints to delete after a checkpoint completed. A pure decision,
 * no I/O: the storages list what exists and delete what this returns.
 */

/** A checkpoint found in storage. */
export interface StoredCheckpointEntry {
  readonly id: number;
  /** True if the checkpoint completed (has metadata), false for a partial or aborted one. */
  readonly complete: boolean;
}

/**
 * Ids to delete so that only the newest `retained` completed checkpoints
 * remain, plus partial checkpoints newer than the newest completed one (they
 * may still be in flight). Partial checkpoints older than it are leftovers of
 * aborted or crashed attempts and are deleted.
 *
 * @example
 * ```ts
 * checkpointsToDelete([{ id: 1, complete: true }, { id: 2, complete: false },
 *   { id: 3, complete: true }, { id: 4, complete: false }], 1); // [1, 2]
 * ```
 */
export function checkpointsToDelete(entries: readonly StoredCheckpointEntry[], retained: number): number[] {
  const completed = entries.filter((e) => e.complete).map((e) => e.id).sort((a, b) => b - a);
  if (completed.length === 0) return [];
  const kept = new Set(completed.slice(0, Math.max(1, retained)));
  const newest = completed[0]!;
  return entries
    .filter((e) => (e.complete ? !kept.has(e.id) : e.id < newest))
    .map((e) => e.id)
    .sort((a, b) => a - b);
}
