/**
 * Names inside a filesystem checkpoint directory: `chk-<id>` per checkpoint,
 * `_metadata`, and one `<safe-uid>-<subtask>.state` file per operator subtask.
 * Pure functions, no I/O.
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
  let safe = encodeURIComponent(operatorUid)
    .replace(/[!'()*~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/(%[0-9A-F]{2})|([A-Z])/g, (_, escape: string | undefined, upper: string | undefined) =>
      escape ?? `^${upper!.toLowerCase()}`,
    );
  if (safe.length > MAX_ENCODED_UID) {
    safe = `${safe.slice(0, MAX_ENCODED_UID)}~${crc32Hex(crc32(new TextEncoder().encode(operatorUid)))}`;
  }
  return `${safe}-${subtaskIndex}.state`;
}

/**
 * True if `name` is a single plain file name (no separators, not `.` or `..`),
 * so that a handle read from metadata cannot point outside its checkpoint directory.
 */
export function isPlainFileName(name: string): boolean {
  return name.length > 0 && name !== "." && name !== ".." && !/[/\\\0]/.test(name);
}
