/**
 * The directories one run of a job must have to itself: its filesystem
 * checkpoint directory and the disk backend's local state directory
 * (`<checkpoint dir>.local` by default). The job master locks them before it
 * decides anything (restore, sink clean-up) and unlocks them when the run ends.
 *
 * An `s3://` checkpoint directory is not locked: an object store offers no
 * lock that a crashed run's successor could take over safely (and runs on
 * several hosts share no local file). Two runs on one S3 checkpoint directory
 * are the user's error there, as in Flink; the job's high-availability store
 * (one leader per job) is what keeps a second run away in a cluster.
 */
import { resolve } from "node:path";
import { isS3Location } from "../../checkpoint/storage/checkpoint-location.ts";
import type { CheckpointSettings } from "../../checkpoint/types.ts";
import { acquireDirectoryLock, type DirectoryLock } from "../../util/directory-lock.ts";

/** The locks of one run; `release()` drops them all. */
export interface RunLocks {
  release(): void;
}

/**
 * The directories of `settings` that a run locks, each with what it is:
 * the checkpoint directory of a local filesystem storage, then the disk backend's
 * local directory (none for the jobmanager storage or an `s3://` one with the heap backend).
 *
 * @example
 * ```ts
 * runDirectories({ ...settings, storage: { type: "filesystem", directory: "ck" }, stateBackend: { type: "disk", incremental: true, localDirectory: "ck.local" } });
 * // [{ what: "checkpoint directory", directory: "/abs/ck" }, { what: "local state directory", directory: "/abs/ck.local" }]
 * ```
 */
export function runDirectories(settings: CheckpointSettings): { what: string; directory: string }[] {
  const dirs: { what: string; directory: string }[] = [];
  if (settings.storage.type === "filesystem" && !isS3Location(settings.storage.directory)) dirs.push({ what: "checkpoint directory", directory: resolve(settings.storage.directory) });
  const local = settings.stateBackend?.type === "disk" ? settings.stateBackend.localDirectory : undefined;
  if (local !== undefined && !dirs.some((d) => d.directory === resolve(local))) dirs.push({ what: "local state directory", directory: resolve(local) });
  return dirs;
}

/**
 * Locks every directory of `settings` (see `runDirectories`), or throws
 * `DirectoryLockedError` for the first one another run holds, having released
 * those it took. `note` receives the note of a stale lock taken over;
 * `command` is recorded as the owner's command.
 */
export function acquireRunLocks(settings: CheckpointSettings, note: (message: string) => void, command?: string): RunLocks {
  const locks: DirectoryLock[] = [];
  try {
    for (const { what, directory } of runDirectories(settings)) locks.push(acquireDirectoryLock(directory, { what, note, command }));
  } catch (e) {
    for (const lock of locks) lock.release();
    throw e;
  }
  return {
    release: () => {
      for (const lock of locks) lock.release();
    },
  };
}
