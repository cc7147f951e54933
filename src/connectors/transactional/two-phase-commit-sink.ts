/**
 * The base of exactly-once sinks (Flink's `TwoPhaseCommitSinkFunction`): the
 * records between two checkpoint barriers form one transaction, pre-committed
 * (durable, invisible) at the barrier and committed (visible) when that
 * checkpoint completes.
 */
import type { Sink, SinkContext, SinkWriter } from "../../core/sink.ts";
import type { RestoredUserContext, TransactionContext } from "./transaction-context.ts";
import { TwoPhaseCommitWriter } from "./two-phase-commit-writer.ts";

/** Settings shared by every two-phase-commit sink. */
export interface TwoPhaseCommitOptions {
  /**
   * How long the external system keeps a transaction open (e.g. a database's or
   * broker's transaction timeout), in ms. When set, the sink warns (`ctx.logger`)
   * about a transaction still not committed after `timeoutWarningRatio` × this.
   */
  transactionTimeoutMs?: number;
  /** Fraction of `transactionTimeoutMs` after which to warn, in (0, 1] (default 0.8). */
  timeoutWarningRatio?: number;
}

/** A transaction timeout setting that cannot work. */
export class InvalidTransactionTimeoutError extends Error {
  constructor(what: string, value: number) {
    super(`two-phase-commit sink: ${what} must be ${what === "timeoutWarningRatio" ? "in (0, 1]" : "a positive number of ms"}, got ${value}`);
    this.name = "InvalidTransactionTimeoutError";
  }
}

/**
 * An exactly-once sink over a transactional system. Subclass it and implement
 * the five transaction hooks; the writer it creates (one per parallel subtask)
 * drives them:
 *
 * - `beginTransaction` when the writer starts and after every barrier;
 * - `invoke(txn, value)` for each record;
 * - `blocked(txn)` after every batch of records (optional, backpressure);
 * - before barrier n passes: `flush(txn)` (optional, asynchronous: the durable part of the
 *   pre-commit; the barrier waits for it, and a rejection fails the checkpoint);
 * - at barrier n: `preCommit(txn)` (make durable, still invisible), the
 *   handle is recorded as pending for n in operator state, the next transaction begins;
 * - `notifyCheckpointComplete(n)`: `commit` every pending transaction of a
 *   checkpoint ≤ n, oldest first (a newer completed checkpoint subsumes older
 *   ones, so late or skipped notifications lose nothing);
 * - `close`: `abort` the open transaction (pre-committed ones are left to recovery);
 * - restore: `recoverAndCommit` every pending transaction of the restored
 *   checkpoint (it is there only if that checkpoint completed, so it must become
 *   visible even if the crash came before the commit), `recoverAndAbort` the
 *   restored open transaction, then `cleanupLeftovers` for anything that no
 *   restored transaction owns (transactions begun after that checkpoint).
 *
 * An ABORTED checkpoint does not abort its pre-committed transaction: the
 * transaction stays pending and is committed with the next completed
 * checkpoint (aborting it would lose records the sources will not replay;
 * Flink does the same). `abort` is only for the open transaction at close and
 * for leftovers at restore.
 *
 * Rules for the hooks:
 * - a transaction handle (`TXN`) is stored in checkpoints: make it plain data
 *   (objects, arrays, strings, numbers); keep live resources (file descriptors,
 *   connections, buffers) elsewhere, e.g. in a `WeakMap` keyed by the handle;
 * - `commit` and `recoverAndCommit` must be idempotent: after a crash the same
 *   transaction may be committed again, possibly by another subtask. They get the
 *   id of the checkpoint that pre-committed the transaction (to name it in errors);
 *   one that throws fails the job, which restores and commits again: throw when
 *   a transaction cannot be committed without losing or replacing data;
 * - `beginTransaction`, `invoke` and `preCommit` are synchronous (they run
 *   between two records); a system with asynchronous writes (a broker, a
 *   database connection) buffers or sends in `invoke`, waits in `flush` (which may
 *   complete the handle's fields, e.g. an id the system assigned) and only checks
 *   in `preCommit` that nothing is left; `commit`, `abort` and the recovery hooks may be async;
 * - state is kept in a union list state: after a rescale the new subtask `s`
 *   recovers the transactions of every old subtask `i` with `i % parallelism === s`,
 *   so each is handled exactly once and nothing of a removed subtask is forgotten.
 *
 * Without checkpoints nothing is ever committed, except in a bounded job, whose
 * final checkpoint at end of input commits the rest.
 *
 * Fault injection: with the environment variable `WEIR_FAULT=kill-before-commit`
 * the process kills itself (SIGKILL) inside `notifyCheckpointComplete`, right
 * before the first commit of a transaction that received records — for crash
 * tests proving that such a checkpoint's data appears exactly once after restart.
 *
 * @typeParam IN - record type
 * @typeParam TXN - transaction handle (plain data)
 * @typeParam CTX - per-subtask data kept in checkpoints (default none)
 *
 * @example
 * ```ts
 * import { randomUUID } from "node:crypto";
 * import { appendFileSync, existsSync, renameSync, rmSync } from "node:fs";
 * // One file per transaction: written hidden, renamed into place on commit.
 * class DirectorySink extends TwoPhaseCommitSink<string, { tmp: string; target: string }> {
 *   constructor(private readonly dir: string) { super(); }
 *   beginTransaction(ctx: TransactionContext<null>) {
 *     const id = `${ctx.operatorUid}-${ctx.subtaskIndex}-${randomUUID()}`;
 *     return { tmp: `${this.dir}/.${id}.tmp`, target: `${this.dir}/${id}.txt` };
 *   }
 *   invoke(txn: { tmp: string }, line: string) { appendFileSync(txn.tmp, line + "\n"); }
 *   preCommit() {}                      // appendFileSync already wrote through (add fsync for power loss)
 *   commit(txn: { tmp: string; target: string }) {
 *     if (existsSync(txn.tmp)) renameSync(txn.tmp, txn.target); // idempotent
 *   }
 *   abort(txn: { tmp: string }) { rmSync(txn.tmp, { force: true }); }
 * }
 * stream.sinkTo(new DirectorySink("out"));
 * ```
 */
export abstract class TwoPhaseCommitSink<IN, TXN, CTX = null> implements Sink<IN> {
  /** Resolved settings (timeout undefined = no warnings). */
  readonly transactionOptions: Readonly<{ transactionTimeoutMs: number | undefined; timeoutWarningRatio: number }>;

  constructor(options: TwoPhaseCommitOptions = {}) {
    const timeout = options.transactionTimeoutMs;
    const ratio = options.timeoutWarningRatio ?? 0.8;
    if (timeout !== undefined && !(timeout > 0)) throw new InvalidTransactionTimeoutError("transactionTimeoutMs", timeout);
    if (!(ratio > 0 && ratio <= 1)) throw new InvalidTransactionTimeoutError("timeoutWarningRatio", ratio);
    this.transactionOptions = { transactionTimeoutMs: timeout, timeoutWarningRatio: ratio };
  }

  /** Creates the writer of one parallel subtask (called by the runtime). */
  createWriter(context: SinkContext): SinkWriter<IN> {
    return new TwoPhaseCommitWriter<IN, TXN, CTX>(this, context);
  }

  /** Starts a transaction and returns its handle (plain data). Synchronous. */
  abstract beginTransaction(ctx: TransactionContext<CTX>): TXN;

  /** Writes one record into the open transaction. Synchronous; keep it cheap (buffer). */
  abstract invoke(txn: TXN, value: IN, ctx: TransactionContext<CTX>): void;

  /**
   * Backpressure: undefined while the open transaction `txn` takes more records,
   * else a promise that resolves when it does (asked after every batch; the task
   * waits). Default: never blocked.
   */
  blocked(_txn: TXN, _ctx: TransactionContext<CTX>): Promise<void> | undefined {
    return undefined;
  }

  /**
   * Before barrier n passes the sink: the asynchronous, durable part of the
   * pre-commit of the open transaction `txn` (wait until every write reached the
   * system). The checkpoint waits for it; a rejection fails the checkpoint (the
   * job restores). It may fill in fields of the handle (plain data) that are
   * known only now; the handle is stored right after it, by `preCommit`.
   * Default: nothing.
   */
  flush(_txn: TXN, _ctx: TransactionContext<CTX>): void | Promise<void> {}

  /** At a barrier, after `flush`: make the transaction durable, still invisible. Synchronous. */
  abstract preCommit(txn: TXN, ctx: TransactionContext<CTX>): void;

  /** Makes a pre-committed transaction visible (`checkpointId`: the checkpoint that pre-committed it). Must be idempotent. */
  abstract commit(txn: TXN, ctx: TransactionContext<CTX>, checkpointId: number): void | Promise<void>;

  /** Discards a transaction and whatever it wrote. */
  abstract abort(txn: TXN, ctx: TransactionContext<CTX>): void | Promise<void>;

  /** The input's watermark advanced (default: nothing). */
  onWatermark(_watermark: number, _ctx: TransactionContext<CTX>): void {}

  /** The input ended; the open transaction is pre-committed and committed by the final checkpoint (default: nothing). */
  onEndOfInput(_ctx: TransactionContext<CTX>): void {}

  /**
   * After `onEndOfInput`: a promise the task waits for, taking mails meanwhile (checkpoint notifications
   * and the commits they run), before the final checkpoint's barrier reaches the sink — for a sink whose
   * open transaction `txn` needs earlier transactions committed first. Default: none.
   */
  pendingAtEnd(_txn: TXN, _ctx: TransactionContext<CTX>): Promise<void> | undefined {
    return undefined;
  }

  /** Commits a pending transaction found in the restored checkpoint (default: `commit`). */
  recoverAndCommit(txn: TXN, ctx: TransactionContext<CTX>, checkpointId: number): void | Promise<void> {
    return this.commit(txn, ctx, checkpointId);
  }

  /** Aborts the open transaction found in the restored checkpoint (default: `abort`). */
  recoverAndAbort(txn: TXN, ctx: TransactionContext<CTX>): void | Promise<void> {
    return this.abort(txn, ctx);
  }

  /**
   * The per-subtask user context at start: `restored` holds the contexts of
   * every old subtask (empty on a fresh start). Default: `null`.
   */
  initializeUserContext(_ctx: SinkContext, _restored: readonly RestoredUserContext<CTX>[]): CTX {
    return null as CTX;
  }

  /**
   * After restore, once the restored transactions this subtask cares for are
   * committed or aborted: remove what crashed attempts left behind that no
   * restored transaction owns. `restored` holds every restored transaction of
   * every old subtask (pending and open). Only touch leftovers of subtask
   * indexes `i` with `i % ctx.parallelism === ctx.subtaskIndex`, since the
   * other subtasks run at the same time. Default: nothing.
   */
  cleanupLeftovers(_ctx: TransactionContext<CTX>, _restored: readonly TXN[]): void | Promise<void> {}
}
