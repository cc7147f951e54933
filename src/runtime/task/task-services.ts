/**
 * What a running task reports to the job master, and the shared facilities it
 * uses. The task manager implements it (directly in-process, or by messages
 * from a worker thread).
 */
import type { TaskMetricsScope } from "./task-metrics.ts";
import type { CheckpointStorage } from "../../checkpoint/storage/index.ts";
import type { CheckpointSettings, CompletedCheckpoint, TaskAcknowledgement } from "../../checkpoint/types.ts";
import type { Clock } from "../../util/clock.ts";

/** Results a finished task hands to the job client, by name. */
export type TaskResults = Record<string, unknown[]>;

export interface TaskServices {
  /** Unique id of the run of the job. */
  readonly jobId: string;
  readonly attempt: number;
  readonly clock: Clock;
  readonly checkpointing: CheckpointSettings;
  /** Task-side checkpoint storage of this thread. */
  readonly storage: CheckpointStorage;
  /** The checkpoint to restore, or null for a fresh start. */
  readonly restore: CompletedCheckpoint | null;
  /** Source positions to start from instead of the checkpoint's (at-most-once failover), by source operator uid and subtask. */
  readonly sourceOverrides?: Readonly<Record<string, unknown[]>>;
  /** Records per batch. */
  readonly batchSize: number;
  /** Interval of periodic source watermarks in ms (0 disables). */
  readonly autoWatermarkIntervalMs: number;
  /** Where the task registers its metrics. */
  readonly metrics: TaskMetricsScope;
  acknowledge(ack: TaskAcknowledgement): void;
  decline(checkpointId: number, taskId: string, reason: string): void;
  /** The operators are restored and open: the task processes input (periodic checkpoints start once every task runs). */
  running(taskId: string): void;
  /** All input is processed and the operators finished; the task waits for the final checkpoint. */
  endOfData(taskId: string): void;
  finished(taskId: string, results: TaskResults): void;
  failed(taskId: string, error: Error): void;
  /** A source task with watermark alignment reports its watermark in its alignment `group`. */
  reportWatermark(taskId: string, group: string, watermark: number): void;
}
