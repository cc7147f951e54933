/**
 * Crash-safe file replacement: a reader (or a process restarted after a
 * crash) sees either the previous content of a file or the complete new one,
 * never a torn write. Also a move that never replaces a file, and directory
 * fsyncs. Used by the checkpoint storage and by file sinks.
 */
import { randomBytes } from "node:crypto";
import { closeSync, fsync, fsyncSync, openSync, renameSync, rmSync, writeSync } from "node:fs";
import { link, lstat, open, rename, rm, unlink } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { promisify } from "node:util";

/** `fsync` of an open descriptor in the thread pool. */
const fsyncFd = promisify(fsync);

/**
 * Writes `data` to `path` atomically and durably: the bytes go to a hidden
 * temporary file in the same directory (`.<name>.<random>.tmp`), which is
 * fsynced, renamed over `path`, and then the directory itself is fsynced so
 * the rename survives a power loss. The directory must exist. On failure the
 * temporary file is removed and `path` is untouched.
 *
 * A crash between the write and the rename can leave a `.tmp` file behind;
 * callers that own the directory may delete such files. `mode` is the new
 * file's permission bits (before the umask; default 0o666).
 *
 * @example
 * ```ts
 * await writeFileAtomic("/data/out/part-0.txt", new TextEncoder().encode("hello\n"));
 * ```
 */
export async function writeFileAtomic(path: string, data: Uint8Array | string, mode = 0o666): Promise<void> {
  const dir = dirname(path);
  const tmp = join(dir, `.${basename(path)}.${randomBytes(6).toString("hex")}.tmp`);
  try {
    const file = await open(tmp, "wx", mode);
    try {
      await file.writeFile(data);
      await file.sync();
    } finally {
      await file.close();
    }
    await rename(tmp, path);
  } catch (error) {
    await rm(tmp, { force: true });
    throw error;
  }
  await fsyncDir(dir);
}

/**
 * {@link writeFileAtomic} for a file of up to a few MiB (a checkpoint's
 * `_metadata`, an incremental state file) written while the event loop is
 * busy: the cheap system calls (open, the write into the page cache, close,
 * rename) run synchronously, and only the two fsyncs (the file's, then the
 * directory's) wait in the thread pool. Each awaited step costs a turn of the
 * event loop, which a busy loop (a state backend's flush, records) makes tens
 * of ms long: this takes two turns where `writeFileAtomic` takes eight. Same
 * guarantees and temporary name as `writeFileAtomic`.
 *
 * @example
 * ```ts
 * await writeSmallFileAtomic("/ck/job/chk-7/_metadata", bytes);
 * ```
 */
export async function writeSmallFileAtomic(path: string, data: Uint8Array): Promise<void> {
  const dir = dirname(path);
  const tmp = join(dir, `.${basename(path)}.${randomBytes(6).toString("hex")}.tmp`);
  try {
    await writeAndSync(tmp, data, "wx");
    renameSync(tmp, path);
  } catch (error) {
    rmSync(tmp, { force: true });
    throw error;
  }
  await fsyncDir(dir);
}

/**
 * {@link writeFileDurable} in one turn of the event loop, for a file of up to
 * a few MiB (see {@link writeSmallFileAtomic}).
 *
 * @example
 * ```ts
 * await writeSmallFileDurable("/ck/job/chk-7/counts-0.state", bytes);
 * ```
 */
export function writeSmallFileDurable(path: string, data: Uint8Array): Promise<void> {
  return writeAndSync(path, data, "w");
}

/** Opens `path` with `flags`, writes `data` synchronously, fsyncs in the thread pool and closes. */
async function writeAndSync(path: string, data: Uint8Array, flags: "w" | "wx"): Promise<void> {
  const fd = openSync(path, flags);
  try {
    for (let at = 0; at < data.length; ) at += writeSync(fd, data, at);
    await fsyncFd(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * Writes `data` to `path` and fsyncs it, without the temp-file dance: for files
 * that only count once a later atomic step references them (checkpoint state
 * files, made visible by `_metadata`, whose atomic write also flushes the
 * directory entry). A crash leaves a partial file that nothing references.
 */
export async function writeFileDurable(path: string, data: Uint8Array): Promise<void> {
  const file = await open(path, "w");
  try {
    await file.writeFile(data);
    await file.sync();
  } finally {
    await file.close();
  }
}

/**
 * Flushes a directory's entries (created, renamed or deleted files) to disk,
 * so that they survive a power loss. A no-op on Windows, where directories
 * cannot be opened for fsync.
 *
 * @example
 * ```ts
 * await rename(".part-0.inprogress", "part-0");
 * await fsyncDir(".");
 * ```
 */
export async function fsyncDir(path: string): Promise<void> {
  if (process.platform === "win32") return;
  const fd = openSync(path, "r"); // opening and closing a directory are cheap: only the fsync waits in the thread pool
  try {
    await fsyncFd(fd);
  } finally {
    closeSync(fd);
  }
}

/** {@link fsyncDir} for synchronous code paths (e.g. a sink's pre-commit at a barrier). */
export function fsyncDirSync(path: string): void {
  if (process.platform === "win32") return;
  const fd = openSync(path, "r");
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * What {@link moveNoReplace} found and did:
 * - `moved`: `to` holds the file now and `from` is gone (also when an earlier
 *   move was interrupted between its link and its unlink: both names were the same
 *   file, or two files with the same bytes after the directory was copied, which
 *   breaks hard links);
 * - `already-moved`: `from` was gone and `to` exists: a move done before, nothing changed;
 * - `target-exists`: `to` is another file: nothing changed;
 * - `source-missing`: neither `from` nor `to` exists: nothing changed.
 */
export type MoveOutcome = "moved" | "already-moved" | "target-exists" | "source-missing";

/**
 * Moves the file `from` to `to` (same file system) without ever replacing
 * what is at `to`: a hard link `to` is created (which fails if `to` exists),
 * then `from` is unlinked. Safe to repeat after a crash at any point. Does not
 * fsync the directory: call {@link fsyncDir} after the moves. Needs a file
 * system with hard links (any local POSIX one; NTFS).
 *
 * @example
 * ```ts
 * if ((await moveNoReplace("out/.part-0.inprogress", "out/part-0")) === "target-exists") throw new Error("out/part-0 exists");
 * await fsyncDir("out");
 * ```
 */
export async function moveNoReplace(from: string, to: string): Promise<MoveOutcome> {
  try {
    await link(from, to);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return (await lstatOrNull(to)) === null ? "source-missing" : "already-moved";
    if (code !== "EEXIST") throw e;
    const [source, target] = await Promise.all([lstatOrNull(from), lstatOrNull(to)]);
    if (source === null) return target === null ? "source-missing" : "already-moved";
    if (target === null) return "target-exists";
    if ((source.ino !== target.ino || source.dev !== target.dev) && !(await sameBytes(from, to))) return "target-exists";
  }
  await unlink(from);
  return "moved";
}

/** Whether two files hold the same bytes (read in 1 MiB chunks). */
async function sameBytes(a: string, b: string): Promise<boolean> {
  const [fa, fb] = await Promise.all([open(a, "r"), open(b, "r")]);
  try {
    const [sa, sb] = await Promise.all([fa.stat(), fb.stat()]);
    if (sa.size !== sb.size) return false;
    const [ba, bb] = [Buffer.alloc(1 << 20), Buffer.alloc(1 << 20)];
    for (let at = 0; at < sa.size; ) {
      const [ra, rb] = await Promise.all([fa.read(ba, 0, ba.length, at), fb.read(bb, 0, bb.length, at)]);
      if (ra.bytesRead !== rb.bytesRead || ra.bytesRead === 0 || !ba.subarray(0, ra.bytesRead).equals(bb.subarray(0, rb.bytesRead))) return false;
      at += ra.bytesRead;
    }
    return true;
  } finally {
    await Promise.all([fa.close(), fb.close()]);
  }
}

async function lstatOrNull(path: string): Promise<{ ino: number; dev: number } | null> {
  try {
    return await lstat(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw e;
  }
}
