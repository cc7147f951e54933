/**
 * Savepoints: self-contained copies of a completed checkpoint in a directory
 * of the user's choice, for stopping and resuming a job — at another
 * parallelism or with a changed job (state is matched by operator uid).
 *
 * ```text
 * <target>/savepoint-<job>-<id>/<safe-uid>-<subtask>.state
 * <target>/savepoint-<job>-<id>/_metadata      written last (temp file, fsync, rename)
 * ```
 */
import { mkdir, readFile, stat } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import { crc32 } from "../../util/crc32.ts";
import { fsyncDir, writeFileAtomic } from "../../util/fs-atomic.ts";
import { METADATA_FILE, stateFileName } from "../storage/checkpoint-paths.ts";
import { CorruptCheckpointError } from "../storage/errors.ts";
import { decodeMetadata, encodeMetadata } from "../storage/metadata-format.ts";
import { checkpointStateProblem, readVerifiedState } from "../storage/state-verification.ts";
import type { CompletedCheckpoint, OperatorSubtaskState } from "../types.ts";

/**
 * Copies `checkpoint` (from any storage) into a new savepoint directory under
 * `targetDirectory`; returns the savepoint's path.
 *
 * @example
 * ```ts
 * const path = await writeSavepoint(completed, "savepoints/");
 * ```
 */
export async function writeSavepoint(checkpoint: CompletedCheckpoint, targetDirectory: string): Promise<string> {
  const safeJob = checkpoint.jobName.replace(/[^A-Za-z0-9_.-]+/g, "_");
  const dir = resolve(targetDirectory, `savepoint-${safeJob}-${checkpoint.checkpointId}`);
  await mkdir(dir, { recursive: true });
  const states: OperatorSubtaskState[] = [];
  for (const s of checkpoint.states) {
    const bytes = await readVerifiedState(checkpoint, s.handle);
    const name = stateFileName(s.operatorUid, s.subtaskIndex);
    await writeFileAtomic(join(dir, name), bytes);
    states.push({ ...s, handle: { kind: "file", path: name, size: bytes.length, crc: crc32(bytes) } });
  }
  const savepoint: CompletedCheckpoint = { ...checkpoint, savepoint: true, states, directory: dir };
  await writeFileAtomic(join(dir, METADATA_FILE), encodeMetadata(savepoint));
  await fsyncDir(dirname(dir));
  return dir;
}

/**
 * Reads and verifies the savepoint (or checkpoint) at `path` — its directory
 * or its `_metadata` file. Throws CorruptCheckpointError naming what is wrong.
 */
export async function readSavepoint(path: string): Promise<CompletedCheckpoint> {
  let dir = resolve(path);
  if (basename(dir) === METADATA_FILE) dir = dirname(dir);
  const metadataPath = join(dir, METADATA_FILE);
  let bytes: Uint8Array;
  try {
    if (!(await stat(dir)).isDirectory()) throw new CorruptCheckpointError(dir, "not a directory");
    bytes = await readFile(metadataPath);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") throw new CorruptCheckpointError(metadataPath, "no savepoint here (missing _metadata)");
    throw e;
  }
  const checkpoint = { ...decodeMetadata(bytes, metadataPath), directory: dir };
  const problem = await checkpointStateProblem(checkpoint);
  if (problem) throw problem;
  return checkpoint;
}
