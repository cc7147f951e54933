/**
 * An exclusive lock on a directory for one run: a lock file `<dir>/_lock`
 * that appears atomically with its whole content (who holds it), is deleted
 * when the run ends, and is taken over when the process that left it is
 * provably dead.
 *
 * Acquisition writes the owner to a temporary file, fsyncs it and hard-links
 * it to `_lock`: the link fails if the file exists (as `O_EXCL` would), and a
 * reader never sees a half-written lock. A lock of a dead process of this
 * host is removed under a short-lived guard file (`_lock.takeover`, taken the
 * same way) after checking that it is still the same lock, then acquisition
 * starts again, so two runs that both find a stale lock cannot both win.
 */
import { randomBytes } from "node:crypto";
import { directoryProblem, UnusableDirectoryError } from "./directory-problem.ts";
import { closeSync, fsyncSync, linkSync, mkdirSync, openSync, readFileSync, rmSync, unlinkSync, writeSync } from "node:fs";
import { join, resolve } from "node:path";
import { DirectoryLockedError } from "./directory-locked-error.ts";
import { fsyncDirSync } from "./fs-atomic.ts";
import { parseLockOwner, type LockOwner } from "./lock-owner.ts";
import { processLiveness, thisProcess } from "./process-liveness.ts";

/** Name of the lock file in a locked directory. */
export const LOCK_FILE = "_lock";
const GUARD_SUFFIX = ".takeover";
/** Rounds of "create, else check the owner" before giving up (each stale lock removed costs one). */
const MAX_ROUNDS = 20;

/** Options of `acquireDirectoryLock`. */
export interface DirectoryLockOptions {
  /** What the directory is, for messages: "checkpoint directory", "local state directory". */
  readonly what: string;
  /** Receives the note when a lock left by a dead process is taken over. */
  readonly note: (message: string) => void;
  /** Recorded as the owner's command (default: this process's `process.argv` after the node executable). */
  readonly command?: string;
}

/** A held lock; `release()` deletes the lock file (once; later calls do nothing). */
export interface DirectoryLock {
  /** Absolute path of the locked directory. */
  readonly directory: string;
  /** What the lock file says: this run. */
  readonly owner: LockOwner;
  release(): void;
}

/** Locks held by this process, released by the exit and signal hooks if the run did not release them. */
const held = new Set<DirectoryLock>();

/**
 * Takes the exclusive lock of `directory` (created if missing) for this run,
 * or throws `DirectoryLockedError` naming the directory, the owner and how to
 * proceed: when another live process of this host holds it (this process
 * too: a second job on one directory), when a process of another host does
 * (this host cannot check it), or when the lock file cannot be read. A lock
 * left by a dead process of this host (killed, crashed, or an earlier
 * process with this pid) is taken over, with a note.
 *
 * The lock is released by `release()`, and otherwise when the process exits
 * or dies of SIGINT/SIGTERM/SIGHUP with no other handler; a SIGKILL leaves
 * it for the next run to take over.
 *
 * @example
 * ```ts
 * const lock = acquireDirectoryLock(".weir/checkpoints/word-count", { what: "checkpoint directory", note: (n) => logger.warn(n) });
 * try {
 *   await runTheJob();
 * } finally {
 *   lock.release();
 * }
 * ```
 */
export function acquireDirectoryLock(directory: string, options: DirectoryLockOptions): DirectoryLock {
  const dir = resolve(directory);
  const lockFile = join(dir, LOCK_FILE);
  const problem = directoryProblem(dir);
  if (problem !== undefined) throw new UnusableDirectoryError(options.what, dir, problem);
  const created = mkdirSync(dir, { recursive: true });
  if (created !== undefined) fsyncDirSync(resolve(created, ".."));
  const me = thisProcess();
  const owner: LockOwner = {
    ...me,
    startedAt: new Date().toISOString(),
    command: options.command ?? process.argv.slice(1).join(" "),
    token: randomBytes(8).toString("hex"),
  };
  const content = `${JSON.stringify(owner)}\n`;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    if (linkNew(lockFile, content)) {
      fsyncDirSync(dir);
      return hold(dir, lockFile, owner);
    }
    const found = readOwner(lockFile);
    if (found === null) continue; // released meanwhile: try again
    if (typeof found === "string") throw new DirectoryLockedError(options.what, dir, lockFile, "unreadable", null, found);
    const liveness = processLiveness(found, me);
    if (liveness !== "dead") throw new DirectoryLockedError(options.what, dir, lockFile, liveness, found);
    if (removeIfStill(lockFile, found.token, content)) {
      options.note(
        `taking over the lock of ${options.what} ${dir}: the run that held it (pid ${found.pid}, ${found.command}, started ${found.startedAt}) is no longer running`,
      );
    }
  }
  throw new Error(`could not lock ${options.what} ${dir}: other runs kept taking and dropping ${lockFile}`);
}

/** Creates `path` with `content`, fsynced, only if it does not exist; false if it does. */
function linkNew(path: string, content: string): boolean {
  const tmp = `${path}.${randomBytes(6).toString("hex")}.tmp`;
  const fd = openSync(tmp, "wx");
  try {
    writeSync(fd, content);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    linkSync(tmp, path);
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw e;
  } finally {
    rmSync(tmp, { force: true });
  }
}

/** The owner in `path`; null if there is no such file; a string saying what is wrong with it otherwise. */
function readOwner(path: string): LockOwner | string | null {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw e;
  }
  return parseLockOwner(text);
}

/**
 * Deletes the lock file if it still holds `token` (the stale lock this run
 * checked), under the guard file so that no other run replaces it between
 * the check and the deletion. False if another run was doing the same (the
 * caller tries again) or the lock changed.
 */
function removeIfStill(lockFile: string, token: string, guardContent: string): boolean {
  const guard = lockFile + GUARD_SUFFIX;
  if (!linkNew(guard, guardContent)) {
    const other = readOwner(guard);
    // a guard is held for microseconds; one of a dead process is removed (another run's live guard is left alone)
    if (other !== null && (typeof other === "string" || processLiveness(other) === "dead")) rmSync(guard, { force: true });
    return false;
  }
  try {
    const current = readOwner(lockFile);
    if (current === null || typeof current === "string" || current.token !== token) return false;
    unlinkSync(lockFile);
    return true;
  } finally {
    rmSync(guard, { force: true });
  }
}

function hold(directory: string, lockFile: string, owner: LockOwner): DirectoryLock {
  const lock: DirectoryLock = {
    directory,
    owner,
    release() {
      if (!held.delete(lock)) return;
      const current = readOwner(lockFile);
      if (current !== null && typeof current !== "string" && current.token === owner.token) rmSync(lockFile, { force: true });
    },
  };
  held.add(lock);
  installHooks();
  return lock;
}

let hooksInstalled = false;
const SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;

/** Releases every held lock at exit, and on a signal that nothing else handles (then dies of it as it would have). */
function installHooks(): void {
  if (hooksInstalled) return;
  hooksInstalled = true;
  process.on("exit", releaseAll);
  for (const signal of SIGNALS) {
    const onSignal = (): void => {
      if (process.listenerCount(signal) > 1) return; // the program handles it (weir run stops the job, which releases)
      releaseAll();
      process.off(signal, onSignal);
      process.kill(process.pid, signal);
    };
    process.on(signal, onSignal);
  }
}

function releaseAll(): void {
  for (const lock of [...held]) {
    try {
      lock.release();
    } catch {
      // exiting: a lock left behind is taken over by the next run
    }
  }
}
