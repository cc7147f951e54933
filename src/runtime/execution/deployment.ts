/**
 * The messages between the job master (main thread) and the task managers
 * (the main thread itself, or worker threads). Pure data: they cross threads
 * by structured clone. Every message carries the attempt it belongs to, so
 * what is left of a cancelled attempt is ignored.
 */
import type { CheckpointBarrier, CheckpointSettings, CompletedCheckpoint, TaskAcknowledgement } from "../../checkpoint/types.ts";
import type { MetricSnapshot } from "../../metrics/metric-snapshot.ts";
import type { TaskResults } from "../task/task-services.ts";
import type { GroupLowest } from "../task/source-alignment.ts";

/** Start every task of a thread for attempt `attempt`. */
export interface Deployment {
  /** Unique id of the run of the job. */
  readonly jobId: string;
  /** The job's name (metric scopes). */
  readonly jobName: string;
  readonly attempt: number;
  readonly checkpointing: CheckpointSettings;
  readonly restore: CompletedCheckpoint | null;
  readonly sourceOverrides?: Record<string, unknown[]>;
  readonly batchSize: number;
  readonly autoWatermarkIntervalMs: number;
}

/** An error as it crosses a thread. */
export interface ErrorInfo {
  readonly name: string;
  readonly message: string;
  readonly stack?: string;
}

/** What task managers report to the job master. */
export interface TaskManagerEvents {
  acknowledge(attempt: number, ack: TaskAcknowledgement): void;
  decline(attempt: number, checkpointId: number, taskId: string, reason: string): void;
  /** Task `taskId` restored its state and runs. */
  running(attempt: number, taskId: string): void;
  endOfData(attempt: number, taskId: string): void;
  finished(attempt: number, taskId: string, results: TaskResults): void;
  failed(attempt: number, taskId: string, error: ErrorInfo): void;
  /** Source task `taskId` with watermark alignment is at `watermark` in its alignment `group`. */
  watermark(attempt: number, taskId: string, group: string, watermark: number): void;
  /** A thread died or could not start: the job cannot go on. */
  fatal(error: ErrorInfo): void;
}

/** How the job master drives one task manager. */
export interface TaskManagerHandle {
  deploy(deployment: Deployment): void;
  /**
   * Cancels every task of `attempt`; resolves when all stopped, with the source positions
   * at that moment. `graceful`: each task first runs the mails already queued (e.g. the
   * notification of a savepoint, so sinks commit it).
   */
  cancel(attempt: number, graceful?: boolean): Promise<Record<string, unknown[]>>;
  trigger(attempt: number, taskId: string, barrier: CheckpointBarrier): void;
  notifyComplete(attempt: number, taskId: string, checkpointId: number): void;
  notifyAborted(attempt: number, taskId: string, checkpointId: number): void;
  /** Ends every task of `attempt` after the final checkpoint (they forward end of input and finish). */
  terminate(attempt: number): void;
  /** A stop with savepoint failed and the job goes on: the source tasks of `attempt` that stopped at its barrier read again. */
  resumeSources(attempt: number): void;
  /** The lowest watermarks of watermark alignment group `group`: its source tasks of `attempt` pause ahead of them. */
  alignWatermarks(attempt: number, group: string, lowest: GroupLowest): void;
  /** Latest metrics of its tasks (those of the last attempt, until the next is deployed). */
  metrics(): readonly MetricSnapshot[];
  /**
   * How long the thread's event loop has not turned (ms), and the task (plan ordinal) that ran
   * last on it: a task stuck in user code blocks its thread. In-process always 0 (the caller runs
   * on that thread).
   */
  blocked(): { forMs: number; activeTask: number | undefined };
  /** Stops the thread (no-op in-process). */
  shutdown(): Promise<void>;
}

/** ErrorInfo of any thrown value. */
export function errorInfo(e: unknown): ErrorInfo {
  if (e instanceof Error) return { name: e.name, message: e.message, stack: e.stack };
  return { name: "Error", message: String(e) };
}

/** An Error rebuilt from ErrorInfo (keeps name, message and the original stack). */
export function errorFromInfo(info: ErrorInfo): Error {
  const e = new Error(info.message);
  e.name = info.name;
  if (info.stack) e.stack = info.stack;
  return e;
}
