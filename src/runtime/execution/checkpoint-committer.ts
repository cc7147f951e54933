/**
 * Under high availability, the completion of a checkpoint — its commit in the
 * store — and the deletion of checkpoint data the store no longer references
 * (docs/high-availability.md, "Cleaning up checkpoints").
 * The checkpoint storage's own retention is off there — it decides "latest"
 * by the newest `_metadata` on disk, which may be a checkpoint whose commit
 * failed — so after each SUCCESSFUL commit of checkpoint N the job master
 * deletes, off the checkpoint's critical path and one cleanup at a time,
 * every `chk-<id>` directory below N that the store does not hold (subsumed
 * ones, and orphans: written but never committed, e.g. a fenced commit),
 * then the shared files no remaining checkpoint references
 * (`CheckpointStorage.retainOnly`). A commit that failed deletes nothing.
 *
 * Safe against a concurrent new leader (a deposed one that does not know it
 * yet, or was paused): (1) a new leader's ids are above every id this one
 * reserved — each id is reserved in the counter before it is used — so no
 * directory of a new leader is below N; (2) a new leader restores only what
 * the store holds, and the store only ever adds ids above N, so what it holds
 * below N now is all it will ever hold below N: `keep`, read after the commit,
 * covers it; (3) the sweep deletes only shared files written below N that no
 * checkpoint on disk references, and anything a newer checkpoint uses from
 * below N is in N's chain (a chain only grows or restarts from a new base) —
 * and the sweep gives up when N's metadata is gone by the time it reads it
 * (a newer leader subsumed N and cleans up itself). A leader that knows its
 * leadership is over does not clean up at all.
 */
import type { CheckpointStorage } from "../../checkpoint/storage/index.ts";
import type { CompletedCheckpoint } from "../../checkpoint/types.ts";
import type { JobHa } from "./job-ha.ts";

/**
 * @example
 * ```ts
 * const committer = new CheckpointCommitter(jobHa, storage, (w) => logger.warn(w));
 * const stored = await storage.addCompleted(checkpoint); // its metadata
 * await committer.commit(stored);                        // complete; the cleanup below it runs in the background
 * await committer.settled();                             // before the job ends
 * ```
 */
export class CheckpointCommitter {
  private queue: Promise<void> = Promise.resolve();
  /** The newest committed id not cleaned up below yet: cleanups asked for while one runs are done as one. */
  private wanted: number | undefined;

  constructor(
    private readonly ha: Pick<JobHa, "commit" | "committedIds">,
    private readonly storage: Pick<CheckpointStorage, "retainOnly">,
    private readonly log: (warning: string) => void,
  ) {}

  /**
   * Commits `checkpoint` (its metadata is in storage, its id was reserved): complete once this resolves, failed
   * when it rejects (then nothing is deleted). Once committed, what the store does not hold below it is deleted in
   * the background, after the cleanups before.
   */
  async commit(checkpoint: CompletedCheckpoint): Promise<void> {
    await this.ha.commit(checkpoint);
    this.wanted = Math.max(this.wanted ?? 0, checkpoint.checkpointId);
    this.queue = this.queue.then(() => this.cleanUp());
  }

  /** Resolves once every cleanup asked for has ended (never rejects: a failed one is logged, the next one retries). */
  async settled(): Promise<void> {
    for (let q = this.queue; ; q = this.queue) {
      await q;
      if (q === this.queue) return;
    }
  }

  private async cleanUp(): Promise<void> {
    const committed = this.wanted;
    if (committed === undefined) return;
    this.wanted = undefined;
    try {
      await this.storage.retainOnly(await this.ha.committedIds(), committed);
    } catch (error) {
      this.log(`checkpoints below ${committed} were not cleaned up: ${(error as Error).message}`);
    }
  }
}
