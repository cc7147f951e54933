/**
 * Checking that stored state is exactly what was acknowledged: size and
 * CRC-32 of inline bytes and of state files.
 */
import { createReadStream } from "node:fs";
import { readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { crc32, crc32Hex } from "../../util/crc32.ts";
import type { CompletedCheckpoint, StateHandle } from "../types.ts";
import { isPlainFileName } from "./checkpoint-paths.ts";
import { CorruptCheckpointError } from "./errors.ts";

/** Why `bytes` are not the content `handle` describes, or null if they are. Pure. */
function bytesProblem(bytes: Uint8Array, handle: StateHandle): string | null {
  if (bytes.length !== handle.size) return `size is ${bytes.length} bytes, expected ${handle.size}`;
  const actual = crc32(bytes);
  return actual === handle.crc ? null : `checksum mismatch (expected ${crc32Hex(handle.crc)}, found ${crc32Hex(actual)})`;
}

/**
 * Where the state of `handle` lives, for messages: the absolute file path for
 * a file handle, a description for an inline one.
 */
function stateLocation(checkpoint: CompletedCheckpoint, handle: StateHandle): string {
  if (handle.kind === "file") return join(checkpoint.directory ?? "<no checkpoint directory>", handle.path);
  const owner = checkpoint.states.find((s) => s.handle === handle);
  const who = owner ? ` of operator '${owner.operatorUid}' (subtask ${owner.subtaskIndex})` : "";
  return `inline state${who} of checkpoint ${checkpoint.checkpointId}`;
}

/**
 * Why the stored state of `handle` in `checkpoint` is unusable (missing,
 * wrong size, wrong checksum), or null if it verifies. Streams files, so a
 * large state is checked without holding it in memory.
 */
async function storedStateProblem(checkpoint: CompletedCheckpoint, handle: StateHandle): Promise<string | null> {
  if (handle.kind === "inline") return bytesProblem(handle.data, handle);
  const pathProblem = filePathProblem(checkpoint, handle.path);
  if (pathProblem) return pathProblem;
  const path = join(checkpoint.directory!, handle.path);
  let size: number;
  try {
    size = (await stat(path)).size;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return "file is missing";
    throw error;
  }
  if (size !== handle.size) return `size is ${size} bytes, expected ${handle.size}`;
  let crc = 0;
  for await (const chunk of createReadStream(path)) crc = crc32(chunk as Buffer, crc);
  return crc === handle.crc ? null : `checksum mismatch (expected ${crc32Hex(handle.crc)}, found ${crc32Hex(crc)})`;
}

/**
 * The bytes of `handle` in `checkpoint`, verified against its size and CRC.
 * Throws `CorruptCheckpointError` naming the file (or inline state) otherwise.
 */
export async function readVerifiedState(checkpoint: CompletedCheckpoint, handle: StateHandle): Promise<Uint8Array> {
  const corrupt = (reason: string) => new CorruptCheckpointError(stateLocation(checkpoint, handle), reason);
  let bytes: Uint8Array;
  if (handle.kind === "inline") {
    bytes = handle.data;
  } else {
    const pathProblem = filePathProblem(checkpoint, handle.path);
    if (pathProblem) throw corrupt(pathProblem);
    try {
      bytes = await readFile(join(checkpoint.directory!, handle.path));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") throw corrupt("file is missing");
      throw error;
    }
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
 * The first unusable state of `checkpoint` (missing, truncated or altered)
 * as a `CorruptCheckpointError` naming it (returned, not thrown), or null if
 * every state verifies.
 */
export async function checkpointStateProblem(checkpoint: CompletedCheckpoint): Promise<CorruptCheckpointError | null> {
  for (const { handle } of checkpoint.states) {
    const problem = await storedStateProblem(checkpoint, handle);
    if (problem) return new CorruptCheckpointError(stateLocation(checkpoint, handle), problem);
  }
  return null;
}
