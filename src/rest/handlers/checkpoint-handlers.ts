/**
 * The checkpoints of a job: `/jobs/:jid/checkpoints` (counts, summary, latest,
 * history: the last `web.checkpoints.history`), `/checkpoints/config`, `/checkpoints/details/:cid` and
 * `/checkpoints/details/:cid/subtasks/:vid` (every subtask's acknowledgement).
 * The statistics are those of the current attempt (a restart starts new ones).
 */
import type { CheckpointStats } from "../../checkpoint/coordinator/index.ts";
import { Configuration } from "../../config/configuration.ts";
import { WEB_CHECKPOINTS_HISTORY } from "../../config/options/rest-options.ts";
import type { JobClient } from "../../deploy/job-client.ts";
import { jobOf, vertexOf, type RestContext } from "../rest-context.ts";
import { RestError } from "../rest-error.ts";
import { ok, type Router } from "../router.ts";
import { checkpointJson, vertexCheckpointJson, type AnyCheckpoint } from "./checkpoint-stats-json.ts";
import { statsSummary } from "./stats-summary.ts";

const EMPTY: CheckpointStats = {
  counts: { triggered: 0, completed: 0, failed: 0, aborted: 0, inProgress: 0 },
  consecutiveFailures: 0,
  history: { completed: [], failed: [] },
  pending: [],
};

/** Every checkpoint in the statistics, newest first. */
function allCheckpoints(stats: CheckpointStats): AnyCheckpoint[] {
  const all: AnyCheckpoint[] = [
    ...stats.history.completed.map((s) => ({ kind: "completed" as const, stats: s })),
    ...stats.history.failed.map((s) => ({ kind: "failed" as const, stats: s })),
    ...stats.pending.map((s) => ({ kind: "in_progress" as const, stats: s })),
  ];
  return all.sort((a, b) => b.stats.checkpointId - a.stats.checkpointId);
}

/** `web.checkpoints.history` of `job`'s configuration, else of the server's, else its default. */
function historySize(job: JobClient, context: RestContext): number {
  const key = WEB_CHECKPOINTS_HISTORY.key;
  const text = job.getConfiguration()[key] ?? context.configuration()[key];
  return text === undefined ? WEB_CHECKPOINTS_HISTORY.defaultValue : Configuration.fromMap({ [key]: text }).get(WEB_CHECKPOINTS_HISTORY);
}

function checkpointingJson(job: JobClient, context: RestContext): object {
  const stats = job.getCheckpointStats() ?? EMPTY;
  const graph = job.getJobGraph();
  const completed = stats.history.completed.filter((c) => !c.savepoint);
  const savepoints = stats.history.completed.filter((c) => c.savepoint);
  const failed = stats.history.failed;
  const restored = job.getRestoredCheckpoint();
  const all = allCheckpoints(stats);
  return {
    counts: {
      restored: restored ? 1 : 0,
      total: stats.counts.triggered,
      in_progress: stats.counts.inProgress,
      completed: stats.counts.completed,
      failed: stats.counts.failed + stats.counts.aborted,
    },
    summary: {
      checkpointed_size: statsSummary(stats.history.completed.map((c) => c.checkpointedSize)),
      state_size: statsSummary(stats.history.completed.map((c) => c.stateSize)),
      end_to_end_duration: statsSummary(stats.history.completed.map((c) => c.durationMs)),
      alignment_buffered: statsSummary([]),
      processed_data: statsSummary([]),
      persisted_data: statsSummary([]),
    },
    latest: {
      ...(completed.length > 0 && { completed: checkpointJson({ kind: "completed", stats: completed.at(-1)! }, graph) }),
      ...(savepoints.length > 0 && { savepoint: checkpointJson({ kind: "completed", stats: savepoints.at(-1)! }, graph) }),
      ...(failed.length > 0 && { failed: checkpointJson({ kind: "failed", stats: failed.at(-1)! }, graph) }),
      ...(restored && {
        restored: {
          id: restored.checkpointId,
          restore_timestamp: job.getStatusTimestamps().CREATED ?? 0,
          is_savepoint: restored.savepoint,
          ...(restored.directory === undefined ? {} : { external_path: restored.directory }),
        },
      }),
    },
    history: all.slice(0, historySize(job, context)).map((c) => checkpointJson(c, graph)),
  };
}

function checkpointConfigJson(job: JobClient): object {
  const s = job.getCheckpointSettings();
  if (s.intervalMs <= 0) throw new RestError(404, `Checkpointing is not enabled for job ${job.getJobId()}`);
  return {
    mode: s.mode === "exactly-once" ? "EXACTLY_ONCE" : "AT_LEAST_ONCE",
    interval: s.intervalMs,
    timeout: s.timeoutMs,
    min_pause: s.minPauseMs,
    max_concurrent: s.maxConcurrent,
    externalization: { enabled: s.storage.type === "filesystem", delete_on_cancellation: false },
    state_backend: s.stateBackend?.type ?? "heap",
    checkpoint_storage: s.storage.type,
    unaligned_checkpoints: false,
    tolerable_failed_checkpoints: s.tolerableFailures,
    aligned_checkpoint_timeout: 0,
    checkpoints_after_tasks_finish: true,
    state_changelog_enabled: false,
  };
}

/** Checkpoint `cid` of `job`; a 404 when the statistics do not have it. */
function checkpointOf(job: JobClient, cid: string): AnyCheckpoint {
  if (!/^\d+$/.test(cid)) throw new RestError(400, `'${cid}' is not a checkpoint id: a whole number expected`);
  const found = allCheckpoints(job.getCheckpointStats() ?? EMPTY).find((c) => c.stats.checkpointId === Number(cid));
  if (!found) throw new RestError(404, `Could not find checkpointing statistics for checkpoint ${cid}`);
  return found;
}

/** Adds the checkpoint routes to `router`. */
export function checkpointRoutes(router: Router, context: RestContext): void {
  router
    .get("/jobs/:jid/checkpoints", ({ params }) => ok(checkpointingJson(jobOf(context, params["jid"]!), context)))
    .get("/jobs/:jid/checkpoints/config", ({ params }) => ok(checkpointConfigJson(jobOf(context, params["jid"]!))))
    .get("/jobs/:jid/checkpoints/details/:cid", ({ params }) => {
      const job = jobOf(context, params["jid"]!);
      return ok(checkpointJson(checkpointOf(job, params["cid"]!), job.getJobGraph()));
    })
    .get("/jobs/:jid/checkpoints/details/:cid/subtasks/:vid", ({ params }) => {
      const job = jobOf(context, params["jid"]!);
      const vertex = vertexOf(job, params["vid"]!);
      return ok(vertexCheckpointJson(checkpointOf(job, params["cid"]!), vertex));
    });
}
