/**
 * What flows through a channel: batches of records and, in order with them,
 * the control events of DESIGN.md ("Stream elements"). Operators see records
 * (`processElement`) and watermarks; barriers, cancel markers and end of input
 * are handled by the task.
 */
import type { CancelCheckpointMarker, CheckpointBarrier } from "../checkpoint/types.ts";

/** A batch of records. Records move in batches so that `await` happens per batch, never per record. */
export interface DataBatch {
  readonly kind: "data";
  readonly values: unknown[];
  /** Event timestamps aligned with `values` (NO_TIMESTAMP where a record has none); absent when no record has one. */
  readonly timestamps?: number[];
}

/** Timestamp of a record without event time (Flink's Long.MIN_VALUE marker). */
export const NO_TIMESTAMP = Number.NEGATIVE_INFINITY;

/** The watermark that ends event time: every timer and window fires. Sent at the end of bounded input. */
export const MAX_WATERMARK = Number.POSITIVE_INFINITY;

/**
 * The timestamp of the record being processed in a task: set by the task before
 * each record, read by the record writers (the output keeps the input's
 * timestamp, as in Flink) and set by operators that emit with another one
 * (windows, timers).
 */
export interface ElementContext {
  timestamp: number;
}

/** Event-time progress: no record with a timestamp at or below `timestamp` follows on this channel. */
export interface Watermark {
  readonly kind: "watermark";
  readonly timestamp: number;
}

/**
 * The producer has no more data (its input ended and its operators finished), but
 * the channel stays open for the final checkpoint's barrier (Flink's FLIP-147).
 */
export interface EndOfData {
  readonly kind: "end-of-data";
}

/** The producer stopped (idle: true) or resumed (idle: false) emitting records and watermarks; idle channels do not hold back event time. */
export interface WatermarkStatus {
  readonly kind: "watermark-status";
  readonly idle: boolean;
}

/** The producer of the channel finished: nothing follows. */
export interface EndOfInput {
  readonly kind: "end";
}

/** A control element that travels in order with the data. */
export type ChannelEvent = Watermark | WatermarkStatus | CheckpointBarrier | CancelCheckpointMarker | EndOfData | EndOfInput;

/** One unit on a channel. Every unit costs one credit (see DESIGN.md "Channels and backpressure"). */
export type ChannelMessage = DataBatch | ChannelEvent;

/** The shared end-of-data event (immutable). */
export const END_OF_DATA: EndOfData = Object.freeze({ kind: "end-of-data" });

/** The shared end-of-input event (immutable). */
export const END_OF_INPUT: EndOfInput = Object.freeze({ kind: "end" });
