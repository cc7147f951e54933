/**
 * The `_metadata` file format of the filesystem checkpoint storage:
 *
 * ```text
 * WEIR-CHECKPOINT <version> <crc32 of body, 8 hex digits> <body length in bytes>\n
 * <body: the CompletedCheckpoint as UTF-8 JSON, without `directory`>
 * ```
 *
 * Inline state handles (if any) carry their bytes as base64 in the JSON. A
 * state's optional `shared` list (incremental chain) is plain JSON; metadata
 * written before it existed simply has none. The
 * directory is not stored: it is wherever the file is found, so a checkpoint
 * directory can be moved. Pure functions, no I/O.
 */
import { crc32, crc32Hex } from "../../util/crc32.ts";
import type { CompletedCheckpoint, OperatorSubtaskState, StateHandle } from "../types.ts";
import { isPlainFileName, sharedRefFile } from "./checkpoint-paths.ts";
import { CheckpointVersionError, CorruptCheckpointError } from "./errors.ts";

/** Format version this Weir writes and the newest it reads. */
export const METADATA_VERSION = 1;
const MAGIC = "WEIR-CHECKPOINT";
const HEADER = /^WEIR-CHECKPOINT ([0-9]{1,9}) ([0-9a-f]{8}) ([0-9]{1,15})$/;
const MAX_HEADER = 64;

/**
 * Serializes a completed checkpoint into the `_metadata` format.
 *
 * @example
 * ```ts
 * const bytes = encodeMetadata(checkpoint);
 * decodeMetadata(bytes, "/ckpt/chk-3/_metadata"); // deep-equals checkpoint without `directory`
 * ```
 */
export function encodeMetadata(checkpoint: CompletedCheckpoint): Uint8Array {
  const { directory: _directory, ...stored } = checkpoint;
  const json = JSON.stringify({ ...stored, states: stored.states.map(encodeState) });
  const body = new TextEncoder().encode(json);
  const header = new TextEncoder().encode(`${MAGIC} ${METADATA_VERSION} ${crc32Hex(crc32(body))} ${body.length}\n`);
  const out = new Uint8Array(header.length + body.length);
  out.set(header);
  out.set(body, header.length);
  return out;
}

/**
 * Parses and verifies a `_metadata` file read from `path` (used in error
 * messages). Throws `CorruptCheckpointError` for a wrong magic, version 0,
 * length or CRC mismatch, invalid JSON or a malformed checkpoint, and
 * `CheckpointVersionError` for a newer format version.
 */
export function decodeMetadata(bytes: Uint8Array, path: string): CompletedCheckpoint {
  const corrupt = (reason: string) => new CorruptCheckpointError(path, reason);
  if (bytes.length === 0) throw corrupt("empty file");
  const newline = bytes.subarray(0, MAX_HEADER + 1).indexOf(0x0a);
  const headerText = new TextDecoder().decode(bytes.subarray(0, newline < 0 ? MAX_HEADER : newline));
  if (!headerText.startsWith(`${MAGIC} `)) throw corrupt(`not a Weir checkpoint metadata file (no ${MAGIC} header)`);
  const header = newline < 0 ? null : HEADER.exec(headerText);
  if (!header) throw corrupt(`malformed header "${headerText}"`);
  const version = Number(header[1]);
  if (version > METADATA_VERSION) throw new CheckpointVersionError(path, version, METADATA_VERSION);
  if (version < 1) throw corrupt(`unknown format version ${version}`);
  const body = bytes.subarray(newline + 1);
  const length = Number(header[3]);
  if (body.length !== length) throw corrupt(`header says the body is ${length} bytes but it is ${body.length} (truncated or overwritten)`);
  const actualCrc = crc32Hex(crc32(body));
  if (actualCrc !== header[2]) throw corrupt(`checksum mismatch (header ${header[2]}, body ${actualCrc})`);
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(body));
  } catch (error) {
    throw corrupt(`body is not valid JSON: ${(error as Error).message}`);
  }
  const problem = checkpointProblem(json);
  if (problem) throw corrupt(`malformed checkpoint: ${problem}`);
  const checkpoint = json as CompletedCheckpoint;
  return { ...checkpoint, states: checkpoint.states.map((s) => ({ ...s, handle: decodeHandle(s.handle) })) };
}

type StoredHandle = Exclude<StateHandle, { kind: "inline" }> | { kind: "inline"; data: string; size: number; crc: number };

function encodeState(state: OperatorSubtaskState): object {
  const h = state.handle;
  if (h.kind !== "inline") return state;
  return { ...state, handle: { ...h, data: Buffer.from(h.data.buffer, h.data.byteOffset, h.data.byteLength).toString("base64") } };
}

function decodeHandle(handle: StateHandle): StateHandle {
  const stored = handle as StoredHandle;
  if (stored.kind !== "inline") return stored;
  return { ...stored, data: new Uint8Array(Buffer.from(stored.data, "base64")) };
}

const isInt = (v: unknown, min = 0): v is number => Number.isSafeInteger(v) && (v as number) >= min;
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** What is wrong with a parsed metadata body, or null if it is a well-formed checkpoint. */
function checkpointProblem(json: unknown): string | null {
  if (!isObject(json)) return "body is not an object";
  if (json.version !== METADATA_VERSION) return `body version ${String(json.version)} does not match the header`;
  if (typeof json.jobName !== "string") return "jobName is not a string";
  if (!isInt(json.checkpointId, 1)) return "checkpointId is not a positive integer";
  if (typeof json.timestamp !== "number" || typeof json.completedAt !== "number") return "timestamp or completedAt is not a number";
  if (typeof json.savepoint !== "boolean") return "savepoint is not a boolean";
  if (typeof json.graphFingerprint !== "string") return "graphFingerprint is not a string";
  if (!Array.isArray(json.states)) return "states is not an array";
  for (const [i, state] of json.states.entries()) {
    const problem = stateProblem(state);
    if (problem) return `states[${i}]: ${problem}`;
  }
  return null;
}

function stateProblem(state: unknown): string | null {
  if (!isObject(state)) return "not an object";
  if (typeof state.operatorUid !== "string") return "operatorUid is not a string";
  if (!isInt(state.subtaskIndex) || !isInt(state.parallelism, 1) || !isInt(state.maxParallelism, 1)) {
    return "subtaskIndex, parallelism or maxParallelism is not a valid integer";
  }
  const range = state.keyGroupRange;
  if (range !== undefined && !(Array.isArray(range) && range.length === 2 && isInt(range[0]) && isInt(range[1]))) {
    return "keyGroupRange is not a pair of integers";
  }
  if (state.shared !== undefined) {
    if (!Array.isArray(state.shared)) return "shared is not an array";
    for (const [i, ref] of state.shared.entries()) {
      const problem = sharedRefProblem(ref);
      if (problem) return `shared[${i}]: ${problem}`;
    }
  }
  const h = state.handle;
  if (!isObject(h) || !isInt(h.size) || !isInt(h.crc) || h.crc > 0xffffffff) return "handle has no valid size and crc";
  if (h.kind === "file") return typeof h.path === "string" && isPlainFileName(h.path) ? null : `file handle path ${JSON.stringify(h.path)} is not a plain file name`;
  if (h.kind === "inline") return typeof h.data === "string" ? null : "inline handle has no base64 data";
  return `unknown handle kind ${JSON.stringify(h.kind)}`;
}

function sharedRefProblem(ref: unknown): string | null {
  if (!isObject(ref)) return "not an object";
  if (!isInt(ref.size) || !isInt(ref.crc) || ref.crc > 0xffffffff) return "no valid size and crc";
  if (!isInt(ref.checkpointId, 1)) return "checkpointId is not a positive integer";
  if (typeof ref.path !== "string" || !sharedRefFile(ref.path)) return `path ${JSON.stringify(ref.path)} is not ../shared/<file> or shared/<file>`;
  return null;
}
