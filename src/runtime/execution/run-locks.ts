/**
 * The directories one run of a job must have to itself: its filesystem
 * checkpoint directory and the disk backend's local state directory
 * (`<checkpoint dir>.local` by default). The job master locks them before it
 * decides anything (restore, sink clean-up) and unlocks them when the run ends.
 */
import { resolve } from "node:path";
import type { CheckpointSettings } from "../../checkpoint/types.ts";
import { acquireDirectoryLock, type DirectoryLock } from "../../util/directory-lock.ts";

/** The locks of one run; `release()` drops them all. */
export interface RunLocks {
  release(): void;
}

/**
 * The directories of `settings` that a run locks, each with what it is:
 * the checkpoint directory of a filesystem storage, then the disk backend's
 * local directory (none for the jobmanager storage with the heap backend).
 *
 * @example
 * ```ts
 * runDirectories({ ...settings, storage: { type: "filesystem", directory: "ck" }, stateBackend: { type: "disk", incremental: true, localDirectory: "ck.local" } });
 * // [{ what: "checkpoint directory", directory: "/abs/ck" }, { what: "local state directory", directory: "/abs/ck.local" }]
 * ```
 */
export function runDirectories(settings: CheckpointSettings): { what: string; directory: string }[] {
  const dirs: { what: string; directory: string }[] = [];
  if (settings.storage.type === "filesystem") dirs.push({ what: "checkpoint directory", directory: resolve(settings.storage.directory) });
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
