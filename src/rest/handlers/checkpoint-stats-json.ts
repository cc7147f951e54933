/**
 * The coordinator's checkpoint statistics in Flink's shapes (snake_case, as
 * Flink's checkpoint endpoints answer): one entry per checkpoint (completed,
 * failed or in progress) with its per-vertex numbers, and one vertex's
 * per-subtask acknowledgements.
 */
import type {
  CompletedCheckpointStats,
  FailedCheckpointStats,
  PendingCheckpointStats,
  SubtaskAckStats,
} from "../../checkpoint/coordinator/index.ts";
import type { JobGraph, JobVertex } from "../../graph/job-graph.ts";
import { vertexHexId } from "../../graph/vertex-hex-id.ts";
import { statsSummary } from "./stats-summary.ts";

/** Any checkpoint the statistics know, tagged with its kind. */
export type AnyCheckpoint =
  | { readonly kind: "completed"; readonly stats: CompletedCheckpointStats }
  | { readonly kind: "failed"; readonly stats: FailedCheckpointStats }
  | { readonly kind: "in_progress"; readonly stats: PendingCheckpointStats };

const STATUS = { completed: "COMPLETED", failed: "FAILED", in_progress: "IN_PROGRESS" } as const;

/** The acks of `vertex` (internal task ids `vertexId#index`). */
function acksOf(acks: readonly SubtaskAckStats[], vertex: JobVertex): SubtaskAckStats[] {
  return acks.filter((a) => a.taskId.slice(0, a.taskId.lastIndexOf("#")) === vertex.id);
}

function endOf(c: AnyCheckpoint, acks: readonly SubtaskAckStats[]): number {
  if (c.kind === "completed") return c.stats.completedAt;
  if (c.kind === "failed") return c.stats.failedAt;
  return Math.max(c.stats.triggeredAt, ...acks.map((a) => a.ackedAt));
}

/** Flink's TaskCheckpointStatistics of `vertex` in checkpoint `c`. */
export function taskCheckpointJson(c: AnyCheckpoint, vertex: JobVertex): Record<string, unknown> {
  const acks = acksOf(c.stats.acks, vertex);
  const latest = acks.length === 0 ? -1 : Math.max(...acks.map((a) => a.ackedAt));
  return {
    id: c.stats.checkpointId,
    status: STATUS[c.kind],
    latest_ack_timestamp: latest,
    checkpointed_size: acks.reduce((n, a) => n + a.checkpointedSize, 0),
    state_size: acks.reduce((n, a) => n + a.stateSize, 0),
    end_to_end_duration: latest === -1 ? 0 : latest - c.stats.triggeredAt,
    alignment_buffered: 0,
    processed_data: 0,
    persisted_data: 0,
    num_subtasks: vertex.parallelism,
    num_acknowledged_subtasks: acks.length,
  };
}

/** Flink's CheckpointStatistics (completed, failed or in progress) of `c`. */
export function checkpointJson(c: AnyCheckpoint, graph: JobGraph): Record<string, unknown> {
  const s = c.stats;
  const latest = s.acks.length === 0 ? -1 : Math.max(...s.acks.map((a) => a.ackedAt));
  const base = {
    className: c.kind,
    id: s.checkpointId,
    status: STATUS[c.kind],
    is_savepoint: s.savepoint,
    ...(s.savepoint ? { savepointFormat: "CANONICAL" } : {}),
    trigger_timestamp: s.triggeredAt,
    latest_ack_timestamp: latest,
    checkpointed_size: s.acks.reduce((n, a) => n + a.checkpointedSize, 0),
    state_size: s.acks.reduce((n, a) => n + a.stateSize, 0),
    end_to_end_duration: endOf(c, s.acks) - s.triggeredAt,
    alignment_buffered: 0,
    processed_data: 0,
    persisted_data: 0,
    num_subtasks: s.subtasks,
    num_acknowledged_subtasks: s.acks.length,
    checkpoint_type: s.savepoint ? "SAVEPOINT" : "CHECKPOINT",
    tasks: Object.fromEntries(graph.vertices.map((v) => [vertexHexId(v), taskCheckpointJson(c, v)])),
  };
  if (c.kind === "completed") return { ...base, ...(c.stats.location === undefined ? {} : { external_path: c.stats.location }), discarded: false };
  if (c.kind === "failed") return { ...base, failure_timestamp: c.stats.failedAt, failure_message: c.stats.message };
  return base;
}

/** Flink's TaskCheckpointStatisticsWithSubtaskDetails: `vertex` in checkpoint `c`, with every subtask's acknowledgement. */
export function vertexCheckpointJson(c: AnyCheckpoint, vertex: JobVertex): Record<string, unknown> {
  const acks = acksOf(c.stats.acks, vertex);
  const byIndex = new Map(acks.map((a) => [Number(a.taskId.slice(a.taskId.lastIndexOf("#") + 1)), a]));
  const trigger = c.stats.triggeredAt;
  const subtasks = Array.from({ length: vertex.parallelism }, (_, index) => {
    const a = byIndex.get(index);
    if (!a) return { className: "pending", index, status: "pending_or_failed" };
    return {
      className: "completed",
      index,
      status: "completed",
      ack_timestamp: a.ackedAt,
      end_to_end_duration: a.ackedAt - trigger,
      state_size: a.stateSize,
      checkpointed_size: a.checkpointedSize,
      checkpoint: { sync: a.syncMs, async: a.asyncMs },
      alignment: { buffered: 0, processed: 0, persisted: 0, duration: a.alignmentMs },
      start_delay: 0,
      unaligned_checkpoint: false,
      aborted: c.kind === "failed",
    };
  });
  return {
    ...taskCheckpointJson(c, vertex),
    summary: {
      checkpointed_size: statsSummary(acks.map((a) => a.checkpointedSize)),
      state_size: statsSummary(acks.map((a) => a.stateSize)),
      end_to_end_duration: statsSummary(acks.map((a) => a.ackedAt - trigger)),
      checkpoint_duration: { sync: statsSummary(acks.map((a) => a.syncMs)), async: statsSummary(acks.map((a) => a.asyncMs)) },
      alignment: {
        buffered: statsSummary([]),
        processed: statsSummary([]),
        persisted: statsSummary([]),
        duration: statsSummary(acks.map((a) => a.alignmentMs)),
      },
      start_delay: statsSummary(acks.map(() => 0)),
    },
    subtasks,
  };
}
