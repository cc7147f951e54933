/**
 * Crash-safe file replacement: a reader (or a process restarted after a
 * crash) sees either the previous content of a file or the complete new one,
 * never a torn write. Used by the checkpoint storage and by file sinks.
 */
import { randomBytes } from "node:crypto";
import { open, rename, rm } from "node:fs/promises";
import { basename, dirname, join } from "node:path";

/**
 * Writes `data` to `path` atomically and durably: the bytes go to a hidden
 * temporary file in the same directory (`.<name>.<random>.tmp`), which is
 * fsynced, renamed over `path`, and then the directory itself is fsynced so
 * the rename survives a power loss. The directory must exist. On failure the
 * temporary file is removed and `path` is untouched.
 *
 * A crash between the write and the rename can leave a `.tmp` file behind;
 * callers that own the directory may delete such files.
 *
 * @example
 * ```ts
 * await writeFileAtomic("/data/out/part-0.txt", new TextEncoder().encode("hello\n"));
 * ```
 */
export async function writeFileAtomic(path: string, data: Uint8Array | string): Promise<void> {
  const dir = dirname(path);
  const tmp = join(dir, `.${basename(path)}.${randomBytes(6).toString("hex")}.tmp`);
  try {
    const file = await open(tmp, "wx");
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
  const dir = await open(path, "r");
  try {
    await dir.sync();
  } finally {
    await dir.close();
  }
}
