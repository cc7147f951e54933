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

/** The producer of the channel finished: nothing follows. */
export interface EndOfInput {
  readonly kind: "end";
}

/** A control element that travels in order with the data. */
export type ChannelEvent = Watermark | CheckpointBarrier | CancelCheckpointMarker | EndOfData | EndOfInput;

/** One unit on a channel. Every unit costs one credit (see DESIGN.md "Channels and backpressure"). */
export type ChannelMessage = DataBatch | ChannelEvent;

/** The shared end-of-data event (immutable). */
export const END_OF_DATA: EndOfData = Object.freeze({ kind: "end-of-data" });

/** The shared end-of-input event (immutable). */
export const END_OF_INPUT: EndOfInput = Object.freeze({ kind: "end" });
