/**
 * The sink SPI: a sink creates one writer per parallel instance. A writer that
 * keeps state implements `CheckpointedFunction`; one that must act when a
 * checkpoint completes (two-phase commit) implements `CheckpointListener`.
 */

import type { Clock } from "../util/clock.ts";
import type { Logger } from "../util/logger.ts";

/** What a writer knows of its parallel instance. */
export interface SinkContext {
  /** Unique id of this run of the job (the same in every subtask, thread and attempt of the run). */
  readonly jobId: string;
  readonly subtaskIndex: number;
  readonly parallelism: number;
  readonly operatorUid: string;
  readonly attempt: number;
  /** Hands a final result to the job client (`JobExecutionResult.getCollected(name)`). */
  reportResult(name: string, values: unknown[]): void;
  /** Time source of the job (injected in tests). */
  readonly clock: Clock;
  /** The logger of this sink instance (its records carry the operator uid and subtask: `[files 1/2]`). */
  readonly logger: Logger;
  /** The job's checkpoint interval in ms (0: no periodic checkpoints); undefined where unknown (test harnesses). */
  readonly checkpointIntervalMs?: number;
}

/** Writes the records of one parallel instance. */
export interface SinkWriter<T> {
  write(value: T): void;
  /**
   * Backpressure: undefined while the writer can take more records; otherwise a
   * promise that resolves when it can (its destination is full). Asked after
   * every batch; the task waits before the next one.
   */
  blocked?(): Promise<void> | undefined;
  /**
   * Before a checkpoint barrier passes the sink: hand everything written so far
   * to the destination (the checkpoint waits for it), so that an at-least-once
   * sink loses nothing the checkpoint covers.
   */
  flush?(): void | Promise<void>;
  /**
   * The sink's input watermark advanced to `watermark` (Flink's
   * `SinkWriter.writeWatermark`); at the end of a bounded input it reaches
   * the maximum. For sinks whose output depends on event time (partition commit).
   */
  writeWatermark?(watermark: number): void;
  /** End of input: flush what is buffered. */
  finish?(): void | Promise<void>;
  /**
   * Right after `finish`: what the writer still waits for that the task's mails bring (e.g. commits of
   * checkpoints whose notifications are queued). The task keeps taking mails until it settles, before its
   * input's end goes on (and the final checkpoint's barrier with it). Undefined: nothing.
   */
  settleAtEnd?(): Promise<void> | undefined;
  close?(): void | Promise<void>;
}

/**
 * A destination of records.
 *
 * @example
 * ```ts
 * const logSink: Sink<string> = { createWriter: () => ({ write: (s) => console.log(s) }) };
 * stream.sinkTo(logSink);
 * ```
 */
export interface Sink<T> {
  createWriter(context: SinkContext): SinkWriter<T>;
}
