/**
 * Two-phase-commit sinks: the base class of exactly-once sinks over
 * transactional systems, its writer, and the fault injection of crash tests.
 */
export {
  InvalidTransactionTimeoutError,
  TwoPhaseCommitSink,
  type TwoPhaseCommitOptions,
} from "./two-phase-commit-sink.ts";
export { TRANSACTION_STATE_NAME, TwoPhaseCommitWriter, WriterClosedError } from "./two-phase-commit-writer.ts";
export type { RestoredUserContext, TransactionContext } from "./transaction-context.ts";
export { caresFor, idsToCommit, type PendingTransaction, type TransactionStateRecord } from "./transaction-state.ts";
export { FAULT_ENV_VAR, faultRequested, type SinkFault } from "./fault-injection.ts";
