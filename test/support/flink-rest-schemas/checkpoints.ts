/** Answers about checkpoints: the configuration, the statistics with history, one checkpoint, one vertex in it. */
import { closed, flag, hexId, int, list, long, map, oneOfText, tagged, text, type Schema } from "./shape.ts";

/** `GET /jobs/:jid/checkpoints/config`: how the job checkpoints. */
export const checkpointConfig: Schema = closed(
  {
    mode: oneOfText("AT_LEAST_ONCE", "EXACTLY_ONCE"),
    interval: long,
    timeout: long,
    min_pause: long,
    max_concurrent: long,
    externalization: closed({ enabled: flag, delete_on_cancellation: flag }),
    state_backend: text,
    checkpoint_storage: text,
    unaligned_checkpoints: flag,
    tolerable_failed_checkpoints: int,
    aligned_checkpoint_timeout: long,
    checkpoints_after_tasks_finish: flag,
    state_changelog_enabled: flag,
    changelog_periodic_materialization_interval: long,
    changelog_storage: text,
  },
  ["state_backend", "checkpoint_storage", "aligned_checkpoint_timeout", "changelog_periodic_materialization_interval", "changelog_storage"],
);

const progress = oneOfText("IN_PROGRESS", "COMPLETED", "FAILED");

/** min / max / avg (whole numbers) and percentiles of a quantity over checkpoints or subtasks. */
const summary: Schema = closed({ min: long, max: long, avg: long, p50: { type: "number" }, p90: { type: "number" }, p95: { type: "number" }, p99: { type: "number" }, p999: { type: "number" } });

/** The sizes and times shared by a whole checkpoint and one vertex in it. */
const sizesAndTimes = {
  id: long,
  status: progress,
  latest_ack_timestamp: long,
  checkpointed_size: long,
  state_size: long,
  end_to_end_duration: long,
  alignment_buffered: long,
  processed_data: long,
  persisted_data: long,
  num_subtasks: int,
  num_acknowledged_subtasks: int,
};

const vertexInCheckpoint: Schema = closed(sizesAndTimes);

/** The fields of any checkpoint, whatever became of it. */
const anyCheckpoint = {
  ...sizesAndTimes,
  is_savepoint: flag,
  savepointFormat: text,
  trigger_timestamp: long,
  checkpoint_type: oneOfText("CHECKPOINT", "UNALIGNED_CHECKPOINT", "SAVEPOINT", "SYNC_SAVEPOINT"),
  tasks: { ...map(vertexInCheckpoint), propertyNames: hexId },
};

/** `savepointFormat` is only there for savepoints. */
const savepointOnly = ["savepointFormat"];

/** A checkpoint that completed: where it was written, and whether it was since discarded. */
export const completedCheckpoint: Schema = closed(
  { className: { const: "completed" }, ...anyCheckpoint, external_path: text, discarded: flag },
  [...savepointOnly, "external_path"],
);
/** A checkpoint that failed: when and why. */
const failedCheckpoint: Schema = closed(
  { className: { const: "failed" }, ...anyCheckpoint, failure_timestamp: long, failure_message: text },
  [...savepointOnly, "failure_message"],
);
const pendingCheckpoint: Schema = closed({ className: { const: "in_progress" }, ...anyCheckpoint }, savepointOnly);

/** `GET /jobs/:jid/checkpoints/details/:cid`: one checkpoint, told apart by `className`. */
export const checkpointDetails: Schema = tagged("className", { completed: completedCheckpoint, failed: failedCheckpoint, in_progress: pendingCheckpoint });

/** `GET /jobs/:jid/checkpoints`: counts, percentiles, the latest of each kind and the recent history. */
export const checkpointStatistics: Schema = closed({
  counts: closed({ restored: long, total: long, in_progress: int, completed: long, failed: long }),
  summary: closed({
    checkpointed_size: summary,
    state_size: summary,
    end_to_end_duration: summary,
    alignment_buffered: summary,
    processed_data: summary,
    persisted_data: summary,
  }),
  latest: closed(
    {
      completed: completedCheckpoint,
      savepoint: completedCheckpoint,
      failed: failedCheckpoint,
      restored: closed({ id: long, restore_timestamp: long, is_savepoint: flag, external_path: text }, ["external_path"]),
    },
    ["completed", "savepoint", "failed", "restored"],
  ),
  history: list(checkpointDetails),
});

const acknowledged: Schema = closed({
  className: { const: "completed" },
  index: int,
  status: { const: "completed" },
  ack_timestamp: long,
  end_to_end_duration: long,
  state_size: long,
  checkpointed_size: long,
  checkpoint: closed({ sync: long, async: long }),
  alignment: closed({ buffered: long, processed: long, persisted: long, duration: long }),
  start_delay: long,
  unaligned_checkpoint: flag,
  aborted: flag,
});
const notAcknowledged: Schema = closed({ className: { const: "pending" }, index: int, status: { const: "pending_or_failed" } });

/** `GET /jobs/:jid/checkpoints/details/:cid/subtasks/:vid`: one vertex in a checkpoint, with each subtask's acknowledgement. */
export const vertexCheckpointDetails: Schema = closed({
  ...sizesAndTimes,
  summary: closed({
    checkpointed_size: summary,
    state_size: summary,
    end_to_end_duration: summary,
    checkpoint_duration: closed({ sync: summary, async: summary }),
    alignment: closed({ buffered: summary, processed: summary, persisted: summary, duration: summary }),
    start_delay: summary,
  }),
  subtasks: list(tagged("className", { completed: acknowledged, pending: notAcknowledged })),
});
