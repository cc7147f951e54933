/**
 * The queues of async I/O (Flink's `StreamElementQueue`): every input from
 * its request until its results are emitted, and the watermarks between
 * them. The ordered queue emits results in input order; the unordered one as
 * requests complete, but never across a watermark: the records that came
 * before a watermark are emitted before it, those after it after it.
 */
import { Fifo } from "../../util/fifo.ts";

/** One input of async I/O, from its arrival until its results are emitted. */
export class AsyncRecordEntry<IN, OUT> {
  /** The results once the request completed; null while it is in flight. */
  results: OUT[] | null = null;
  /** Attempts started so far. */
  attempts = 0;
  /** Raised when outcomes of earlier attempts must be ignored (the request timed out). */
  generation = 0;
  /** Processing time at which the request times out (set when it starts; Infinity without timeout). */
  deadline = Number.POSITIVE_INFINITY;
  /** The segment of the unordered queue the entry belongs to. */
  segment: Segment<IN, OUT> | null = null;

  constructor(
    /** The record as received: never handed to user code, so it is what a checkpoint keeps. */
    readonly input: IN,
    readonly timestamp: number,
  ) {}
}

/** A queued element: a record's entry, or a watermark (its timestamp). */
export type QueuedElement<IN, OUT> = AsyncRecordEntry<IN, OUT> | number;

/** Where a queue emits. */
export interface QueueOutput<IN, OUT> {
  record(entry: AsyncRecordEntry<IN, OUT>): void;
  watermark(timestamp: number): void;
}

export interface AsyncResultQueue<IN, OUT> {
  /** Records not emitted yet (in flight, or completed and waiting for their turn): what the capacity bounds. */
  readonly records: number;
  /** Neither records nor watermarks wait. */
  readonly isEmpty: boolean;
  addRecord(entry: AsyncRecordEntry<IN, OUT>): void;
  addWatermark(timestamp: number): void;
  /** The entry's results were set. */
  completed(entry: AsyncRecordEntry<IN, OUT>): void;
  /** Emits, in order, every record and watermark whose turn came. */
  emit(out: QueueOutput<IN, OUT>): void;
  /** Everything not emitted yet, in input order (for a snapshot). */
  elements(): Iterable<QueuedElement<IN, OUT>>;
}

/** Results in input order: the head leaves when it completed (a watermark is always complete). */
export class OrderedResultQueue<IN, OUT> implements AsyncResultQueue<IN, OUT> {
  private readonly items = new Fifo<QueuedElement<IN, OUT>>();
  records = 0;

  get isEmpty(): boolean {
    return this.items.size === 0;
  }

  addRecord(entry: AsyncRecordEntry<IN, OUT>): void {
    this.items.push(entry);
    this.records++;
  }

  addWatermark(timestamp: number): void {
    this.items.push(timestamp);
  }

  completed(): void {}

  emit(out: QueueOutput<IN, OUT>): void {
    for (let head = this.items.peek(); head !== undefined; head = this.items.peek()) {
      if (typeof head === "number") {
        this.items.shift();
        out.watermark(head);
      } else if (head.results !== null) {
        this.items.shift();
        this.records--;
        out.record(head);
      } else return;
    }
  }

  elements(): Iterable<QueuedElement<IN, OUT>> {
    return this.items;
  }
}

/** The records between two watermarks of the unordered queue, and the watermark that closes them. */
interface Segment<IN, OUT> {
  /** Not emitted yet, in input order. */
  readonly entries: Set<AsyncRecordEntry<IN, OUT>>;
  /** Completed and not emitted yet, in completion order. */
  readonly completed: AsyncRecordEntry<IN, OUT>[];
  /** The watermark after the segment's records; undefined while the segment is the open tail. */
  watermark: number | undefined;
}

/** Results as requests complete, within the segment between two watermarks; only the oldest segment emits. */
export class UnorderedResultQueue<IN, OUT> implements AsyncResultQueue<IN, OUT> {
  private readonly segments = new Fifo<Segment<IN, OUT>>();
  private tail: Segment<IN, OUT> | null = null;
  private watermarks = 0;
  records = 0;

  get isEmpty(): boolean {
    return this.records === 0 && this.watermarks === 0;
  }

  addRecord(entry: AsyncRecordEntry<IN, OUT>): void {
    const s = this.openTail();
    s.entries.add(entry);
    entry.segment = s;
    this.records++;
  }

  addWatermark(timestamp: number): void {
    this.openTail().watermark = timestamp;
    this.watermarks++;
  }

  completed(entry: AsyncRecordEntry<IN, OUT>): void {
    entry.segment!.completed.push(entry);
  }

  emit(out: QueueOutput<IN, OUT>): void {
    for (let s = this.segments.peek(); s !== undefined; s = this.segments.peek()) {
      const done = s.completed;
      for (let i = 0; i < done.length; i++) {
        const entry = done[i]!;
        s.entries.delete(entry);
        this.records--;
        out.record(entry);
      }
      done.length = 0;
      if (s.entries.size > 0 || s.watermark === undefined) return;
      this.segments.shift();
      if (s === this.tail) this.tail = null;
      this.watermarks--;
      out.watermark(s.watermark);
    }
  }

  *elements(): Iterable<QueuedElement<IN, OUT>> {
    for (const s of this.segments) {
      yield* s.entries;
      if (s.watermark !== undefined) yield s.watermark;
    }
  }

  /** The segment new records join (a new one after a watermark). */
  private openTail(): Segment<IN, OUT> {
    let s = this.tail;
    if (s === null || s.watermark !== undefined) {
      s = { entries: new Set(), completed: [], watermark: undefined };
      this.segments.push(s);
      this.tail = s;
    }
    return s;
  }
}
