/**
 * The checkpoint coordinator: triggers, collects, stores and notifies checkpoints.
 * See `CheckpointCoordinator`.
 */
export { CheckpointCoordinator, type CheckpointCoordinatorOptions } from "./checkpoint-coordinator.ts";
export type { CheckpointIdSource, CoordinatorGateway, CompletedCheckpointStore } from "./ports.ts";
export { checkpointIdsFrom } from "./checkpoint-ids-from.ts";
export { ReservedCheckpointIds, type ReservedCheckpointIdsOptions } from "./reserved-checkpoint-ids.ts";
export {
  CheckpointAbortedError,
  CheckpointTriggerError,
  TolerableCheckpointFailuresExceeded,
  isFailureReason,
  type CheckpointAbortReason,
  type CheckpointTriggerRejection,
} from "./errors.ts";
export {
  STATS_HISTORY_LIMIT,
  type CheckpointStats,
  type CompletedCheckpointStats,
  type FailedCheckpointStats,
  type PendingCheckpointStats,
  type SubtaskAckStats,
} from "./checkpoint-stats.ts";
export { percentile } from "./percentile.ts";
export { decideTrigger, type TriggerDecision, type TriggerFacts } from "./trigger-decision.ts";
