/**
 * The temporary checkpoint directory of one bench run: created when the run
 * checkpoints, removed when it ends (whatever the outcome), together with the
 * disk state backend's working directory next to it (`<dir>.local`).
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * Runs `run` with a fresh temporary directory when `checkpointIntervalMs` > 0
 * (undefined otherwise), and removes the directory and `<dir>.local` afterwards.
 *
 * @example
 * ```ts
 * const m = await withCheckpointDir(1_000, async (dir) => runJobWithStorage(dir));
 * ```
 */
export async function withCheckpointDir<T>(checkpointIntervalMs: number, run: (dir: string | undefined) => Promise<T>): Promise<T> {
  const dir = checkpointIntervalMs > 0 ? await mkdtemp(join(tmpdir(), "weir-bench-")) : undefined;
  try {
    return await run(dir);
  } finally {
    // Retries: the write of a checkpoint aborted by the end of the job may still be finishing.
    if (dir) for (const d of [dir, `${dir}.local`]) await rm(d, { recursive: true, force: true, maxRetries: 20, retryDelay: 50 });
  }
}
