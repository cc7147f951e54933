/**
 * The two ends of a bounded channel between a producing and a consuming
 * subtask. A producer may send only while it holds credit; the consumer returns
 * one credit for every message it takes, so a slow or blocked consumer stops
 * its producer instead of letting a buffer grow (credit-based backpressure).
 */
import type { ChannelMessage } from "../elements.ts";
import type { Counter } from "../../metrics/counter.ts";

/** The producer's end. */
export interface OutputChannel {
  /** True if a message can be sent now without exceeding the channel's capacity. */
  hasCredit(): boolean;
  /** Resolves when `hasCredit()` is true (at once if it already is). */
  whenCredit(): Promise<void>;
  /** Sends one message; the caller must have checked `hasCredit()`. */
  send(message: ChannelMessage): void;
  /** Releases resources after the producer is done or cancelled. */
  close(): void;
  /** Adds the bytes of every encoded batch sent from now on to `counter` (channels to another thread; in-thread channels encode nothing). */
  countBytes?(counter: Counter): void;
  /**
   * True when `send` refuses a batch with a record that is not plain data (`PlainDataError`), as a
   * channel to another thread does (its encoding takes nothing else): the writer leaves the check to it.
   */
  readonly refusesNonPlainData?: boolean;
}

/** The consumer's end. */
export interface InputChannel {
  /** Takes the next message, or undefined if none has arrived. Returns one credit to the producer. */
  poll(): ChannelMessage | undefined;
  /** True if `poll()` would return a message. */
  hasMessage(): boolean;
  /** Called (at most once per arrival) when a message arrives on an empty channel. Set by the input gate. */
  onAvailable: (() => void) | null;
  /** Number of queued messages (a backpressure metric). */
  queued(): number;
  /** Adds the bytes of every encoded batch received from now on to `counter` (channels from another thread). */
  countBytes?(counter: Counter): void;
}

/** Default capacity of a channel in messages (batches or events): small, so that a barrier waits behind little data. */
export const DEFAULT_CHANNEL_CAPACITY = 4;

/**
 * Batches a channel to another thread or process holds (a channel within a thread holds `DEFAULT_CHANNEL_CAPACITY`).
 * More than within a thread: on a machine with as many busy threads as cores, the consumer's thread is
 * off its core for a scheduler slice now and then (other processes, V8's compiler and collector
 * threads, the coordinator); 4 batches (under a millisecond of a simple job) then left the producer
 * idle until it came back, 8 let it work through most of such a pause. A barrier waits behind at most
 * that many batches of the channel, so more (16 scaled no better, within the noise) only made checkpoints
 * behind a slow consumer longer.
 */
export const REMOTE_CHANNEL_CAPACITY = 8;
