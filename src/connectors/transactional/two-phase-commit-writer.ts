/**
 * The writer of one parallel subtask of a `TwoPhaseCommitSink`: owns the open
 * transaction and the pending ones, keeps them in operator state and calls the
 * sink's hooks at records, barriers, notifications, restore and close.
 */
import type {
  CheckpointListener,
  CheckpointedFunction,
  FunctionInitializationContext,
  FunctionSnapshotContext,
} from "../../core/checkpointed-function.ts";
import type { SinkContext, SinkWriter } from "../../core/sink.ts";
import { ListStateDescriptor, type ListState } from "../../state/index.ts";
import type { TimerHandle } from "../../util/clock.ts";
import { faultRequested, killProcess } from "./fault-injection.ts";
import { transactionContext, type TransactionContext } from "./transaction-context.ts";
import { caresFor, idsToCommit, type TransactionStateRecord } from "./transaction-state.ts";
import type { TwoPhaseCommitSink } from "./two-phase-commit-sink.ts";

/** Name of the union list state holding one `TransactionStateRecord` per subtask. */
export const TRANSACTION_STATE_NAME = "two-phase-commit-transactions";

/** Writing to a writer after `close`. */
export class WriterClosedError extends Error {
  constructor(operatorUid: string, subtask: number) {
    super(`two-phase-commit sink '${operatorUid}' subtask ${subtask}: write after close (no open transaction)`);
    this.name = "WriterClosedError";
  }
}

/**
 * Runs the two-phase-commit protocol for one subtask (created by
 * `TwoPhaseCommitSink.createWriter`; the runtime calls its methods).
 */
export class TwoPhaseCommitWriter<IN, TXN, CTX>
  implements SinkWriter<IN>, CheckpointedFunction, CheckpointListener
{
  private state!: ListState<TransactionStateRecord<TXN, CTX>>;
  private txCtx!: TransactionContext<CTX>;
  private current: TXN | null = null;
  /** Pre-committed transactions by checkpoint id, in barrier order. */
  private readonly pending = new Map<number, TXN>();
  /** Transactions that received at least one record. */
  private readonly withData = new Set<TXN>();
  private readonly warnings = new Map<TXN, TimerHandle>();
  /** Commits run one notification after the other. */
  private commits: Promise<void> = Promise.resolve();

  constructor(
    private readonly sink: TwoPhaseCommitSink<IN, TXN, CTX>,
    private readonly ctx: SinkContext,
  ) {}

  /** Registers the state, recovers the restored transactions, begins the first one. */
  async initializeState(context: FunctionInitializationContext): Promise<void> {
    this.state = context.getOperatorStateStore().getUnionListState(new ListStateDescriptor<TransactionStateRecord<TXN, CTX>>(TRANSACTION_STATE_NAME));
    const restored = context.isRestored() ? this.state.get() : [];
    const userContext = this.sink.initializeUserContext(
      this.ctx,
      restored.map((r) => ({ subtask: r.subtask, userContext: r.userContext })),
    );
    this.txCtx = transactionContext(this.ctx, userContext);
    const mine = restored.filter((r) => caresFor(this.ctx.subtaskIndex, this.ctx.parallelism, r.subtask));
    for (const r of mine) {
      for (const p of [...r.pending].sort((a, b) => a.checkpointId - b.checkpointId)) await this.sink.recoverAndCommit(p.txn, this.txCtx, p.checkpointId);
    }
    for (const r of mine) if (r.current !== null) await this.sink.recoverAndAbort(r.current, this.txCtx);
    const all = restored.flatMap((r) => (r.current === null ? r.pending.map((p) => p.txn) : [...r.pending.map((p) => p.txn), r.current]));
    await this.sink.cleanupLeftovers(this.txCtx, all);
    this.state.clear();
    this.current = this.begin();
  }

  write(value: IN): void {
    const txn = this.current;
    if (txn === null) throw new WriterClosedError(this.ctx.operatorUid, this.ctx.subtaskIndex);
    this.sink.invoke(txn, value, this.txCtx);
    this.withData.add(txn);
  }

  /** Backpressure of the open transaction (the sink's `blocked` hook). */
  blocked(): Promise<void> | undefined {
    const txn = this.current;
    return txn === null ? undefined : this.sink.blocked(txn, this.txCtx);
  }

  /** Before barrier n passes: the asynchronous part of the open transaction's pre-commit (the sink's `flush` hook). */
  flush(): void | Promise<void> {
    const txn = this.current;
    return txn === null ? undefined : this.sink.flush(txn, this.txCtx);
  }

  writeWatermark(watermark: number): void {
    this.sink.onWatermark(watermark, this.txCtx);
  }

  finish(): void {
    this.sink.onEndOfInput(this.txCtx);
  }

  settleAtEnd(): Promise<void> | undefined {
    return this.current === null ? undefined : this.sink.pendingAtEnd(this.current, this.txCtx);
  }

  /** Barrier n: pre-commit the open transaction as pending for n, begin the next, record both. */
  snapshotState(context: FunctionSnapshotContext): void {
    const id = context.getCheckpointId();
    const txn = this.current;
    if (txn !== null) {
      this.sink.preCommit(txn, this.txCtx);
      this.pending.set(id, txn);
      this.current = this.begin();
    }
    this.state.update([
      {
        subtask: this.ctx.subtaskIndex,
        pending: [...this.pending].map(([checkpointId, t]) => ({ checkpointId, txn: t })),
        current: this.current,
        userContext: this.txCtx.userContext,
      },
    ]);
  }

  /** Commits every pending transaction of a checkpoint ≤ `checkpointId`, oldest first. */
  notifyCheckpointComplete(checkpointId: number): Promise<void> {
    const run = this.commits.catch(() => undefined).then(() => this.commitUpTo(checkpointId));
    this.commits = run;
    return run;
  }

  /** Aborts the open transaction; pending ones are left to the next restore. */
  async close(): Promise<void> {
    await this.commits.catch(() => undefined);
    for (const t of this.warnings.values()) t.cancel();
    this.warnings.clear();
    const txn = this.current;
    this.current = null;
    if (txn !== null) await this.sink.abort(txn, this.txCtx);
  }

  private async commitUpTo(checkpointId: number): Promise<void> {
    for (const id of idsToCommit(this.pending.keys(), checkpointId)) {
      const txn = this.pending.get(id);
      if (txn === undefined) continue;
      if (this.withData.has(txn) && faultRequested("kill-before-commit")) killProcess();
      await this.sink.commit(txn, this.txCtx, id);
      this.pending.delete(id);
      this.withData.delete(txn);
      this.warnings.get(txn)?.cancel();
      this.warnings.delete(txn);
    }
  }

  private begin(): TXN {
    const txn = this.sink.beginTransaction(this.txCtx);
    const { transactionTimeoutMs: timeout, timeoutWarningRatio: ratio } = this.sink.transactionOptions;
    if (timeout !== undefined) {
      const after = timeout * ratio;
      this.warnings.set(
        txn,
        this.ctx.clock.setTimeout(() => {
          this.warnings.delete(txn);
          this.ctx.logger.warn(
            `a transaction is still not committed after ${after} ms (${ratio} of the transaction timeout of ${timeout} ms): ` +
              "it may expire before its checkpoint completes; checkpoint more often or raise the timeout",
          );
        }, after),
      );
    }
    return txn;
  }
}
