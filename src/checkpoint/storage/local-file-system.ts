/**
 * `StorageFileSystem` on a local directory: every write fsynced, atomic
 * writes by temporary file and rename (util/fs-atomic.ts; files of up to 4 MiB
 * with fewer turns of the event loop).
 */
import { createReadStream } from "node:fs";
import { mkdir, readdir, readFile, rm, stat, unlink } from "node:fs/promises";
import { directoryProblem } from "../../util/directory-problem.ts";
import { fsyncDir, writeFileAtomic, writeFileDurable, writeSmallFileAtomic, writeSmallFileDurable } from "../../util/fs-atomic.ts";
import type { DirectoryListing, StorageFileSystem } from "./storage-file-system.ts";

/**
 * Writes up to this size take `writeSmallFileAtomic`'s and `writeSmallFileDurable`'s
 * synchronous steps: copying 4 MiB into the page cache blocks the thread for a
 * few ms, less than the turns of a busy event loop it saves.
 */
const SMALL_FILE_BYTES = 4 * 1024 * 1024;

const missing = (error: unknown): boolean => {
  const code = (error as NodeJS.ErrnoException).code;
  return code === "ENOENT" || code === "ENOTDIR";
};

/**
 * The local file system (absolute paths).
 *
 * @example
 * ```ts
 * await LOCAL_FILE_SYSTEM.makeDirectories("/ck/job/chk-1");
 * await LOCAL_FILE_SYSTEM.write("/ck/job/chk-1/_metadata", bytes, "atomic");
 * ```
 */
export class LocalFileSystem implements StorageFileSystem {
  async write(path: string, bytes: Uint8Array, how: "atomic" | "durable"): Promise<void> {
    const small = bytes.length <= SMALL_FILE_BYTES;
    if (how === "durable") await (small ? writeSmallFileDurable(path, bytes) : writeFileDurable(path, bytes));
    else await (small ? writeSmallFileAtomic(path, bytes) : writeFileAtomic(path, bytes));
  }

  async read(path: string): Promise<Uint8Array | null> {
    try {
      return await readFile(path);
    } catch (error) {
      if (missing(error)) return null;
      throw error;
    }
  }

  async readChunks(path: string): Promise<AsyncIterable<Uint8Array> | null> {
    return (await this.size(path)) === null ? null : createReadStream(path);
  }

  async size(path: string): Promise<number | null> {
    try {
      const info = await stat(path);
      return info.isFile() ? info.size : null;
    } catch (error) {
      if (missing(error)) return null;
      throw error;
    }
  }

  async list(path: string): Promise<DirectoryListing> {
    let entries;
    try {
      entries = await readdir(path, { withFileTypes: true });
    } catch (error) {
      if (missing(error)) return { directories: [], files: [] };
      throw error;
    }
    return { directories: entries.filter((e) => e.isDirectory()).map((e) => e.name), files: entries.filter((e) => e.isFile()).map((e) => e.name) };
  }

  async delete(path: string): Promise<void> {
    try {
      await unlink(path);
    } catch (error) {
      if (!missing(error)) throw error;
    }
  }

  async deleteDirectory(path: string): Promise<void> {
    await rm(path, { recursive: true, force: true, maxRetries: 3 });
  }

  async makeDirectories(path: string): Promise<boolean> {
    return (await mkdir(path, { recursive: true })) !== undefined;
  }

  syncDirectory(path: string): Promise<void> {
    return fsyncDir(path);
  }

  async writableProblem(path: string): Promise<string | undefined> {
    return directoryProblem(path);
  }
}

/** The one local file system. */
export const LOCAL_FILE_SYSTEM = new LocalFileSystem();
