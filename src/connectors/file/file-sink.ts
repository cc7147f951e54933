/**
 * The exactly-once file sink: rows go to hidden part files per bucket, made
 * durable at each checkpoint barrier and renamed into place when the
 * checkpoint completes (built on `TwoPhaseCommitSink`).
 */
import { randomInt } from "node:crypto";
import { mkdirSync } from "node:fs";
import { readdir, rm, writeFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import type { SinkContext } from "../../core/sink.ts";
import type { RestoredUserContext, TransactionContext } from "../transactional/transaction-context.ts";
import { caresFor } from "../transactional/transaction-state.ts";
import { TwoPhaseCommitSink, type TwoPhaseCommitOptions } from "../transactional/two-phase-commit-sink.ts";
import { fsyncDir, fsyncDirSync, moveNoReplace } from "../../util/fs-atomic.ts";
import { bucketDirectory, toBucketAssigner, type BucketAssigner, type BucketAssignerLike } from "./bucket-assigner.ts";
import { rowEncoder, type CsvOptions, type RowEncoder, type RowFormat } from "./file-sink-encoder.ts";
import { FileSinkOptionError, PartFileExistsError, PendingPartFileMissingError } from "./file-sink-errors.ts";
import { inProgressFileName, parseInProgressFileName, partFileName, partFileNaming, partRunId, type PartFileNaming } from "./part-file-names.ts";
import { InProgressPartFile } from "./part-file-writer.ts";
import { leftoverVerdict, writerTag } from "./part-writer-tag.ts";
import { exceedsPartSize, isDueForRollover, isInactive, resolveRollingPolicy, type RollingPolicy } from "./rolling-policy.ts";

/** Options of `FileSink.forRows`. */
export interface FileSinkOptions<T> extends TwoPhaseCommitOptions {
  format: RowFormat;
  csv?: CsvOptions;
  /** Sub-directory per record (default: the base path). */
  bucketAssigner?: BucketAssignerLike<T>;
  /** Size, inactivity and age limits of a part (parts also roll at every checkpoint). */
  rollingPolicy?: Partial<RollingPolicy>;
  /** First word of part file names (default "part"). */
  partPrefix?: string;
  /** Extension of part files (default by format: none, ".jsonl", ".csv"). */
  partSuffix?: string;
  /** The text of a record's line, for the "lines" format (default `String(record)`). */
  lineOf?: (record: T) => string;
  /** Marks buckets complete with a success file (Flink's partition commit); none by default. */
  bucketCommit?: BucketCommitOptions;
  /**
   * Random source of the run ids in part file names: numbers in [0, 1)
   * (default: cryptographically random). Inject a seeded generator for
   * reproducible names in tests only: it draws the same ids in every run, so
   * a second run into the same directory fails with `PartFileExistsError`
   * instead of adding its files.
   */
  random?: () => number;
}

/**
 * When a bucket is complete, and the file that says so (Flink's partition
 * commit with the `success-file` policy). A bucket's candidates are checked
 * when a checkpoint's files are committed: the buckets written before its
 * barrier, with the watermark at the barrier. At the end of the input every
 * bucket written is complete.
 */
export interface BucketCommitOptions {
  /** Whether bucket `bucket`, first written at processing time `createdAt`, is complete at `watermark` and processing time `now`. */
  isComplete(bucket: string, createdAt: number, watermark: number, now: number): boolean;
  /** The name of the empty file written into a complete bucket's directory, e.g. `_SUCCESS`. */
  successFileName: string;
}

/** The buckets a checkpoint's commit may mark complete, as its barrier saw them. */
export interface BucketCommitCheck {
  /** The buckets written and not yet complete, with their creation (processing) times. */
  readonly buckets: Record<string, number>;
  readonly watermark: number;
  /** The input had ended: every bucket is complete. */
  readonly final: boolean;
}

/** A part file of a transaction, as kept in checkpoints. */
export interface FilePartRef {
  /** Bucket id (relative directory under the base path). */
  readonly bucket: string;
  /** Committed file name. */
  readonly name: string;
  /** Hidden in-progress/pending file name, in the same directory. */
  readonly tmp: string;
}

/** A file sink transaction: the part files it wrote (plain data). */
export interface FileTransaction {
  readonly parts: FilePartRef[];
  /** With `bucketCommit`: set at pre-commit. */
  commitCheck?: BucketCommitCheck;
}

/** Per-subtask data in checkpoints. */
export interface FileSinkUserContext {
  /** Run id in this subtask's part names: a UUID drawn whenever the subtask starts, restored or not. */
  readonly runId: string;
  /** Next part number of each subtask index this subtask cares for (continued after a restore). */
  readonly nextPart: Record<string, number>;
  /** With `bucketCommit`: the buckets written and not yet complete, with their creation times (continued after a restore). */
  buckets?: Record<string, number>;
  /** With `bucketCommit`: the input's watermark. */
  watermark?: number;
  /** With `bucketCommit`: the input has ended. */
  ended?: boolean;
}

interface OpenPart {
  readonly ref: FilePartRef;
  readonly file: InProgressPartFile;
}

interface OpenTransaction {
  readonly parts: Map<string, OpenPart>;
  lastInactivityCheck: number;
}

/**
 * Writes rows to files under a base path with exactly-once guarantees.
 *
 * The two-phase commit on files (as in the seed design): begin = nothing yet
 * (a part file is created hidden, `.part-<uid>-<subtask>-<run id>-<n><ext>.<writer>.inprogress`,
 * at the first record of a bucket, where `<writer>` names the run and the process writing it); pre-commit at a checkpoint barrier = flush,
 * fsync and close every part and fsync its directory (still hidden: pending);
 * commit when the checkpoint completes = move each part to
 * `part-<uid>-<subtask>-<run id>-<n><ext>` without ever replacing a file
 * (hard link, then unlink of the hidden name) and fsync the directory;
 * abort = delete the hidden files. Commit is idempotent: a part already moved
 * is skipped. Another file under the committed name fails the job with
 * `PartFileExistsError`; a pending file that is gone and was never committed
 * fails it with `PendingPartFileMissingError`. Readers see only committed
 * parts, each complete, and every record exactly once, across crashes and restarts.
 *
 * Parts roll at every checkpoint, and also by size and inactivity
 * (`rollingPolicy`). The run id (a UUID, see the `random` option) is new
 * whenever a subtask starts, so two runs into one directory never share a
 * name; part numbers are kept in checkpoints and continue after a restore,
 * even at another parallelism. When a subtask starts, hidden files of this
 * sink that no restored transaction owns (written after the restored
 * checkpoint) are deleted, including those of subtask indexes that no longer
 * exist, but only those that an earlier attempt of this run wrote or whose
 * writing process is provably dead (a pid of this host that no longer runs):
 * another run that writes into the same directory and still runs, or runs on
 * another host, keeps its files (see `leftoverVerdict`). Records appear only when a checkpoint completes: enable
 * checkpointing (a bounded job commits the rest with its final checkpoint).
 *
 * Fault injection for crash tests: `WEIR_FAULT=kill-before-commit` makes the
 * process SIGKILL itself right before committing the first transaction with
 * data (see `TwoPhaseCommitSink`).
 *
 * @example
 * ```ts
 * env.enableCheckpointing(1_000);
 * words.sinkTo(FileSink.forLines("out/"));
 * events.sinkTo(
 *   FileSink.forRows("events/", {
 *     format: "csv",
 *     csv: { columns: ["id", "name"], header: true },
 *     bucketAssigner: BucketAssigners.dateTime("yyyy-MM-dd--HH"),
 *     rollingPolicy: { maxPartSizeBytes: 64 * 1024 * 1024 },
 *   }),
 * );
 * ```
 */
export class FileSink<T> extends TwoPhaseCommitSink<T, FileTransaction, FileSinkUserContext> {
  /** Absolute base directory. */
  readonly basePath: string;
  private readonly encoder: RowEncoder<T>;
  private readonly assigner: BucketAssigner<T>;
  private readonly rolling: RollingPolicy;
  private readonly prefix: string;
  private readonly suffix: string;
  private readonly random: () => number;
  private readonly bucketCommit: BucketCommitOptions | undefined;
  private readonly open = new WeakMap<FileTransaction, OpenTransaction>();

  private constructor(basePath: string, options: FileSinkOptions<T>) {
    super(options);
    if (basePath === "") throw new FileSinkOptionError(basePath, "the base path must not be empty");
    this.basePath = resolve(basePath);
    const lineOf = options.lineOf;
    this.encoder =
      lineOf === undefined ? rowEncoder<T>(this.basePath, options.format, options.csv) : { encode: (r) => `${lineOf(r)}\n`, header: () => null, extension: "" };
    this.bucketCommit = options.bucketCommit;
    if (this.bucketCommit !== undefined && !/^[^/\\]+$/.test(this.bucketCommit.successFileName)) {
      throw new FileSinkOptionError(this.basePath, `the success file name must be a file name, got '${this.bucketCommit.successFileName}'`);
    }
    this.assigner = toBucketAssigner(options.bucketAssigner);
    this.rolling = resolveRollingPolicy(this.basePath, options.rollingPolicy);
    this.prefix = options.partPrefix ?? "part";
    if (!/^[A-Za-z0-9_][A-Za-z0-9_.-]*$/.test(this.prefix)) {
      throw new FileSinkOptionError(this.basePath, `partPrefix must be letters, digits, '_', '.', '-' and not start with '.', got '${this.prefix}'`);
    }
    this.suffix = options.partSuffix ?? this.encoder.extension;
    if (/[/\\]/.test(this.suffix)) throw new FileSinkOptionError(this.basePath, `partSuffix must not contain a path separator, got '${this.suffix}'`);
    this.random = options.random ?? (() => randomInt(2 ** 32) / 2 ** 32);
  }

  /**
   * A sink of rows in `format` ("lines", "jsonl" or "csv").
   *
   * @example
   * ```ts
   * stream.sinkTo(FileSink.forRows("out", { format: "jsonl", bucketAssigner: (r: { day: string }) => r.day }));
   * ```
   */
  static forRows<T>(basePath: string, options: FileSinkOptions<T>): FileSink<T> {
    return new FileSink<T>(basePath, options);
  }

  /**
   * A sink of text lines (`String(record)` and a newline).
   *
   * @example
   * ```ts
   * words.sinkTo(FileSink.forLines("out/"));
   * ```
   */
  static forLines<T = string>(basePath: string, options: Omit<FileSinkOptions<T>, "format" | "csv"> = {}): FileSink<T> {
    return new FileSink<T>(basePath, { ...options, format: "lines" });
  }

  override initializeUserContext(ctx: SinkContext, restored: readonly RestoredUserContext<FileSinkUserContext>[]): FileSinkUserContext {
    const nextPart: Record<string, number> = { [ctx.subtaskIndex]: 0 };
    for (const r of restored) {
      for (const [index, n] of Object.entries(r.userContext.nextPart)) {
        if (caresFor(ctx.subtaskIndex, ctx.parallelism, Number(index))) nextPart[index] = Math.max(nextPart[index] ?? 0, n);
      }
    }
    if (this.bucketCommit === undefined) return { runId: partRunId(this.random), nextPart };
    // the buckets not yet complete of the old subtasks whose transactions this subtask takes over
    const buckets: Record<string, number> = {};
    for (const r of restored) {
      if (!caresFor(ctx.subtaskIndex, ctx.parallelism, r.subtask)) continue;
      for (const [bucket, createdAt] of Object.entries(r.userContext.buckets ?? {})) buckets[bucket] = Math.min(buckets[bucket] ?? createdAt, createdAt);
    }
    return { runId: partRunId(this.random), nextPart, buckets, watermark: Number.MIN_SAFE_INTEGER, ended: false };
  }

  override onWatermark(watermark: number, ctx: TransactionContext<FileSinkUserContext>): void {
    if (this.bucketCommit !== undefined) ctx.userContext.watermark = watermark;
  }

  override onEndOfInput(ctx: TransactionContext<FileSinkUserContext>): void {
    if (this.bucketCommit !== undefined) ctx.userContext.ended = true;
  }

  beginTransaction(): FileTransaction {
    return { parts: [] };
  }

  invoke(txn: FileTransaction, record: T, ctx: TransactionContext<FileSinkUserContext>): void {
    const now = ctx.clock.now();
    let open = this.open.get(txn);
    if (open === undefined) {
      open = { parts: new Map(), lastInactivityCheck: now };
      this.open.set(txn, open);
    } else if (now - open.lastInactivityCheck >= this.rolling.checkIntervalMs) {
      open.lastInactivityCheck = now;
      for (const [bucket, part] of open.parts) {
        if (isInactive(part.file.lastWriteAt, now, this.rolling) || isDueForRollover(part.file.openedAt, now, this.rolling)) this.roll(open, bucket, part);
      }
    }
    const bucket = this.assigner.bucketId(record, now);
    if (this.bucketCommit !== undefined) ctx.userContext.buckets![bucket] ??= now;
    const part = open.parts.get(bucket) ?? this.openPart(txn, open, bucket, record, ctx, now);
    part.file.append(this.encoder.encode(record), now);
    if (exceedsPartSize(part.file.bytes, this.rolling)) this.roll(open, bucket, part);
  }

  /** Closes every part durably and fsyncs the directories holding them, so the pending files survive a power loss. */
  preCommit(txn: FileTransaction, ctx: TransactionContext<FileSinkUserContext>): void {
    const u = ctx.userContext;
    if (this.bucketCommit !== undefined) txn.commitCheck = { buckets: { ...u.buckets }, watermark: u.watermark ?? Number.MIN_SAFE_INTEGER, final: u.ended === true };
    const open = this.open.get(txn);
    if (open === undefined) return;
    for (const part of open.parts.values()) part.file.closeDurably();
    this.open.delete(txn);
    for (const dir of new Set(txn.parts.map((ref) => bucketDirectory(this.basePath, ref.bucket, ctx.operatorUid)))) fsyncDirSync(dir);
  }

  /**
   * Moves every part to its committed name without replacing any file, then fsyncs the directories.
   *
   * @throws PartFileExistsError when another file has a part's committed name
   * @throws PendingPartFileMissingError when a pending file is gone and was never committed
   */
  async commit(txn: FileTransaction, ctx: TransactionContext<FileSinkUserContext>, checkpointId: number): Promise<void> {
    const dirs = new Set<string>();
    for (const ref of txn.parts) {
      const dir = bucketDirectory(this.basePath, ref.bucket, ctx.operatorUid);
      const [pending, target] = [join(dir, ref.tmp), join(dir, ref.name)];
      switch (await moveNoReplace(pending, target)) {
        case "moved":
          dirs.add(dir);
          break;
        case "already-moved":
          break; // committed before (commit is idempotent)
        case "target-exists":
          throw new PartFileExistsError(target, ctx.operatorUid, checkpointId);
        case "source-missing":
          throw new PendingPartFileMissingError(pending, target, ctx.operatorUid, checkpointId);
      }
    }
    for (const dir of dirs) await fsyncDir(dir);
    await this.commitBuckets(txn, ctx);
  }

  /** Writes the success file of each candidate bucket of `txn` that is complete (again after a recovery: it is idempotent). */
  private async commitBuckets(txn: FileTransaction, ctx: TransactionContext<FileSinkUserContext>): Promise<void> {
    const check = txn.commitCheck;
    if (this.bucketCommit === undefined || check === undefined) return;
    const now = ctx.clock.now();
    for (const [bucket, createdAt] of Object.entries(check.buckets)) {
      if (!check.final && !this.bucketCommit.isComplete(bucket, createdAt, check.watermark, now)) continue;
      const dir = bucketDirectory(this.basePath, bucket, ctx.operatorUid);
      await writeFile(join(dir, this.bucketCommit.successFileName), "");
      await fsyncDir(dir);
      const buckets = ctx.userContext.buckets;
      if (buckets !== undefined && buckets[bucket] === createdAt) delete buckets[bucket];
    }
  }

  async abort(txn: FileTransaction, ctx: TransactionContext<FileSinkUserContext>): Promise<void> {
    const open = this.open.get(txn);
    if (open !== undefined) for (const part of open.parts.values()) part.file.discard();
    this.open.delete(txn);
    for (const ref of txn.parts) await rm(join(bucketDirectory(this.basePath, ref.bucket, ctx.operatorUid), ref.tmp), { force: true });
  }

  /**
   * Deletes hidden part files of the subtask indexes this subtask cares for
   * that no restored transaction owns and that are leftovers: written by an
   * earlier attempt of this run or by a process that is dead. Files of other
   * runs that may still write them are kept.
   */
  override async cleanupLeftovers(ctx: TransactionContext<FileSinkUserContext>, restored: readonly FileTransaction[]): Promise<void> {
    const owned = new Set(restored.flatMap((t) => t.parts.map((p) => join(bucketDirectory(this.basePath, p.bucket, ctx.operatorUid), p.tmp))));
    const naming = this.naming(ctx);
    const removed: string[] = [];
    const kept: string[] = [];
    const visit = async (dir: string): Promise<void> => {
      let entries;
      try {
        entries = await readdir(dir, { withFileTypes: true });
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === "ENOENT") return;
        throw e;
      }
      for (const entry of entries) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) await visit(path);
        if (!entry.isFile() || owned.has(path)) continue;
        const parsed = parseInProgressFileName(naming, entry.name);
        if (parsed === null || !caresFor(ctx.subtaskIndex, ctx.parallelism, parsed.subtask)) continue;
        if (leftoverVerdict(parsed.writer, ctx.jobId) === "keep") {
          kept.push(path);
          continue;
        }
        await rm(path, { force: true });
        removed.push(path);
      }
    };
    await visit(this.basePath);
    if (removed.length > 0) ctx.logger.info(`removed ${removed.length} uncommitted part file(s) left by a failed attempt under ${this.basePath}`);
    if (kept.length > 0) {
      ctx.logger.info(`kept ${kept.length} uncommitted part file(s) of another run that may still write them under ${this.basePath} (e.g. ${kept[0]})`);
    }
  }

  private naming(ctx: SinkContext): PartFileNaming {
    return partFileNaming(this.prefix, ctx.operatorUid, this.suffix);
  }

  private openPart(
    txn: FileTransaction,
    open: OpenTransaction,
    bucket: string,
    first: T,
    ctx: TransactionContext<FileSinkUserContext>,
    now: number,
  ): OpenPart {
    const dir = bucketDirectory(this.basePath, bucket, ctx.operatorUid);
    const created = mkdirSync(dir, { recursive: true });
    if (created !== undefined) fsyncParentsOfNew(dir, created);
    const key = String(ctx.subtaskIndex);
    const n = ctx.userContext.nextPart[key] ?? 0;
    ctx.userContext.nextPart[key] = n + 1;
    const name = partFileName(this.naming(ctx), ctx.subtaskIndex, ctx.userContext.runId, n);
    const ref: FilePartRef = { bucket, name, tmp: inProgressFileName(name, writerTag(ctx.jobId)) };
    const part: OpenPart = { ref, file: new InProgressPartFile(join(dir, ref.tmp), now) };
    txn.parts.push(ref);
    open.parts.set(bucket, part);
    const header = this.encoder.header(first);
    if (header !== null) part.file.append(header, now);
    return part;
  }

  /** Closes a part before the checkpoint (size or inactivity): it stays pending in its transaction. */
  private roll(open: OpenTransaction, bucket: string, part: OpenPart): void {
    part.file.closeDurably();
    open.parts.delete(bucket);
  }
}

/**
 * After `mkdir -p dir` created `created` (the topmost new directory) and
 * everything below it: fsyncs the parent of every new directory, from `dir`'s
 * parent up to `created`'s, so the new directories survive a power loss (`dir`
 * itself is fsynced at pre-commit, with the part files in it).
 */
function fsyncParentsOfNew(dir: string, created: string): void {
  const top = dirname(created);
  for (let d = dirname(dir); ; d = dirname(d)) {
    fsyncDirSync(d);
    if (d === top || d === dirname(d)) return;
  }
}
