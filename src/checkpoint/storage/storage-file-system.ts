/**
 * The few file operations the checkpoint storage and savepoints need (after
 * Flink's `FileSystem`): whole-file writes and reads, listing one level,
 * deletes. Two implementations: a local directory (`LocalFileSystem`, every
 * write fsynced) and an S3-compatible object store (`S3FileSystem`). Paths
 * are absolute local paths or `s3://bucket/key` URIs (see checkpoint-location.ts).
 *
 * Object stores have no atomic rename and no directories: a write is a single
 * PUT (atomic: the object exists whole or not at all), a "directory" is a key
 * prefix, listed with the `/` delimiter. The storage relies on nothing more:
 * a checkpoint is complete when its `_metadata` exists, written last.
 */

/** What one level of a directory holds. */
export interface DirectoryListing {
  /** Names of the sub-directories (S3: the common prefixes under it). */
  readonly directories: readonly string[];
  /** Names of the files (S3: the objects directly under it). */
  readonly files: readonly string[];
}

/**
 * A file system holding checkpoints.
 *
 * @example
 * ```ts
 * const fs = fileSystemFor("s3://bucket/checkpoints/orders", { endpoint: "http://127.0.0.1:9000", pathStyleAccess: true });
 * await fs.write("s3://bucket/checkpoints/orders/chk-1/_metadata", bytes, "atomic");
 * ```
 */
export interface StorageFileSystem {
  /**
   * Writes the whole file `path`. `atomic`: a reader (or a process restarted
   * after a crash) sees the previous content or the complete new one (local:
   * temporary file, fsync, rename, directory fsync). `durable`: fsynced, but a
   * crash may leave a partial file (for files that only count once a later
   * atomic write references them). On an object store both are one PUT. The
   * directory must exist (see `makeDirectories`).
   */
  write(path: string, bytes: Uint8Array, how: "atomic" | "durable"): Promise<void>;
  /** The whole content of `path`, or null if there is no such file. */
  read(path: string): Promise<Uint8Array | null>;
  /** The content of `path` in chunks (to checksum a large file without holding it), or null if there is no such file. */
  readChunks(path: string): Promise<AsyncIterable<Uint8Array> | null>;
  /** The size of file `path` in bytes, or null if there is no such file. */
  size(path: string): Promise<number | null>;
  /** One level of directory `path`; empty if it does not exist. */
  list(path: string): Promise<DirectoryListing>;
  /** Deletes file `path`; nothing if it does not exist. */
  delete(path: string): Promise<void>;
  /** Deletes directory `path` and everything under it; nothing if it does not exist. */
  deleteDirectory(path: string): Promise<void>;
  /**
   * Creates directory `path` and its parents; true if it created any (the
   * caller then syncs the parent, see `syncDirectory`). An object store has
   * no directories: false.
   */
  makeDirectories(path: string): Promise<boolean>;
  /** Makes the entries of directory `path` (created, renamed, deleted files) durable: a local fsync; nothing on an object store. */
  syncDirectory(path: string): Promise<void>;
  /**
   * Why nothing could be written in directory `path` (to follow its name in
   * a message: "is a file, not a directory", "cannot be used: bucket 'b' does
   * not exist"), or undefined when a probe write there succeeds. Leaves nothing behind.
   */
  writableProblem(path: string): Promise<string | undefined>;
}

/** Picks the file system of a location: local for a path, S3 for an `s3://` URI. */
export type FileSystems = (location: string) => StorageFileSystem;
