/**
 * Checking that stored state is exactly what was acknowledged: size and
 * CRC-32 of inline bytes, of state files and of the shared (incremental)
 * state files a checkpoint references.
 */
import { crc32, crc32Hex } from "../../util/crc32.ts";
import type { CompletedCheckpoint, SharedStateRef, StateHandle } from "../types.ts";
import { joinLocation } from "./checkpoint-location.ts";
import { isPlainFileName, SHARED_DIR, sharedRefFile } from "./checkpoint-paths.ts";
import { CorruptCheckpointError } from "./errors.ts";
import { fileSystemsFor } from "./file-systems.ts";
import type { FileSystems } from "./storage-file-system.ts";

/** Local files, and S3 with the AWS SDK's defaults: for callers without a job's `s3.*` settings. */
const DEFAULT_FILE_SYSTEMS = fileSystemsFor();

/** Why `bytes` are not the content `handle` describes, or null if they are. Pure. */
function bytesProblem(bytes: Uint8Array, handle: StateHandle): string | null {
  if (bytes.length !== handle.size) return `size is ${bytes.length} bytes, expected ${handle.size}`;
  const actual = crc32(bytes);
  return actual === handle.crc ? null : `checksum mismatch (expected ${crc32Hex(handle.crc)}, found ${crc32Hex(actual)})`;
}

/**
 * Where the state of `handle` lives, for messages: the absolute file path (or `s3://` URI) for
 * a file handle, a description for an inline one.
 */
function stateLocation(checkpoint: CompletedCheckpoint, handle: StateHandle): string {
  if (handle.kind === "file") return checkpoint.directory === undefined ? `<no checkpoint directory>/${handle.path}` : joinLocation(checkpoint.directory, handle.path);
  const owner = checkpoint.states.find((s) => s.handle === handle);
  const who = owner ? ` of operator '${owner.operatorUid}' (subtask ${owner.subtaskIndex})` : "";
  return `inline state${who} of checkpoint ${checkpoint.checkpointId}`;
}

/**
 * Why the stored state of `handle` in `checkpoint` is unusable (missing,
 * wrong size, wrong checksum), or null if it verifies. Streams files, so a
 * large state is checked without holding it in memory.
 */
async function storedStateProblem(checkpoint: CompletedCheckpoint, handle: StateHandle, fileSystems: FileSystems): Promise<string | null> {
  if (handle.kind === "inline") return bytesProblem(handle.data, handle);
  const pathProblem = filePathProblem(checkpoint, handle.path);
  if (pathProblem) return pathProblem;
  return fileProblem(joinLocation(checkpoint.directory!, handle.path), handle, fileSystems);
}

/**
 * Why the file at `path` does not hold `expected` (missing, wrong size, wrong
 * checksum), or null if it does. Streams the file, so a large state is
 * checked without holding it in memory.
 */
export async function fileProblem(
  path: string,
  expected: { readonly size: number; readonly crc: number },
  fileSystems: FileSystems = DEFAULT_FILE_SYSTEMS,
): Promise<string | null> {
  const fs = fileSystems(path);
  const size = await fs.size(path);
  if (size === null) return "file is missing";
  if (size !== expected.size) return `size is ${size} bytes, expected ${expected.size}`;
  const chunks = await fs.readChunks(path);
  if (chunks === null) return "file is missing";
  let crc = 0;
  let read = 0;
  for await (const chunk of chunks) {
    crc = crc32(chunk, crc);
    read += chunk.length;
  }
  if (read !== expected.size) return `size is ${read} bytes, expected ${expected.size}`;
  return crc === expected.crc ? null : `checksum mismatch (expected ${crc32Hex(expected.crc)}, found ${crc32Hex(crc)})`;
}

/**
 * The bytes of `handle` in `checkpoint`, verified against its size and CRC.
 * Throws `CorruptCheckpointError` naming the file (or inline state) otherwise.
 */
export async function readVerifiedState(checkpoint: CompletedCheckpoint, handle: StateHandle, fileSystems: FileSystems = DEFAULT_FILE_SYSTEMS): Promise<Uint8Array> {
  const corrupt = (reason: string) => new CorruptCheckpointError(stateLocation(checkpoint, handle), reason);
  let bytes: Uint8Array;
  if (handle.kind === "inline") {
    bytes = handle.data;
  } else {
    const pathProblem = filePathProblem(checkpoint, handle.path);
    if (pathProblem) throw corrupt(pathProblem);
    const path = joinLocation(checkpoint.directory!, handle.path);
    const read = await fileSystems(path).read(path);
    if (read === null) throw corrupt("file is missing");
    bytes = read;
  }
  const problem = bytesProblem(bytes, handle);
  if (problem) throw corrupt(problem);
  return bytes;
}

function filePathProblem(checkpoint: CompletedCheckpoint, path: string): string | null {
  if (checkpoint.directory === undefined) return `checkpoint ${checkpoint.checkpointId} has no directory to resolve a file handle`;
  return isPlainFileName(path) ? null : `handle path ${JSON.stringify(path)} is not a plain file name`;
}

/**
 * Where a shared state file of `checkpoint` is: the absolute path `ref.path`
 * designates relative to the checkpoint's directory, or, for a path that is
 * not one of the two valid forms (`../shared/<name>`, `shared/<name>`) or a
 * checkpoint without a directory, the reason it cannot be resolved. Pure.
 *
 * @example
 * ```ts
 * sharedStatePath({ ...checkpoint, directory: "/ckpt/job/chk-7" }, ref); // { path: "/ckpt/job/shared/counts-0-5-….state" }
 * ```
 */
export function sharedStatePath(checkpoint: CompletedCheckpoint, ref: SharedStateRef): { path: string } | { problem: string; where: string } {
  if (checkpoint.directory === undefined) {
    return { problem: `checkpoint ${checkpoint.checkpointId} has no directory to resolve a shared state file`, where: ref.path };
  }
  const file = sharedRefFile(ref.path);
  if (!file) {
    return { problem: `shared state path ${JSON.stringify(ref.path)} is not ../${SHARED_DIR}/<file> or ${SHARED_DIR}/<file>`, where: checkpoint.directory };
  }
  return { path: joinLocation(checkpoint.directory, file.up ? ".." : ".", SHARED_DIR, file.name) };
}

/**
 * The bytes of the shared state file `ref` of `checkpoint`, verified against
 * its size and CRC. Throws `CorruptCheckpointError` naming the absolute file
 * path and the reason (missing, wrong size, checksum mismatch, invalid path).
 */
export async function readVerifiedSharedState(
  checkpoint: CompletedCheckpoint,
  ref: SharedStateRef,
  fileSystems: FileSystems = DEFAULT_FILE_SYSTEMS,
): Promise<Uint8Array> {
  const located = sharedStatePath(checkpoint, ref);
  if ("problem" in located) throw new CorruptCheckpointError(located.where, located.problem);
  const bytes = await fileSystems(located.path).read(located.path);
  if (bytes === null) throw new CorruptCheckpointError(located.path, "shared state file is missing");
  if (bytes.length !== ref.size) throw new CorruptCheckpointError(located.path, `size is ${bytes.length} bytes, expected ${ref.size}`);
  const crc = crc32(bytes);
  if (crc !== ref.crc) throw new CorruptCheckpointError(located.path, `checksum mismatch (expected ${crc32Hex(ref.crc)}, found ${crc32Hex(crc)})`);
  return bytes;
}

/**
 * The first unusable state of `checkpoint` (missing, truncated or altered)
 * as a `CorruptCheckpointError` naming it (returned, not thrown), or null if
 * every state verifies — the private state of each subtask and every shared
 * state file it references (size and CRC). `verified` carries the shared
 * files already found intact across calls (checkpoints share most of their
 * chain), so each is read once per `latestCompleted`.
 */
export async function checkpointStateProblem(
  checkpoint: CompletedCheckpoint,
  verified = new Set<string>(),
  fileSystems: FileSystems = DEFAULT_FILE_SYSTEMS,
): Promise<CorruptCheckpointError | null> {
  for (const { handle } of checkpoint.states) {
    const problem = await storedStateProblem(checkpoint, handle, fileSystems);
    if (problem) return new CorruptCheckpointError(stateLocation(checkpoint, handle), problem);
  }
  for (const { shared = [] } of checkpoint.states) {
    for (const ref of shared) {
      const located = sharedStatePath(checkpoint, ref);
      if ("problem" in located) return new CorruptCheckpointError(located.where, located.problem);
      const key = `${located.path}\0${ref.size}\0${ref.crc}`;
      if (verified.has(key)) continue;
      const problem = await fileProblem(located.path, ref, fileSystems);
      if (problem) return new CorruptCheckpointError(located.path, problem === "file is missing" ? "shared state file is missing" : problem);
      verified.add(key);
    }
  }
  return null;
}
