/**
 * Reads the completed checkpoints of a filesystem checkpoint directory while
 * a job writes it: every `chk-<id>/_metadata` seen, decoded. Retention deletes
 * older checkpoints as newer ones complete, so a bench that wants the metadata
 * of every checkpoint of a run polls with {@link watchCheckpoints} while it runs.
 */
import { readFile, readdir } from "node:fs/promises";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { METADATA_FILE, checkpointDirName, parseCheckpointDirName } from "../src/checkpoint/storage/checkpoint-paths.ts";
import { decodeMetadata } from "../src/checkpoint/storage/metadata-format.ts";
import type { CompletedCheckpoint } from "../src/checkpoint/types.ts";

/**
 * Adds to `known` every completed checkpoint of `dir` it does not hold yet
 * (a missing directory, a checkpoint still being written or one removed by
 * retention meanwhile is skipped: the next call sees it, or it is gone).
 *
 * @example
 * ```ts
 * const known = new Map<number, CompletedCheckpoint>();
 * await readCompletedCheckpoints("/tmp/chk", known);
 * ```
 */
export async function readCompletedCheckpoints(dir: string, known: Map<number, CompletedCheckpoint>): Promise<void> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return; // not created yet
  }
  for (const id of names.map(parseCheckpointDirName)) {
    if (id === null || known.has(id)) continue;
    const path = join(dir, checkpointDirName(id), METADATA_FILE);
    let bytes: Buffer;
    try {
      bytes = await readFile(path);
    } catch {
      continue; // not complete yet, or removed by retention
    }
    try {
      known.set(id, decodeMetadata(bytes, path));
    } catch {
      continue; // caught while being replaced; read again next time
    }
  }
}

/** A running {@link watchCheckpoints}. */
export interface CheckpointWatch {
  /** Stops polling after one last read; resolves with every completed checkpoint seen, by id. */
  stop(): Promise<ReadonlyMap<number, CompletedCheckpoint>>;
}

/**
 * Polls `dir` every `intervalMs` for completed checkpoints until stopped.
 *
 * @example
 * ```ts
 * const watch = watchCheckpoints(dir, 20);
 * await runTheJob(dir);
 * const seen = await watch.stop();
 * ```
 */
export function watchCheckpoints(dir: string, intervalMs: number): CheckpointWatch {
  const known = new Map<number, CompletedCheckpoint>();
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      await readCompletedCheckpoints(dir, known);
      await sleep(intervalMs);
    }
    await readCompletedCheckpoints(dir, known);
  })();
  return {
    async stop() {
      stopped = true;
      await loop;
      return known;
    },
  };
}
