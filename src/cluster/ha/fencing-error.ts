/**
 * A write of a leader that is no longer the leader: refused locally (it has
 * stepped down) or by etcd (the leader key's create revision is not its epoch).
 */

/**
 * A fenced write was refused: the writer's leadership (epoch `epoch`) is over.
 * Nothing of the write happened.
 *
 * @example
 * ```ts
 * try {
 *   await store.add(handle);
 * } catch (e) {
 *   if (e instanceof FencingError) stopEverything(); // a newer leader owns the job now
 * }
 * ```
 */
export class FencingError extends Error {
  override readonly name = "FencingError";

  constructor(
    /** The component whose leadership it was ("jobmanager"). */
    readonly component: string,
    /** The writer's epoch (the create revision of its leader key). */
    readonly epoch: number,
    /** What the write was, for the message ("add checkpoint 7 of job …"). */
    readonly operation: string,
    /** The epoch of the current leader, null when there is none; undefined when the write was refused locally. */
    readonly currentEpoch?: number | null,
  ) {
    const now =
      currentEpoch === undefined
        ? "this contender has stepped down"
        : currentEpoch === null
          ? "no leader holds the key now"
          : `the leader now has epoch ${currentEpoch}`;
    super(`${operation} refused: the ${component} leadership of epoch ${epoch} is over (${now})`);
  }
}
