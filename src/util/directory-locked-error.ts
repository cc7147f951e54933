/**
 * The error of a run that finds its directory locked by another run.
 */
import type { LockOwner } from "./lock-owner.ts";

/** Why the lock could not be taken. */
export type LockedReason = "alive" | "other-host" | "unreadable";

/**
 * A directory (a job's checkpoint directory, or its local state directory)
 * is locked by another run that still runs, by a run of another host (which
 * this host cannot check), or by a lock file that cannot be read. Names the
 * directory, the owner, and how to proceed.
 */
export class DirectoryLockedError extends Error {
  override readonly name = "DirectoryLockedError";

  constructor(
    /** What the directory is, e.g. "checkpoint directory". */
    readonly what: string,
    /** Absolute path of the directory. */
    readonly directory: string,
    /** Absolute path of its lock file. */
    readonly lockFile: string,
    readonly reason: LockedReason,
    /** The run that holds the lock (null when the file cannot be read). */
    readonly owner: LockOwner | null,
    /** Why the file cannot be read (reason "unreadable"). */
    detail?: string,
  ) {
    super(message(what, directory, lockFile, reason, owner, detail));
  }
}

function message(what: string, directory: string, lockFile: string, reason: LockedReason, owner: LockOwner | null, detail?: string): string {
  const remove = `if you are sure that no run uses it, delete ${lockFile} and start again`;
  if (reason === "unreadable" || owner === null) return `${what} ${directory} is locked, but its lock file ${lockFile} cannot be read (${detail ?? "unknown"}); ${remove}`;
  const who = `pid ${owner.pid} on host '${owner.host}'${owner.command ? ` (${owner.command})` : ""}, started ${owner.startedAt}`;
  if (reason === "other-host") {
    return `${what} ${directory} is locked by a run on another host: ${who}. This host cannot check whether that run still goes on: stop it there, or ${remove}`;
  }
  return `${what} ${directory} is in use by another run: ${who}. Wait for that run to end or stop it (kill ${owner.pid}), or give this run another checkpoint directory (--checkpoint-dir)`;
}
