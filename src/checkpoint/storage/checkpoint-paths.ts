/**
 * Names inside a filesystem checkpoint directory: `chk-<id>` per checkpoint,
 * `_metadata`, one `<safe-uid>-<subtask>.state` file per operator subtask, and
 * the `shared/` folder of incremental state files
 * `<safe-uid>-<subtask>-<checkpointId>-<random>.state`. Pure functions, no I/O.
 */
import { crc32, crc32Hex } from "../../util/crc32.ts";

/** Name of the metadata file, written last: its presence marks a completed checkpoint. */
export const METADATA_FILE = "_metadata";

const CHECKPOINT_DIR = /^chk-([1-9][0-9]*)$/;
/** Longest encoded uid kept verbatim in a file name (file names are limited to 255 bytes). */
const MAX_ENCODED_UID = 160;

/**
 * Directory name of checkpoint `id`.
 *
 * @example
 * ```ts
 * checkpointDirName(7); // "chk-7"
 * ```
 */
export function checkpointDirName(id: number): string {
  return `chk-${id}`;
}

/** The checkpoint id of a directory name such as "chk-7", or null for any other name. */
export function parseCheckpointDirName(name: string): number | null {
  const match = CHECKPOINT_DIR.exec(name);
  if (!match) return null;
  const id = Number(match[1]);
  return Number.isSafeInteger(id) ? id : null;
}

/**
 * File name of one operator subtask's state. Any uid maps to a portable name
 * that no other (uid, subtask) pair maps to, even on case-insensitive file
 * systems: characters outside `[a-z0-9._-]` are percent-encoded (upper-case
 * letters as `^` + lower-case letter), and very long uids are shortened with
 * their CRC-32 appended.
 *
 * @example
 * ```ts
 * stateFileName("word counts/v2", 3); // "word%20counts%2Fv2-3.state"
 * stateFileName("Counts", 0);         // "^counts-0.state"
 * ```
 */
export function stateFileName(operatorUid: string, subtaskIndex: number): string {
  return `${safeUid(operatorUid)}-${subtaskIndex}.state`;
}

/** `operatorUid` as a portable file-name part, injective (see `stateFileName`). */
export function safeUid(operatorUid: string): string {
  let safe = encodeURIComponent(operatorUid)
    .replace(/[!'()*~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/(%[0-9A-F]{2})|([A-Z])/g, (_, escape: string | undefined, upper: string | undefined) =>
      escape ?? `^${upper!.toLowerCase()}`,
    );
  if (safe.length > MAX_ENCODED_UID) {
    safe = `${safe.slice(0, MAX_ENCODED_UID)}~${crc32Hex(crc32(new TextEncoder().encode(operatorUid)))}`;
  }
  return safe;
}

/** Folder of the shared (incremental) state files, in a job's checkpoint directory and in a savepoint. */
export const SHARED_DIR = "shared";

const SHARED_FILE = /-([0-9]+)-([1-9][0-9]*)-([0-9a-f]{12})\.state$/;
/** A temporary file of `writeFileAtomic`: `.<name>.<12 hex>.tmp`. */
const TEMP_FILE = /^\.(.+)\.[0-9a-f]{12}\.tmp$/;

/**
 * File name of a shared state file written by checkpoint `checkpointId`;
 * `random` (12 hex digits) keeps names unique across job runs that reuse a
 * checkpoint id after a crash.
 *
 * @example
 * ```ts
 * sharedStateFileName("counts", 1, 7, "0123456789ab"); // "counts-1-7-0123456789ab.state"
 * ```
 */
export function sharedStateFileName(operatorUid: string, subtaskIndex: number, checkpointId: number, random: string): string {
  return `${safeUid(operatorUid)}-${subtaskIndex}-${checkpointId}-${random}.state`;
}

/**
 * The id of the checkpoint that wrote a file found in `shared/` (a shared
 * state file or the temporary file of one being written), or null for any
 * other name (left alone by cleanup).
 *
 * @example
 * ```ts
 * parseSharedStateFileName("counts-1-7-0123456789ab.state");             // 7
 * parseSharedStateFileName(".counts-1-7-0123456789ab.state.00ff00ff00ff.tmp"); // 7
 * ```
 */
export function parseSharedStateFileName(name: string): number | null {
  const inner = TEMP_FILE.exec(name)?.[1] ?? name;
  const match = SHARED_FILE.exec(inner);
  if (!match) return null;
  const id = Number(match[2]);
  return Number.isSafeInteger(id) ? id : null;
}

/** Path of a shared file as a checkpoint in `chk-<id>/` references it. */
export function checkpointSharedPath(name: string): string {
  return `../${SHARED_DIR}/${name}`;
}

/** Path of a shared file as a savepoint references its own copy. */
export function savepointSharedPath(name: string): string {
  return `${SHARED_DIR}/${name}`;
}

/**
 * The file name inside a `shared/` folder that a ref path from metadata
 * designates — only `../shared/<name>` (a checkpoint's job directory) and
 * `shared/<name>` (a savepoint's own copy) are valid — with `up` true for the
 * first form; null for any other path (absolute, other `..`, nested).
 *
 * @example
 * ```ts
 * sharedRefFile("../shared/a-0-3-0123456789ab.state"); // { up: true, name: "a-0-3-0123456789ab.state" }
 * sharedRefFile("../../etc/passwd");                   // null
 * ```
 */
export function sharedRefFile(path: string): { up: boolean; name: string } | null {
  const up = path.startsWith("../");
  const rest = up ? path.slice(3) : path;
  if (!rest.startsWith(`${SHARED_DIR}/`)) return null;
  const name = rest.slice(SHARED_DIR.length + 1);
  return isPlainFileName(name) ? { up, name } : null;
}

/**
 * True if `name` is a single plain file name (no separators, not `.` or `..`),
 * so that a handle read from metadata cannot point outside its checkpoint directory.
 */
export function isPlainFileName(name: string): boolean {
  return name.length > 0 && name !== "." && name !== ".." && !/[/\\\0]/.test(name);
}
