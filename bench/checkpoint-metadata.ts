/**
 * Reads the completed checkpoints of a filesystem checkpoint directory while
 * a job writes it: every `chk-<id>/_metadata` seen, decoded (retention
 * deletes older checkpoints as newer ones complete).
 */
import { readFile, readdir } from "node:fs/promises";
import { join } from "node:path";
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
