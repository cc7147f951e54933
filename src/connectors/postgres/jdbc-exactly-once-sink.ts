/**
 * The exactly-once JDBC sink on the project's two-phase-commit base: one PostgreSQL transaction per
 * subtask per checkpoint, prepared at the barrier and committed when the checkpoint completes.
 *
 * - Rows go into the open transaction in batches (`BEGIN` with the first one, on the subtask's work
 *   connection); its xid (`pg_current_xact_id()`) is noted then.
 * - `flush` (before the barrier): the last batch, then `PREPARE TRANSACTION '<id>'`; the handle stored in
 *   the checkpoint holds the id and the xid. A transaction without rows prepares nothing.
 * - The checkpoint completes: `COMMIT PREPARED '<id>'` on the subtask's control connection (another one:
 *   the work connection is already in the next transaction). A commit that finds no such prepared
 *   transaction asks `pg_xact_status(xid)`: `committed` (an earlier attempt committed it before dying) is
 *   fine; `aborted` means the rows are lost, and the job fails with `JdbcTransactionLostError`.
 * - Start: the restored pending transactions are committed; then the prepared transactions of this
 *   prefix that no restored checkpoint owns (what killed attempts prepared after it) are rolled back,
 *   by the subtask that cares for their old subtask index; `max_prepared_transactions = 0` fails here.
 * - A prepared transaction keeps its row locks until its commit, so the next transaction's statements
 *   (an upsert of the same key) would wait for it, and the commit runs only when the task takes the
 *   checkpoint's notification: the statements are held back (in memory, with backpressure) until the
 *   subtask's prepared transactions are committed. When a barrier comes first, the held rows are not
 *   sent (they could wait for a commit that cannot run during the barrier): they stay unwritten, kept in
 *   the checkpoint (the subtask's user context) and in the next transaction — a restore from that
 *   checkpoint writes them again, into its first transaction.
 * - A lost connection loses the open transaction: the batch fails, and the job restores and replays.
 */
import type * as Pg from "pg";
import type { SinkContext } from "../../core/sink.ts";
import type { RestoredUserContext, TransactionContext } from "../transactional/transaction-context.ts";
import { caresFor } from "../transactional/transaction-state.ts";
import { TwoPhaseCommitSink } from "../transactional/two-phase-commit-sink.ts";
import { runSteps, type JdbcWork } from "./jdbc-batch.ts";
import { JdbcBatchPump } from "./jdbc-batch-pump.ts";
import { JdbcPreparedTransactionsDisabledError, JdbcSinkError, JdbcTransactionLostError } from "./jdbc-sink-errors.ts";
import type { JdbcSinkSettings } from "./jdbc-sink-settings.ts";
import { leftoverIds, preparedTransactionId, runOf } from "./jdbc-transaction-ids.ts";
import { connect } from "./postgres-connect.ts";
import { errorCode, isTransientPostgresError } from "./postgres-errors.ts";

/** The handle of one prepared transaction, stored in checkpoints (plain data). */
export interface JdbcTransaction {
  /** The global transaction id of `PREPARE TRANSACTION`. */
  readonly gid: string;
  /** The transaction's xid (xid8, decimal), set at its flush; null while unprepared or without rows. */
  xid: string | null;
}

/** The default prefix: `weir-` and the operator uid, with characters outside `[A-Za-z0-9_.:-]` as `_`. */
export function defaultTransactionIdPrefix(operatorUid: string): string {
  return `weir-${operatorUid.replace(/[^A-Za-z0-9_.:-]/g, "_")}`.slice(0, 128);
}

function quote(gid: string): string {
  return `'${gid.replace(/'/g, "''")}'`;
}

/** What each subtask keeps in checkpoints: rows not yet written at the barrier (see the header). */
export interface JdbcSinkUserContext {
  deferred: unknown[];
}

/** How long the end of the input waits for the commits that held-back rows need. */
const END_OF_INPUT_WAIT_MS = 60_000;

/** The transactions of one subtask (one instance per writer: it holds the subtask's connections). */
export class JdbcSubtaskTransactions<T> extends TwoPhaseCommitSink<T, JdbcTransaction, JdbcSinkUserContext> {
  private readonly where: string;
  private readonly prefix: string;
  private readonly run: string;
  /** `application_name` stem of the subtask's connections. */
  private readonly purpose: string;
  private n = 0;
  private pump: JdbcBatchPump<T> | undefined;
  /** The open transaction has begun on the work connection (it has rows). */
  private began = false;
  private xid: string | null = null;
  private work: Pg.Client | undefined;
  private control: Promise<Pg.Client> | undefined;
  /** The input ended: the next barrier is the last, with no transaction after it to take held rows. */
  private ended = false;
  /** This writer's prepared transactions not yet committed, with what resolves at their commit. */
  private readonly uncommitted = new Map<string, { done: Promise<void>; resolve: () => void; committing: boolean }>();

  constructor(
    private readonly settings: JdbcSinkSettings<T>,
    ctx: SinkContext,
  ) {
    super();
    this.where = `${settings.name} '${ctx.operatorUid}' subtask ${ctx.subtaskIndex + 1}/${ctx.parallelism} (${settings.connection.describe()})`;
    this.prefix = settings.exactlyOnce.transactionIdPrefix ?? defaultTransactionIdPrefix(ctx.operatorUid);
    this.run = runOf(ctx.jobId);
    this.purpose = `weir ${settings.name} ${ctx.operatorUid}#${ctx.subtaskIndex}`;
  }

  /** The rows old subtasks in this one's care had not written at their checkpoint. */
  override initializeUserContext(ctx: SinkContext, restored: readonly RestoredUserContext<JdbcSinkUserContext>[]): JdbcSinkUserContext {
    const mine = restored.filter((r) => caresFor(ctx.subtaskIndex, ctx.parallelism, r.subtask)).sort((a, b) => a.subtask - b.subtask);
    return { deferred: mine.flatMap((r) => r.userContext?.deferred ?? []) };
  }

  beginTransaction(ctx: TransactionContext<JdbcSinkUserContext>): JdbcTransaction {
    const gid = preparedTransactionId(this.prefix, ctx.subtaskIndex, this.run, ctx.attempt, this.n++);
    this.pump = new JdbcBatchPump(this.settings.batch(), this.settings.execution.batchSize, (work) => this.runInTransaction(work), () => this.earlierCommits());
    this.pump.batch.putBack(ctx.userContext.deferred);
    this.began = false;
    this.xid = null;
    return { gid, xid: null };
  }

  invoke(_txn: JdbcTransaction, value: T): void {
    this.pump!.add(value);
  }

  override blocked(): Promise<void> | undefined {
    return this.pump?.blocked();
  }

  /**
   * Before the barrier: the last rows, then PREPARE TRANSACTION; the xid goes into the handle. With an
   * earlier prepared transaction whose commit has not started, nothing was written yet: the rows are
   * kept in the checkpoint instead (see the header).
   */
  override async flush(txn: JdbcTransaction, ctx: TransactionContext<JdbcSinkUserContext>): Promise<void> {
    const waiting = [...this.uncommitted.values()];
    if (!this.began && waiting.some((u) => !u.committing)) {
      if (this.ended && this.pump!.batch.size > 0)
        throw new Error(
          `${this.where}: the input ended with rows held back by prepared transaction(s) ${[...this.uncommitted.keys()].join(", ")}, ` +
            "whose checkpoint's notification has not arrived before the final barrier: failing this checkpoint, so that the job restores and writes them",
        );
      ctx.userContext.deferred = this.pump!.batch.takePending();
      return;
    }
    await Promise.all(waiting.map((u) => u.done));
    await this.pump!.drained({ force: true });
    ctx.userContext.deferred = [];
    if (!this.began) return;
    try {
      await this.work!.query(`PREPARE TRANSACTION ${quote(txn.gid)}`);
    } catch (e) {
      this.dropWork();
      throw new JdbcSinkError(this.where, `PREPARE TRANSACTION ${quote(txn.gid)}`, e);
    }
    txn.xid = this.xid;
    let resolve!: () => void;
    const done = new Promise<void>((r) => (resolve = r));
    this.uncommitted.set(txn.gid, { done, resolve, committing: false });
  }

  /** Resolves when the prepared transactions of this writer are committed (undefined: none waits). */
  private earlierCommits(): Promise<void> | undefined {
    if (this.uncommitted.size === 0) return undefined;
    return Promise.all([...this.uncommitted.values()].map((u) => u.done)).then(() => undefined);
  }

  private settled(gid: string): void {
    this.uncommitted.get(gid)?.resolve();
    this.uncommitted.delete(gid);
  }

  override onEndOfInput(): void {
    this.ended = true;
  }

  /**
   * The input ended with rows held back by uncommitted prepared transactions: the task waits, taking the
   * checkpoint notifications that commit them, so the held rows go into the last transaction. After
   * `END_OF_INPUT_WAIT_MS` (a checkpoint that never completes) it goes on, and the final checkpoint fails
   * as `flush` says.
   */
  override pendingAtEnd(_txn: JdbcTransaction, ctx: TransactionContext<JdbcSinkUserContext>): Promise<void> | undefined {
    const commits = this.pump !== undefined && this.pump.batch.size > 0 ? this.earlierCommits() : undefined;
    if (commits === undefined) return undefined;
    return new Promise<void>((resolve) => {
      const timer = ctx.clock.setTimeout(resolve, END_OF_INPUT_WAIT_MS);
      void commits.then(() => {
        timer.cancel();
        resolve();
      });
    });
  }

  preCommit(txn: JdbcTransaction): void {
    if (this.began && txn.xid === null) throw new Error(`${this.where}: transaction '${txn.gid}' reached its pre-commit unprepared (no flush before the barrier)`);
  }

  async commit(txn: JdbcTransaction, _ctx: TransactionContext<JdbcSinkUserContext>, checkpointId: number): Promise<void> {
    const u = this.uncommitted.get(txn.gid);
    if (u !== undefined) u.committing = true;
    try {
      if (txn.xid !== null) await this.commitPrepared(txn, checkpointId);
    } finally {
      this.settled(txn.gid);
    }
  }

  override async recoverAndCommit(txn: JdbcTransaction, ctx: TransactionContext<JdbcSinkUserContext>, checkpointId: number): Promise<void> {
    if (txn.xid === null) return;
    const outcome = await this.commitPrepared(txn, checkpointId);
    ctx.logger.info(
      outcome === "committed"
        ? `committed prepared transaction '${txn.gid}' of checkpoint ${checkpointId}`
        : `prepared transaction '${txn.gid}' of checkpoint ${checkpointId} was committed before (xid ${txn.xid})`,
    );
  }

  /** The restored open transaction is rolled back with the other leftovers, if it was prepared at all. */
  override recoverAndAbort(): void {}

  /** Close: the open transaction is rolled back; pending prepared ones are left to the next start. */
  async abort(txn: JdbcTransaction): Promise<void> {
    await this.pump?.stop();
    for (const gid of [...this.uncommitted.keys()]) this.settled(gid);
    try {
      if (txn.xid !== null) await (await this.controlConnection()).query(`ROLLBACK PREPARED ${quote(txn.gid)}`);
      else if (this.began) await this.work?.query("ROLLBACK");
    } catch {
      // A lost connection rolls back an unprepared transaction; a prepared one is a leftover for the next start.
    }
    this.dropWork();
    const control = this.control;
    this.control = undefined;
    void control?.then((c) => c.end()).catch(() => undefined);
  }

  /** At start: checks the statements, then rolls back this prefix's prepared transactions that nobody restored. */
  override async cleanupLeftovers(ctx: TransactionContext<JdbcSinkUserContext>, restored: readonly JdbcTransaction[]): Promise<void> {
    const control = await this.controlConnection();
    try {
      await this.settings.batch().check(control);
    } catch (e) {
      throw errorCode(e) === undefined ? e : new JdbcSinkError(this.where, this.settings.batch().describe(), e);
    }
    if (!this.settings.exactlyOnce.recoveredAndRollback) return;
    const keep = new Set(restored.filter((t) => t.xid !== null).map((t) => t.gid));
    const like = `${this.prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}-%`;
    const prepared = await control.query<{ gid: string }>("SELECT gid FROM pg_prepared_xacts WHERE database = current_database() AND gid LIKE $1", [like]);
    for (const gid of leftoverIds(this.prefix, ctx.subtaskIndex, ctx.parallelism, prepared.rows.map((r) => r.gid), keep)) {
      try {
        await control.query(`ROLLBACK PREPARED ${quote(gid)}`);
        ctx.logger.info(`rolled back leftover prepared transaction '${gid}'`);
      } catch (e) {
        if (errorCode(e) !== "42704") throw new JdbcSinkError(this.where, `ROLLBACK PREPARED ${quote(gid)}`, e);
      }
    }
  }

  /** COMMIT PREPARED, retried on transient errors; a missing transaction is told apart by its xid's status. */
  private async commitPrepared(txn: JdbcTransaction, checkpointId: number): Promise<"committed" | "before"> {
    const attempts = this.settings.exactlyOnce.maxCommitAttempts;
    for (let attempt = 1; ; attempt++) {
      try {
        const control = await this.controlConnection();
        try {
          await control.query(`COMMIT PREPARED ${quote(txn.gid)}`);
          return "committed";
        } catch (e) {
          if (errorCode(e) !== "42704") throw e;
        }
        const status = (await control.query<{ status: string | null }>("SELECT pg_xact_status($1::xid8) AS status", [txn.xid])).rows[0]!.status;
        if (status === "committed") return "before";
        throw new JdbcTransactionLostError(this.where, txn.gid, txn.xid!, checkpointId, status);
      } catch (e) {
        if (e instanceof JdbcTransactionLostError || e instanceof JdbcPreparedTransactionsDisabledError) throw e;
        if (!isTransientPostgresError(e) || attempt >= attempts) throw new JdbcSinkError(this.where, `COMMIT PREPARED ${quote(txn.gid)}`, e, attempt);
        const control = this.control;
        this.control = undefined;
        void control?.then((c) => c.end()).catch(() => undefined);
        await new Promise((resolve) => setTimeout(resolve, 1000 * attempt));
      }
    }
  }

  private async runInTransaction(work: JdbcWork): Promise<void> {
    try {
      this.work ??= await connect(this.settings.connection, { purpose: `${this.purpose} work` });
      const client = this.work;
      if (!this.began) {
        await client.query("BEGIN");
        this.began = true;
        this.xid = (await client.query<{ xid: string }>("SELECT pg_current_xact_id()::text AS xid")).rows[0]!.xid;
      }
      await runSteps(client, work.steps, true);
    } catch (e) {
      this.dropWork();
      throw new JdbcSinkError(this.where, this.pump!.batch.describe(), e);
    }
  }

  private dropWork(): void {
    const work = this.work;
    this.work = undefined;
    void work?.end().catch(() => undefined);
  }

  /** The control connection; its first opening checks that the server allows prepared transactions. */
  private controlConnection(): Promise<Pg.Client> {
    this.control ??= (async () => {
      const client = await connect(this.settings.connection, { purpose: `${this.purpose} control` });
      const setting = await client.query<{ n: string }>("SELECT current_setting('max_prepared_transactions') AS n");
      if (Number(setting.rows[0]!.n) === 0) {
        await client.end().catch(() => undefined);
        throw new JdbcPreparedTransactionsDisabledError(this.where);
      }
      return client;
    })();
    const opening = this.control;
    opening.catch(() => {
      if (this.control === opening) this.control = undefined;
    });
    return opening;
  }
}
