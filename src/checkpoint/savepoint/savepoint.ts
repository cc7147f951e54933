/**
 * Savepoints: self-contained copies of a completed checkpoint in a directory
 * of the user's choice, for stopping and resuming a job — at another
 * parallelism or with a changed job (state is matched by operator uid).
 *
 * ```text
 * <target>/savepoint-<job>-<id>/<safe-uid>-<subtask>.state
 * <target>/savepoint-<job>-<id>/shared/<name>  copies of the incremental chain files the states reference
 * <target>/savepoint-<job>-<id>/_metadata      written last (temp file, fsync, rename)
 * ```
 *
 * A savepoint never references files outside its directory: the shared
 * files of an incremental checkpoint are copied in and their refs rewritten
 * to `shared/<name>`, so it survives deleting the checkpoint directory.
 */
import { copyFile, mkdir, open, readFile, rename, rm, stat } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import { crc32 } from "../../util/crc32.ts";
import { fsyncDir, writeFileAtomic } from "../../util/fs-atomic.ts";
import { METADATA_FILE, SHARED_DIR, savepointSharedPath, stateFileName } from "../storage/checkpoint-paths.ts";
import { CorruptCheckpointError, SavepointNotFoundError } from "../storage/errors.ts";
import { decodeMetadata, encodeMetadata } from "../storage/metadata-format.ts";
import { checkpointStateProblem, fileProblem, readVerifiedState, sharedStatePath } from "../storage/state-verification.ts";
import type { CompletedCheckpoint, OperatorSubtaskState, SharedStateRef } from "../types.ts";

/**
 * Copies `checkpoint` (from any storage) into a new savepoint directory under
 * `targetDirectory`, shared state files included (each copy verified against
 * its ref's size and CRC); returns the savepoint's path.
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
  const copied = new Map<string, string>(); // name in shared/ → source path
  for (const s of checkpoint.states) {
    const bytes = await readVerifiedState(checkpoint, s.handle);
    const name = stateFileName(s.operatorUid, s.subtaskIndex);
    await writeFileAtomic(join(dir, name), bytes);
    const state: OperatorSubtaskState = { ...s, handle: { kind: "file", path: name, size: bytes.length, crc: crc32(bytes) } };
    if (s.shared === undefined) {
      states.push(state);
      continue;
    }
    const shared: SharedStateRef[] = [];
    for (const ref of s.shared) shared.push(await copySharedFile(checkpoint, ref, dir, copied));
    states.push({ ...state, shared });
  }
  if (copied.size > 0) await fsyncDir(join(dir, SHARED_DIR));
  const savepoint: CompletedCheckpoint = { ...checkpoint, savepoint: true, states, directory: dir };
  await writeFileAtomic(join(dir, METADATA_FILE), encodeMetadata(savepoint));
  await fsyncDir(dirname(dir));
  return dir;
}

/**
 * Copies the shared file of `ref` into `<dir>/shared/` (once per file: chains
 * of several states may share it) and returns the ref rewritten to the copy.
 * The copy is fsynced and checked against the ref's size and CRC before it
 * is renamed into place, so a savepoint never holds a bad copy of good state.
 */
async function copySharedFile(checkpoint: CompletedCheckpoint, ref: SharedStateRef, dir: string, copied: Map<string, string>): Promise<SharedStateRef> {
  const located = sharedStatePath(checkpoint, ref);
  if ("problem" in located) throw new CorruptCheckpointError(located.where, located.problem);
  const name = basename(located.path);
  const rewritten: SharedStateRef = { ...ref, path: savepointSharedPath(name) };
  const earlier = copied.get(name);
  if (earlier === located.path) return rewritten;
  if (earlier !== undefined) {
    throw new CorruptCheckpointError(located.path, `two shared state files named ${name} (also ${earlier}) cannot both be copied into a savepoint`);
  }
  await mkdir(join(dir, SHARED_DIR), { recursive: true });
  const target = join(dir, SHARED_DIR, name);
  const tmp = `${target}.tmp`;
  try {
    await copyFile(located.path, tmp);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") throw new CorruptCheckpointError(located.path, "shared state file is missing");
    throw error;
  }
  try {
    const file = await open(tmp, "r+");
    try {
      await file.sync();
    } finally {
      await file.close();
    }
    const problem = await fileProblem(tmp, ref);
    if (problem) throw new CorruptCheckpointError(located.path, problem === "file is missing" ? "shared state file is missing" : problem);
    await rename(tmp, target);
  } catch (error) {
    await rm(tmp, { force: true });
    throw error;
  }
  copied.set(name, located.path);
  return rewritten;
}

/**
 * Reads and verifies the savepoint (or checkpoint) at `path` — its directory
 * or its `_metadata` file. Throws SavepointNotFoundError when there is none
 * (no such directory, a file, no `_metadata`), CorruptCheckpointError naming
 * what is wrong with a damaged one.
 */
export async function readSavepoint(path: string): Promise<CompletedCheckpoint> {
  let dir = resolve(path);
  if (basename(dir) === METADATA_FILE) dir = dirname(dir);
  const metadataPath = join(dir, METADATA_FILE);
  const info = await stat(dir).catch((e: NodeJS.ErrnoException) => {
    throw e.code === "ENOENT" ? new SavepointNotFoundError(dir, "does not exist") : e;
  });
  if (!info.isDirectory()) throw new SavepointNotFoundError(dir, "is a file, not a savepoint directory");
  const bytes = await readFile(metadataPath).catch((e: NodeJS.ErrnoException) => {
    throw e.code === "ENOENT" ? new SavepointNotFoundError(dir, `is not a savepoint: it has no ${METADATA_FILE}`) : e;
  });
  const checkpoint = { ...decodeMetadata(bytes, metadataPath), directory: dir };
  const problem = await checkpointStateProblem(checkpoint);
  if (problem) throw problem;
  return checkpoint;
}
