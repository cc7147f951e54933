/**
 * The operator contract inside a task. A task chains operators: each one's
 * output is the next one's `processElement` (plain calls, no queue). The task
 * calls the lifecycle in this order: `setup` → (state restored) → `open` →
 * `processElement`* interleaved with checkpoint hooks → `finish` (end of input)
 * → `close`. Operator code never runs concurrently with itself.
 */
import type { MetricGroup } from "../../metrics/metric-group.ts";
import type { Clock } from "../../util/clock.ts";
import type { KeyedStateBackend, OperatorStateBackend } from "../../state/index.ts";
import type { KeySelector } from "../../graph/stream-graph.ts";
import type { ProcessingTimeService } from "../../time/processing-time-service.ts";
import type { WatermarkAlignmentParams } from "../../time/watermark-strategy.ts";
import type { ElementContext } from "../elements.ts";

/** Where an operator emits records. */
export interface Output<T> {
  /** Emits a record with the task's current timestamp (`context.element.timestamp`). */
  collect(value: T): void;
  /** Emits to the side output with this tag id (dropped if nothing consumes it). */
  collectSide(tagId: string, value: unknown): void;
  /** Forwards a watermark to the next operator (or downstream). */
  emitWatermark(timestamp: number): void;
  /** Forwards the idle/active status of the input downstream. */
  emitWatermarkStatus(idle: boolean): void;
}

/**
 * Runs actions in the task's loop, between batches, never concurrently with
 * the operators: where an operator hands back what asynchronous work (a
 * Promise's callback) produced, so that it emits only on the task's turn.
 */
export interface MailboxExecutor {
  put(mail: () => void): void;
}

/** Everything the runtime gives an operator. */
export interface OperatorContext {
  /** Unique id of the run of the job. */
  readonly jobId: string;
  readonly operatorUid: string;
  readonly operatorName: string;
  readonly subtaskIndex: number;
  readonly parallelism: number;
  readonly maxParallelism: number;
  readonly attempt: number;
  /** True if state was restored from a checkpoint. */
  readonly isRestored: boolean;
  /** Keyed state, for operators on a keyed stream. */
  readonly keyedState?: KeyedStateBackend;
  /** The key selector of the operator's keyed input (its first input for two-input operators). */
  readonly keySelector?: KeySelector;
  /** The key selector of the second input of a keyed two-input operator. */
  readonly keySelector2?: KeySelector;
  /** The timestamp of the record being processed; set it before `collect` to emit with another timestamp. */
  readonly element: ElementContext;
  /** Processing time and callbacks in the task's mailbox (processing-time timers). */
  readonly processingTime: ProcessingTimeService;
  /** The task's mailbox. */
  readonly mailbox: MailboxExecutor;
  /** Interval of periodic watermarks (ms; 0: none). */
  readonly autoWatermarkIntervalMs: number;
  /** The job's checkpoint interval in ms (0: no periodic checkpoints); undefined in test harnesses. */
  readonly checkpointIntervalMs?: number;
  readonly operatorState: OperatorStateBackend;
  readonly clock: Clock;
  /** The operator's metric group (operator scope): built-in and user metrics. */
  readonly metricGroup: MetricGroup;
  /** Source positions to resume from instead of the restored ones (at-most-once failover). */
  readonly sourceOverride?: unknown[];
  /** Hands a final result to the job client. */
  reportResult(name: string, values: unknown[]): void;
}

/** An operator instance of one parallel subtask. */
export interface StreamOperator<IN = unknown, OUT = unknown> {
  /** Called once after state was restored and before the first record. */
  open(context: OperatorContext, output: Output<OUT>): void | Promise<void>;
  /** Hot path: one record (of the first input), synchronously. */
  processElement(value: IN): void;
  /** A record of the second input of a two-input operator. */
  processElement2?(value: unknown): void;
  /**
   * The operator's watermark advanced (minimum over its inputs). An operator that
   * implements it fires what is due (timers, windows) and must forward it with
   * `output.emitWatermark`; otherwise the chain forwards it.
   */
  processWatermark?(timestamp: number): void;
  /**
   * The operator's input goes idle (`true`) or becomes active again: an
   * operator that buffers records emits them here; the chain forwards the
   * status afterwards (the operator must not forward it).
   */
  processWatermarkStatus?(idle: boolean): void;
  /**
   * False while the operator can take no more input (async I/O at capacity, a
   * sink whose destination is full): the
   * task then reads nothing (records, watermarks, barriers) and runs mails, without
   * spinning, until it is true again. A mail the operator expects (a completion)
   * must make it true.
   */
  acceptsInput?(): boolean;
  /** End of all input: emit what is buffered. */
  finish?(): void | Promise<void>;
  /**
   * After `finish()`: true while the operator still owes output that mails will
   * bring (requests in flight). The task runs mails until it is false, then
   * finishes the next operator of the chain.
   */
  hasPendingWork?(): boolean;
  close?(): void | Promise<void>;
  /**
   * Before the barrier is forwarded: emit what must precede it, or (a promise)
   * finish work that must be done before the checkpoint, e.g. a sink flushing
   * what it wrote; the task waits for it.
   */
  prepareSnapshotPreBarrier?(checkpointId: number): void | Promise<void>;
  /** Synchronous: write into the state backends what the snapshot must contain. */
  snapshotState?(checkpointId: number): void;
  notifyCheckpointComplete?(checkpointId: number): void | Promise<void>;
  notifyCheckpointAborted?(checkpointId: number): void | Promise<void>;
}

/** A source operator additionally drives its reader. */
export interface SourceOperatorLike<OUT = unknown> extends StreamOperator<never, OUT> {
  /** Emits up to `max` records into the output. */
  emitNext(max: number): "more-available" | "nothing-available" | "end-of-input" | Promise<"more-available" | "nothing-available" | "end-of-input">;
  /** Resolves when `emitNext` may produce records after "nothing-available". */
  whenAvailable(): Promise<void>;
  /** Records emitted so far (metrics). */
  readonly emitted: number;
  /** Emits the watermark of the reader's generator (called every auto-watermark interval). */
  emitPeriodicWatermark(): void;
  /** Current positions of the reader's splits. */
  currentSplits(): unknown[];
  /** The source's watermark alignment (its strategy's `withWatermarkAlignment`); null: none. */
  readonly alignment: WatermarkAlignmentParams | null;
  /** The watermark this subtask reports for alignment: the last it emitted, or the maximum while it is idle. */
  alignmentWatermark(): number;
}

/** True for source operators. */
export function isSourceOperator(op: StreamOperator): op is SourceOperatorLike {
  return typeof (op as SourceOperatorLike).emitNext === "function";
}
