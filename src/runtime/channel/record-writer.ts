/**
 * The producer side of one output edge: picks the channel(s) of each record
 * by the edge's partitioning, collects records (with their timestamps) into
 * per-channel batches, queues events (watermarks, barriers) in order with
 * them, and sends what is queued when asked to flush (awaiting credit: this is
 * where backpressure stops a producer).
 *
 * Records leave the task here, so this is where the record contract holds:
 * each record is checked to be plain data (the same check for a consumer in
 * this thread or another), and where one record goes to several consumers
 * (a broadcast edge, or one of several edges of the same output), each but
 * one gets its own copy, so no consumer's mutation reaches another. A record
 * is checked once per output: an edge after the first of the same output gets
 * a record that the first edge's writer just checked or copied (a copy
 * refuses what is not plain data), with no user code run in between.
 * Records that come straight from a source which knows their shapes (the
 * writer is on the source's own output, which calls its writers before any
 * chained operator, and no user code saw them) are trusted to be plain data:
 * not checked, and copied with the source's own copy.
 *
 * A channel to another thread encodes its batches with an encoding that
 * takes nothing but plain data (`OutputChannel.refusesNonPlainData`): the
 * records a partitioning sends there are left to it, and only those for
 * channels within the thread are checked as they are appended, so a record
 * that crosses threads is looked at once, by its encoding. Such a record is
 * refused when its batch is sent instead of when it is emitted (the same
 * error: the task fails either way). Not with object reuse, where a later
 * edge of the same output relies on this writer's check, nor on a broadcast
 * edge, whose every record also goes to a channel within the thread.
 */
import type { KeySelector, Partitioning } from "../../graph/stream-graph.ts";
import { keyGroupOf, subtaskForKeyGroup } from "../../state/index.ts";
import { PlainDataError } from "../../state/plain-copy.ts";
import { PlainDataChecker, PlainDataCopier } from "../../state/plain-shapes.ts";
import { RecordNotPlainDataError } from "../record-not-plain-data-error.ts";
import { NO_TIMESTAMP, type ChannelEvent, type ChannelMessage, type ElementContext } from "../elements.ts";
import type { OutputChannel } from "./channel.ts";
import type { TimeMeter } from "../../metrics/time-meter.ts";

/** Who writes, for errors, and whether records are shared with another edge. */
export interface RecordWriterOrigin {
  /** The emitting operator, e.g. `operator 'Map' (uid 'parse')`. */
  readonly producer: string;
  /** True when the same records also go to another edge or to an operator chained to the producer: this writer sends copies. */
  readonly copy: boolean;
  /**
   * True when an earlier edge of the same output gets each record first (its writer checks or
   * copies it just before): this writer does not check records again.
   */
  readonly checked?: boolean;
  /** Consumers share records (object reuse): a broadcast edge sends one object to every channel. */
  readonly reuse?: boolean;
  /**
   * The records are a source's, as its readers made them: their deep copy (`Source.copyRecord`). They are
   * trusted to be plain data: not checked, and copied with this instead of the generic copy.
   */
  readonly copyRecord?: (record: unknown) => unknown;
}

export class RecordWriter {
  /** Records of the batch being filled, per channel. */
  private readonly values: unknown[][];
  /** Their timestamps, per channel; null while no record of the batch has one. */
  private readonly times: (number[] | null)[];
  /** Sealed batches and events waiting to be sent, per channel. */
  private readonly queues: ChannelMessage[][];
  private next: number;
  private readonly select: (value: unknown) => void;
  /**
   * The check and the copy of this writer's records, compiled for their shapes (one stream:
   * a writer's records mostly share their shapes, which other writers' records need not).
   */
  private readonly checker = new PlainDataChecker();
  private readonly copier = new PlainDataCopier();
  /** A copy of a record for a consumer of its own. */
  private readonly copyOf: (value: unknown) => unknown;
  /**
   * Whether `emit` checks records (it copies them, an earlier edge checked them, the source vouches for them,
   * or `checkIn` does: no).
   */
  private readonly checks: boolean;
  /** Per channel, whether a record appended for it is checked there (null: none is, `emit` checks or nothing does). */
  private readonly checkIn: readonly boolean[] | null;

  /**
   * @param channels one per consumer subtask, in subtask order (a single one for forward)
   * @param consumerMaxParallelism key groups of the consumer, for hash partitioning
   * @param backPressure the task's time waiting for credit
   * @param element the task's current record timestamp
   */
  constructor(
    private readonly channels: readonly OutputChannel[],
    partitioning: Partitioning,
    keySelector: KeySelector | undefined,
    consumerMaxParallelism: number,
    private readonly batchSize: number,
    private readonly backPressure: TimeMeter,
    producerIndex: number,
    private readonly element: ElementContext,
    private readonly origin: RecordWriterOrigin,
  ) {
    this.values = channels.map(() => []);
    this.times = channels.map(() => null);
    this.queues = channels.map(() => []);
    this.next = producerIndex % Math.max(1, channels.length);
    this.copyOf = origin.copyRecord ?? ((v) => this.copier.copy(v));
    const checks = !origin.copy && !origin.checked && origin.copyRecord === undefined;
    const leftToChannels = checks && !origin.reuse && partitioning !== "broadcast" && channels.some((c) => c.refusesNonPlainData === true);
    this.checks = checks && !leftToChannels;
    this.checkIn = leftToChannels ? channels.map((c) => c.refusesNonPlainData !== true) : null;
    const n = channels.length;
    switch (partitioning) {
      case "forward":
        this.select = (v) => this.append(0, v);
        break;
      case "rebalance":
        this.select = (v) => {
          this.append(this.next, v);
          this.next = this.next + 1 === n ? 0 : this.next + 1;
        };
        break;
      case "broadcast":
        this.select = (v) => {
          for (let i = 0; i < n - 1; i++) this.append(i, origin.reuse ? v : this.copyOf(v));
          this.append(n - 1, v);
        };
        break;
      case "hash": {
        if (!keySelector) throw new Error("hash partitioning needs a key selector");
        // The key group as keyed state computes it (a numeric hash for number keys, no string built): no cache, so no cliff at many keys.
        this.select = (v) =>
          this.append(subtaskForKeyGroup(consumerMaxParallelism, n, keyGroupOf(keySelector(v), consumerMaxParallelism)), v);
        break;
      }
    }
  }

  /**
   * Hot path: buffers one record (with the current timestamp) for its channel(s).
   *
   * @throws RecordNotPlainDataError when the record is not plain data (one for another thread: see `flush`)
   */
  emit(value: unknown): void {
    try {
      if (this.origin.copy) value = this.copyOf(value);
      else if (this.checks) this.checker.check(value);
    } catch (e) {
      throw this.refusal(e);
    }
    this.select(value);
  }

  /** Queues `event` on every channel, after the records emitted so far (sent by the next flush). */
  emitEvent(event: ChannelEvent): void {
    for (let i = 0; i < this.channels.length; i++) {
      this.seal(i);
      this.queues[i]!.push(event);
    }
  }

  /**
   * Sends what is queued. Without `onlyFull`, the partly filled batches too; with it,
   * only full batches and events (larger batches under load).
   *
   * @throws RecordNotPlainDataError when a record of a batch for another thread is not plain data
   */
  async flush(onlyFull = false): Promise<void> {
    for (let i = 0; i < this.channels.length; i++) {
      if (!onlyFull) this.seal(i);
      const q = this.queues[i]!;
      if (q.length === 0) continue;
      this.queues[i] = [];
      for (const m of q) await this.sendWithCredit(i, m);
    }
  }

  /** Queues `event` after everything emitted so far and sends it all. */
  async broadcastEvent(event: ChannelEvent): Promise<void> {
    this.emitEvent(event);
    await this.flush();
  }

  close(): void {
    for (const c of this.channels) c.close();
  }

  /** The error of a record that is not plain data (`e`: what the check, the copy or the encoding threw). */
  private refusal(e: unknown): unknown {
    return e instanceof PlainDataError ? new RecordNotPlainDataError(this.origin.producer, e) : e;
  }

  private append(i: number, v: unknown): void {
    if (this.checkIn !== null && this.checkIn[i]!) {
      try {
        this.checker.check(v);
      } catch (e) {
        throw this.refusal(e);
      }
    }
    const vals = this.values[i]!;
    const ts = this.element.timestamp;
    let times = this.times[i]!;
    if (ts !== NO_TIMESTAMP && times === null) times = this.times[i] = new Array<number>(vals.length).fill(NO_TIMESTAMP);
    if (times !== null) times.push(ts);
    vals.push(v);
    if (vals.length >= this.batchSize) this.seal(i);
  }

  /** Moves the batch being filled into the send queue. */
  private seal(i: number): void {
    const vals = this.values[i]!;
    if (vals.length === 0) return;
    const times = this.times[i];
    this.queues[i]!.push(times ? { kind: "data", values: vals, timestamps: times } : { kind: "data", values: vals });
    this.values[i] = [];
    this.times[i] = null;
  }

  private async sendWithCredit(i: number, message: ChannelMessage): Promise<void> {
    const ch = this.channels[i]!;
    if (!ch.hasCredit()) {
      this.backPressure.start(performance.now());
      try {
        while (!ch.hasCredit()) await ch.whenCredit();
      } finally {
        this.backPressure.stop(performance.now());
      }
    }
    try {
      ch.send(message);
    } catch (e) {
      throw this.refusal(e);
    }
  }
}
