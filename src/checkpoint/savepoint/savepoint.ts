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
import { crc32 } from "../../util/crc32.ts";
import { baseNameOf, joinLocation, parentLocation, resolveLocation } from "../storage/checkpoint-location.ts";
import { METADATA_FILE, SHARED_DIR, savepointSharedPath, stateFileName } from "../storage/checkpoint-paths.ts";
import { CorruptCheckpointError, SavepointNotFoundError } from "../storage/errors.ts";
import { fileSystemsFor } from "../storage/file-systems.ts";
import { decodeMetadata, encodeMetadata } from "../storage/metadata-format.ts";
import { checkpointStateProblem, readVerifiedSharedState, readVerifiedState, sharedStatePath } from "../storage/state-verification.ts";
import type { FileSystems, StorageFileSystem } from "../storage/storage-file-system.ts";
import type { CompletedCheckpoint, OperatorSubtaskState, SharedStateRef } from "../types.ts";

/**
 * Copies `checkpoint` (from any storage) into a new savepoint directory under
 * `targetDirectory` (a local path or an `s3://` URI), shared state files
 * included (each copy verified against its ref's size and CRC); returns the
 * savepoint's path. `fileSystems` reaches both (the job's `s3.*` settings).
 *
 * @example
 * ```ts
 * const path = await writeSavepoint(completed, "savepoints/");
 * ```
 */
export async function writeSavepoint(checkpoint: CompletedCheckpoint, targetDirectory: string, fileSystems: FileSystems = fileSystemsFor()): Promise<string> {
  const safeJob = checkpoint.jobName.replace(/[^A-Za-z0-9_.-]+/g, "_");
  const dir = joinLocation(resolveLocation(targetDirectory), `savepoint-${safeJob}-${checkpoint.checkpointId}`);
  const fs = fileSystems(dir);
  await fs.makeDirectories(dir);
  const states: OperatorSubtaskState[] = [];
  const copied = new Map<string, string>(); // name in shared/ → source path
  for (const s of checkpoint.states) {
    const bytes = await readVerifiedState(checkpoint, s.handle, fileSystems);
    const name = stateFileName(s.operatorUid, s.subtaskIndex);
    await fs.write(joinLocation(dir, name), bytes, "atomic");
    const state: OperatorSubtaskState = { ...s, handle: { kind: "file", path: name, size: bytes.length, crc: crc32(bytes) } };
    if (s.shared === undefined) {
      states.push(state);
      continue;
    }
    const shared: SharedStateRef[] = [];
    for (const ref of s.shared) shared.push(await copySharedFile(checkpoint, ref, dir, copied, fileSystems, fs));
    states.push({ ...state, shared });
  }
  const savepoint: CompletedCheckpoint = { ...checkpoint, savepoint: true, states, directory: dir };
  await fs.write(joinLocation(dir, METADATA_FILE), encodeMetadata(savepoint), "atomic");
  await fs.syncDirectory(parentLocation(dir));
  return dir;
}

/**
 * Copies the shared file of `ref` into `<dir>/shared/` (once per file: chains
 * of several states may share it) and returns the ref rewritten to the copy.
 * The source is checked against the ref's size and CRC before the copy is
 * written (atomically, durably), so a savepoint never holds a bad copy of good state.
 */
async function copySharedFile(
  checkpoint: CompletedCheckpoint,
  ref: SharedStateRef,
  dir: string,
  copied: Map<string, string>,
  fileSystems: FileSystems,
  fs: StorageFileSystem,
): Promise<SharedStateRef> {
  const located = sharedStatePath(checkpoint, ref);
  if ("problem" in located) throw new CorruptCheckpointError(located.where, located.problem);
  const name = baseNameOf(located.path);
  const rewritten: SharedStateRef = { ...ref, path: savepointSharedPath(name) };
  const earlier = copied.get(name);
  if (earlier === located.path) return rewritten;
  if (earlier !== undefined) {
    throw new CorruptCheckpointError(located.path, `two shared state files named ${name} (also ${earlier}) cannot both be copied into a savepoint`);
  }
  const bytes = await readVerifiedSharedState(checkpoint, ref, fileSystems);
  const sharedDir = joinLocation(dir, SHARED_DIR);
  if (await fs.makeDirectories(sharedDir)) await fs.syncDirectory(dir);
  await fs.write(joinLocation(sharedDir, name), bytes, "atomic");
  copied.set(name, located.path);
  return rewritten;
}

/**
 * Reads and verifies the savepoint (or checkpoint) at `path` — its directory
 * or its `_metadata` file, local or `s3://`. Throws SavepointNotFoundError
 * when there is none (nothing there, a file, no `_metadata`),
 * CorruptCheckpointError naming what is wrong with a damaged one.
 */
export async function readSavepoint(path: string, fileSystems: FileSystems = fileSystemsFor()): Promise<CompletedCheckpoint> {
  let dir = resolveLocation(path);
  if (baseNameOf(dir) === METADATA_FILE) dir = parentLocation(dir);
  const fs = fileSystems(dir);
  const metadataPath = joinLocation(dir, METADATA_FILE);
  const bytes = await fs.read(metadataPath);
  if (bytes === null) {
    if ((await fs.size(dir)) !== null) throw new SavepointNotFoundError(dir, "is a file, not a savepoint directory");
    const { directories, files } = await fs.list(dir);
    throw new SavepointNotFoundError(dir, directories.length + files.length === 0 ? "does not exist" : `is not a savepoint: it has no ${METADATA_FILE}`);
  }
  const checkpoint = { ...decodeMetadata(bytes, metadataPath), directory: dir };
  const problem = await checkpointStateProblem(checkpoint, undefined, fileSystems);
  if (problem) throw problem;
  return checkpoint;
}
