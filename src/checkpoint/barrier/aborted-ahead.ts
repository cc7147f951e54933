/**
 * Checkpoints aborted before a task saw their first barrier or cancel marker
 * (Flink's "aborted checkpoint ids" of a subtask): when their barriers arrive
 * later they must be ignored, not start an alignment or a snapshot.
 *
 * Ids arrive in ascending order at a task, so once the task reached an id every
 * remembered id up to it is forgotten: the set stays as small as the number of
 * checkpoints in flight.
 *
 * @example
 * ```ts
 * const aborted = new AbortedAhead();
 * aborted.add(5);      // the coordinator aborted 5 before its barrier came
 * aborted.reach(4);    // false: 4 was not aborted
 * aborted.reach(5);    // true: ignore barrier 5
 * ```
 */
export class AbortedAhead {
  private readonly ids = new Set<number>();
  private reached = -1;

  /** Checkpoint `id` was aborted; ignored if the task already reached it (then it is aligning, done or stale). */
  add(id: number): void {
    if (id > this.reached) this.ids.add(id);
  }

  /** The task reached checkpoint `id` (its first barrier, marker or trigger): true if it was aborted before. Forgets every id up to `id`. */
  reach(id: number): boolean {
    const aborted = this.ids.has(id);
    if (id > this.reached) {
      this.reached = id;
      for (const known of this.ids) if (known <= id) this.ids.delete(known);
    }
    return aborted;
  }
}
