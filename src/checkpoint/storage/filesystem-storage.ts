/**
 * The `filesystem` checkpoint storage: a durable directory per job, local or
 * in an S3-compatible object store (`s3://bucket/path`, see storage-file-system.ts),
 *
 * ```text
 * <directory>/chk-<id>/<safe-uid>-<subtask>.state   one per operator subtask, written by the tasks
 * <directory>/chk-<id>/_metadata                    written last by the coordinator: the checkpoint is complete
 * <directory>/shared/<safe-uid>-<subtask>-<writer id>-<random>.state
 *                                                   incremental state files, referenced by later checkpoints too
 * ```
 *
 * Locally every file is written to a temporary name, fsynced and renamed
 * into place; in an object store every file is one PUT, which the store
 * applies whole or not at all. Either way a crash at any moment leaves either
 * a complete checkpoint or one without `_metadata` (ignored, and deleted by
 * retention once a newer checkpoint completes): `_metadata` is written last,
 * and `latestCompleted` is the one place that decides which checkpoint is the
 * latest (a high-availability store may take that decision over).
 *
 * Retention runs after a checkpoint completed, in the background (as Flink's
 * `CheckpointsCleaner` discards subsumed checkpoints): `addCompleted` returns
 * once `_metadata` is durable, and the cleanups run one at a time after it
 * (`settled`). A cleanup deletes the checkpoints past retention, then the
 * shared files by mark and sweep from the retained checkpoints' metadata (see
 * `sharedFilesToDelete` and docs/architecture.md, "Shared state files"): no
 * reference counts are persisted, so a crash during cleanup leaves at most
 * files that the next completed checkpoint's cleanup deletes, and never
 * deletes a referenced one.
 */
import { randomBytes } from "node:crypto";
import { crc32 } from "../../util/crc32.ts";
import type { CompletedCheckpoint, SharedStateRef, StateHandle } from "../types.ts";
import { baseNameOf, joinLocation, parentLocation, resolveLocation } from "./checkpoint-location.ts";
import {
  checkpointDirName,
  checkpointSharedPath,
  METADATA_FILE,
  parseCheckpointDirName,
  parseSharedStateFileName,
  SHARED_DIR,
  sharedRefFile,
  sharedStateFileName,
  stateFileName,
} from "./checkpoint-paths.ts";
import type { CheckpointStorage, DamagedCheckpoint, LatestCompleted } from "./checkpoint-storage.ts";
import { CheckpointDirectoryError, CheckpointVersionError, CorruptCheckpointError } from "./errors.ts";
import { decodeMetadata, encodeMetadata } from "./metadata-format.ts";
import { checkpointsToDelete, type StoredCheckpointEntry } from "./retention.ts";
import { type SharedFileEntry, sharedFilesToDelete } from "./shared-state-cleanup.ts";
import { fileSystemsFor } from "./file-systems.ts";
import { checkpointStateProblem, readVerifiedSharedState, readVerifiedState } from "./state-verification.ts";
import type { FileSystems, StorageFileSystem } from "./storage-file-system.ts";

/** A write or directory fsync failed because the directory does not exist (yet). */
const isMissing = (error: unknown): boolean => (error as NodeJS.ErrnoException).code === "ENOENT";

/** Options of `FileSystemCheckpointStorage`. */
export interface FileSystemCheckpointStorageOptions {
  /** Directory of the job's checkpoints (created on first write): a local path or an `s3://bucket/path` URI. */
  readonly directory: string;
  /** The file systems of locations (default: local, and S3 with the AWS SDK's defaults). */
  readonly fileSystems?: FileSystems;
  /** Completed checkpoints to keep; null: none is deleted after `addCompleted`, the caller decides with `retainOnly`. */
  readonly retained: number | null;
  /** Receives warnings (a failed deletion, a corrupt checkpoint left out of a listing). */
  readonly log: (warning: string) => void;
  /**
   * Test hook: called before each file-system mutation of completing a
   * checkpoint and its cleanup, with a description of the step
   * (`write chk-5/_metadata`, `delete chk-3`, `delete shared/<name>`). A crash
   * test throws (or kills the process) here to stop at that step.
   */
  readonly crashPoint?: (step: string) => void;
}

/**
 * Durable checkpoint storage in a directory (created on first write). Task
 * and coordinator instances created on the same directory cooperate through
 * the files only.
 *
 * @example
 * ```ts
 * const storage = new FileSystemCheckpointStorage({ directory: ".weir/checkpoints/word-count", retained: 2, log: (w) => getLogger().warn(w) });
 * const latest = await storage.latestCompleted(); // null on a fresh directory
 * ```
 */
export class FileSystemCheckpointStorage implements CheckpointStorage {
  /** Absolute directory of the job's checkpoints (or its `s3://` URI). */
  readonly directory: string;
  /** The file systems of this and other locations (a restored savepoint may be elsewhere). */
  readonly fileSystems: FileSystems;
  /** The file system of `directory`. */
  private readonly fs: StorageFileSystem;
  private readonly retained: number | null;
  private readonly log: (warning: string) => void;
  private readonly crashPoint: (step: string) => void;
  /** The retention of completed checkpoints, running in the background (`settled`). */
  private cleanup: Promise<void> = Promise.resolve();
  /** A cleanup is queued and has not started yet. */
  private cleanupQueued = false;
  /** Incremental checkpoints are supported: shared files go to `<directory>/shared/`. */
  readonly supportsSharedState = true;

  /** See `FileSystemCheckpointStorageOptions`. */
  constructor(options: FileSystemCheckpointStorageOptions) {
    this.directory = resolveLocation(options.directory);
    this.fileSystems = options.fileSystems ?? fileSystemsFor();
    this.fs = this.fileSystems(this.directory);
    this.retained = options.retained;
    this.log = options.log;
    this.crashPoint = options.crashPoint ?? (() => {});
  }

  /**
   * A probe write (a file created and deleted) in the directory, or where it
   * would be created: its nearest existing ancestor (in an object store: the
   * bucket, whose absence, or the server's, is named). Creates nothing that stays.
   */
  async checkWritable(): Promise<void> {
    const problem = await this.fs.writableProblem(this.directory);
    if (problem !== undefined) throw new CheckpointDirectoryError(this.directory, problem);
  }

  async writeState(checkpointId: number, operatorUid: string, subtaskIndex: number, bytes: Uint8Array): Promise<StateHandle> {
    const dir = this.checkpointDir(checkpointId);
    const name = stateFileName(operatorUid, subtaskIndex);
    await this.writeCreatingDirectory(dir, joinLocation(dir, name), bytes, "durable");
    return { kind: "file", path: name, size: bytes.length, crc: crc32(bytes) };
  }

  readState(checkpoint: CompletedCheckpoint, handle: StateHandle): Promise<Uint8Array> {
    return readVerifiedState(checkpoint, handle, this.fileSystems);
  }

  async writeSharedState(checkpointId: number, operatorUid: string, subtaskIndex: number, bytes: Uint8Array): Promise<SharedStateRef> {
    const dir = joinLocation(this.directory, SHARED_DIR);
    const name = sharedStateFileName(operatorUid, subtaskIndex, checkpointId, randomBytes(6).toString("hex"));
    // the shared/ entry is durable before any metadata references it
    await this.writeCreatingDirectory(dir, joinLocation(dir, name), bytes, "atomic", () => this.fs.syncDirectory(this.directory));
    return { path: checkpointSharedPath(name), size: bytes.length, crc: crc32(bytes), checkpointId };
  }

  readSharedState(checkpoint: CompletedCheckpoint, ref: SharedStateRef): Promise<Uint8Array> {
    return readVerifiedSharedState(checkpoint, ref, this.fileSystems);
  }

  sharedStateReusable(checkpoint: CompletedCheckpoint): boolean {
    return checkpoint.directory !== undefined && parentLocation(checkpoint.directory) === this.directory &&
      parseCheckpointDirName(baseNameOf(checkpoint.directory)) === checkpoint.checkpointId;
  }

  async addCompleted(checkpoint: CompletedCheckpoint): Promise<CompletedCheckpoint> {
    const dir = this.checkpointDir(checkpoint.checkpointId);
    const stored: CompletedCheckpoint = { ...checkpoint, directory: dir };
    const metadata = joinLocation(dir, METADATA_FILE);
    const bytes = encodeMetadata(stored);
    this.crashPoint(`write ${checkpointDirName(checkpoint.checkpointId)}/${METADATA_FILE}`);
    try {
      // chk-<id> exists once a task wrote a state file into it: its own entry is made durable beside the metadata write
      await Promise.all([this.fs.write(metadata, bytes, "atomic"), this.fs.syncDirectory(this.directory)]);
    } catch (error) {
      if (!isMissing(error)) throw error;
      await this.fs.makeDirectories(dir); // no task wrote a file into it (or not even into the job's directory)
      await this.fs.write(metadata, bytes, "atomic");
      await this.fs.syncDirectory(this.directory);
    }
    if (this.retained !== null) this.cleanUpInBackground(this.retained);
    return stored;
  }

  /**
   * Resolves once the cleanups that `addCompleted` started in the background
   * have ended (never rejects: a failed one is logged, and the next completed
   * checkpoint's cleanup finds what it left). The job awaits it before it ends.
   */
  async settled(): Promise<void> {
    for (let q = this.cleanup; ; q = this.cleanup) {
      await q;
      if (q === this.cleanup) return;
    }
  }

  /**
   * Queues retention after the cleanups before it (one at a time, in the order
   * of the checkpoints that asked for them); a cleanup asked for while one is
   * queued and not started is that one: it lists the directory when it starts.
   */
  private cleanUpInBackground(retained: number): void {
    if (this.cleanupQueued) return;
    this.cleanupQueued = true;
    this.cleanup = this.cleanup.then(async () => {
      this.cleanupQueued = false;
      try {
        await this.applyRetention(retained);
      } catch (error) {
        this.log(`old checkpoints in ${this.directory} were not cleaned up: ${(error as Error).message}`);
      }
    });
  }

  async retainOnly(keep: readonly number[], committed: number): Promise<void> {
    await this.settled();
    const kept = new Set(keep);
    for (const id of await this.checkpointIds()) {
      if (id >= committed || kept.has(id)) continue;
      this.crashPoint(`delete ${checkpointDirName(id)}`);
      await this.remove(this.checkpointDir(id), `checkpoint ${id}`);
    }
    await this.sweepSharedState(committed);
  }

  /** Deletes the aborted checkpoint's directory; never shared files (a later checkpoint's chain may include them: cleanup decides). */
  async discardAborted(checkpointId: number): Promise<void> {
    const dir = this.checkpointDir(checkpointId);
    if ((await this.fs.size(joinLocation(dir, METADATA_FILE))) !== null) {
      this.log(`not discarding checkpoint ${checkpointId} at ${dir}: it has completed (${METADATA_FILE} exists)`);
      return;
    }
    await this.remove(dir, `aborted checkpoint ${checkpointId}`);
  }

  async latestCompleted(minId = 1): Promise<LatestCompleted> {
    await this.settled();
    const damaged: DamagedCheckpoint[] = [];
    const verifiedShared = new Set<string>();
    for (const id of (await this.checkpointIds()).filter((i) => i >= minId).reverse()) {
      let checkpoint: CompletedCheckpoint | null;
      try {
        checkpoint = await this.readMetadata(id);
      } catch (error) {
        if (!(error instanceof CorruptCheckpointError)) throw error;
        damaged.push({ checkpointId: id, location: this.checkpointDir(id), error });
        continue;
      }
      if (!checkpoint) continue;
      const problem = await checkpointStateProblem(checkpoint, verifiedShared, this.fileSystems);
      if (!problem) return { checkpoint, damaged };
      damaged.push({ checkpointId: id, location: this.checkpointDir(id), error: problem });
    }
    return { checkpoint: null, damaged };
  }

  /** The highest id of a `chk-<id>` directory or of a checkpoint that wrote a file in `shared/`. */
  async highestCheckpointId(): Promise<number> {
    await this.settled();
    let highest = Math.max(0, ...(await this.checkpointIds()));
    for (const name of await this.sharedFileNames()) highest = Math.max(highest, parseSharedStateFileName(name) ?? 0);
    return highest;
  }

  /** Names in `<directory>/shared/`, none if it does not exist. */
  private async sharedFileNames(): Promise<readonly string[]> {
    return (await this.fs.list(joinLocation(this.directory, SHARED_DIR))).files;
  }

  async listCompleted(): Promise<CompletedCheckpoint[]> {
    await this.settled();
    const result: CompletedCheckpoint[] = [];
    for (const id of await this.checkpointIds()) {
      const checkpoint = await this.readMetadataOrWarn(id);
      if (checkpoint) result.push(checkpoint);
    }
    return result;
  }

  /**
   * Writes `path` in `dir`, creating `dir` only when the write finds it
   * missing (then `created` runs before the write, if `dir` was new): one
   * awaited step less per file than creating it first, when the event loop is busy.
   */
  private async writeCreatingDirectory(dir: string, path: string, bytes: Uint8Array, how: "atomic" | "durable", created?: () => Promise<void>): Promise<void> {
    try {
      await this.fs.write(path, bytes, how);
    } catch (error) {
      if (!isMissing(error)) throw error;
      if ((await this.fs.makeDirectories(dir)) && created) await created();
      await this.fs.write(path, bytes, how);
    }
  }

  private checkpointDir(id: number): string {
    return joinLocation(this.directory, checkpointDirName(id));
  }

  /** Ids of every `chk-<id>` directory, ascending. */
  private async checkpointIds(): Promise<number[]> {
    const ids: number[] = [];
    for (const name of (await this.fs.list(this.directory)).directories) {
      const id = parseCheckpointDirName(name);
      if (id !== null) ids.push(id);
    }
    return ids.sort((a, b) => a - b);
  }

  /**
   * The verified metadata of checkpoint `id` with `directory` set; null if it
   * has none (partial). Throws `CorruptCheckpointError` or `CheckpointVersionError`.
   */
  private async readMetadata(id: number): Promise<CompletedCheckpoint | null> {
    const dir = this.checkpointDir(id);
    const path = joinLocation(dir, METADATA_FILE);
    const bytes = await this.fs.read(path);
    if (bytes === null) return null;
    const checkpoint = decodeMetadata(bytes, path);
    if (checkpoint.checkpointId !== id) {
      throw new CorruptCheckpointError(path, `it describes checkpoint ${checkpoint.checkpointId}, not ${id}`);
    }
    return { ...checkpoint, directory: dir };
  }

  private async readMetadataOrWarn(id: number): Promise<CompletedCheckpoint | null> {
    try {
      return await this.readMetadata(id);
    } catch (error) {
      if (!(error instanceof CorruptCheckpointError)) throw error;
      this.log(`skipping checkpoint ${id} at ${this.checkpointDir(id)}: ${error.message}`);
      return null;
    }
  }

  /** Deletes checkpoints past retention, then shared files that no remaining checkpoint references. */
  private async applyRetention(retained: number): Promise<void> {
    const entries: StoredCheckpointEntry[] = [];
    for (const id of await this.checkpointIds()) {
      entries.push({ id, complete: await this.hasUsableMetadata(id) });
    }
    for (const id of checkpointsToDelete(entries, retained)) {
      this.crashPoint(`delete ${checkpointDirName(id)}`);
      await this.remove(this.checkpointDir(id), `checkpoint ${id}`);
    }
    const newest = Math.max(0, ...entries.filter((e) => e.complete).map((e) => e.id));
    if (newest > 0) await this.sweepSharedState(newest);
  }

  /**
   * Mark: the shared files every checkpoint still on disk references (read
   * from its metadata after the deletions, so a directory that failed to
   * delete still protects its files). Sweep: `sharedFilesToDelete`. Skipped
   * entirely if some checkpoint's metadata cannot be read as ours (written by
   * a newer Weir): its references are unknown; and if the metadata of
   * `newestCompleted` itself is gone by the time it is read: then someone else
   * cleans up this directory (under high availability a newer leader, whose
   * newer checkpoints this listing may have missed), and its references — a
   * superset of what any later checkpoint uses from below it — were not marked.
   */
  private async sweepSharedState(newestCompleted: number): Promise<void> {
    const sharedDir = joinLocation(this.directory, SHARED_DIR);
    const names = await this.sharedFileNames();
    if (names.length === 0) return;
    const referenced = new Set<string>();
    let newestMarked = false;
    for (const id of await this.checkpointIds()) {
      let checkpoint: CompletedCheckpoint | null;
      try {
        checkpoint = await this.readMetadata(id);
      } catch (error) {
        if (error instanceof CorruptCheckpointError) continue; // not a usable checkpoint: nothing restores from it
        if (error instanceof CheckpointVersionError) {
          this.log(`not cleaning up ${sharedDir}: ${error.message}`);
          return;
        }
        throw error;
      }
      if (id === newestCompleted && checkpoint !== null) newestMarked = true;
      for (const { shared = [] } of checkpoint?.states ?? []) {
        for (const ref of shared) {
          const file = sharedRefFile(ref.path);
          if (file?.up) referenced.add(file.name);
        }
      }
    }
    if (!newestMarked) {
      this.log(`not cleaning up ${sharedDir}: the metadata of checkpoint ${newestCompleted} is gone (another process cleans up this directory)`);
      return;
    }
    const files: SharedFileEntry[] = [];
    for (const name of names) {
      const checkpointId = parseSharedStateFileName(name);
      if (checkpointId !== null) files.push({ name, checkpointId });
    }
    for (const name of sharedFilesToDelete(files, referenced, newestCompleted)) {
      this.crashPoint(`delete ${SHARED_DIR}/${name}`);
      try {
        await this.fs.delete(joinLocation(sharedDir, name));
      } catch (error) {
        this.log(`could not delete shared state file ${joinLocation(sharedDir, name)}: ${(error as Error).message}`);
      }
    }
  }

  /** True if checkpoint `id` completed: its metadata verifies (or was written by a newer Weir, which is not ours to delete as junk). */
  private async hasUsableMetadata(id: number): Promise<boolean> {
    try {
      return (await this.readMetadata(id)) !== null;
    } catch (error) {
      if (error instanceof CheckpointVersionError) return true;
      if (error instanceof CorruptCheckpointError) return false;
      throw error;
    }
  }

  private async remove(dir: string, what: string): Promise<void> {
    try {
      await this.fs.deleteDirectory(dir);
    } catch (error) {
      this.log(`could not delete ${what} at ${dir}: ${(error as Error).message}`);
    }
  }
}

