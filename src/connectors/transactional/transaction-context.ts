/**
 * The context a two-phase-commit sink's hooks receive: the writer's
 * `SinkContext` plus the sink's own per-subtask data.
 */
import type { SinkContext } from "../../core/sink.ts";

/**
 * What every hook of a `TwoPhaseCommitSink` gets: the parallel instance it
 * runs in (subtask, parallelism, operator uid, attempt, clock, logger) and the
 * per-subtask `userContext` (plain data, kept in checkpoints; mutate it in place).
 */
export interface TransactionContext<CTX> extends SinkContext {
  readonly userContext: CTX;
}

/** The user context one old subtask had in the restored checkpoint. */
export interface RestoredUserContext<CTX> {
  /** Subtask index of the old writer (may be ≥ the new parallelism after a rescale). */
  readonly subtask: number;
  readonly userContext: CTX;
}

/** The hooks' context of a writer: `sink` plus `userContext`, with the sink's functions bound. */
export function transactionContext<CTX>(sink: SinkContext, userContext: CTX): TransactionContext<CTX> {
  return {
    jobId: sink.jobId,
    subtaskIndex: sink.subtaskIndex,
    parallelism: sink.parallelism,
    operatorUid: sink.operatorUid,
    attempt: sink.attempt,
    clock: sink.clock,
    reportResult: (name, values) => sink.reportResult(name, values),
    logger: sink.logger,
    checkpointIntervalMs: sink.checkpointIntervalMs,
    userContext,
  };
}
