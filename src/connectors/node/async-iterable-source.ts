/**
 * `env.fromAsyncIterable(input)`: the values of an async (or sync) iterable,
 * from a single reader. Its position is the number of values emitted. Given a
 * function that creates the iterable, a restart creates it again and skips to
 * the checkpointed position (the function must give the same values every
 * time); given the iterable itself, it is read once, and a restart that
 * needs it again fails with `SourceNotReplayableError`.
 *
 * An async iterator hands out one value per promise: a pump reads ahead into
 * a bounded buffer (`READ_AHEAD` values) while the task works, so the task
 * polls without awaiting per record and the iterable is not read faster than
 * the job takes its values.
 */
import type { PollStatus, ReaderOutput, Source, SourceReader } from "../../core/source.ts";
import { Fifo } from "../../util/fifo.ts";
import { Signal } from "../../util/signal.ts";
import { replayableOpener, type Replayable } from "./replayable-input.ts";

/** What `fromAsyncIterable` reads: an iterable, or a function that creates it. */
export type AsyncIterableInput<T> = Replayable<AsyncIterable<T> | Iterable<T>>;

/** The number of values emitted so far. */
export interface IterableSplit {
  index: number;
}

/** Values read ahead of the task at most. */
const READ_AHEAD = 1024;

/**
 * The source of `env.fromAsyncIterable` (parallelism 1).
 *
 * @example
 * ```ts
 * async function* ticks() { for (let i = 0; i < 3; i++) yield i; }
 * env.fromSource(new AsyncIterableSource(() => ticks()), WatermarkStrategy.noWatermarks(), "ticks").setParallelism(1);
 * ```
 */
export class AsyncIterableSource<T> implements Source<T, IterableSplit> {
  readonly boundedness = "bounded";
  private readonly open: (position: number) => { input: AsyncIterable<T> | Iterable<T>; skip: number };

  constructor(input: AsyncIterableInput<T>) {
    this.open = replayableOpener("fromAsyncIterable", "env.fromAsyncIterable(() => iterable)", input);
  }

  createSplits(): IterableSplit[] {
    return [{ index: 0 }];
  }

  createReader(): SourceReader<T, IterableSplit> {
    return new IterableReader(this.open);
  }
}

class IterableReader<T> implements SourceReader<T, IterableSplit> {
  private split: IterableSplit | undefined;
  private sync: Iterator<T> | undefined;
  private async: AsyncIterator<T> | undefined;
  /** Values the pump read and the task did not take yet (async iterators only). */
  private readonly buffer = new Fifo<T>();
  private pumping = false;
  private done = false;
  private failure: { error: unknown } | undefined;
  private skip = 0;
  private closed = false;
  private readonly changed = new Signal();

  constructor(private readonly open: (position: number) => { input: AsyncIterable<T> | Iterable<T>; skip: number }) {}

  addSplits(splits: IterableSplit[]): void {
    const s = splits[0];
    if (!s) return;
    this.split = { ...s };
    const { input, skip } = this.open(s.index);
    this.skip = skip;
    if (Symbol.asyncIterator in input) this.async = input[Symbol.asyncIterator]();
    else this.sync = input[Symbol.iterator]();
  }

  pollNext(output: ReaderOutput<T>, maxRecords: number): PollStatus {
    const s = this.split;
    if (!s) return "end-of-input";
    if (this.sync) return this.pollSync(s, output, maxRecords);
    if (this.failure) throw this.failure.error;
    let n = 0;
    for (; n < maxRecords && this.buffer.size > 0; n++) output.collect(this.buffer.shift()!);
    s.index += n;
    if (this.buffer.size < READ_AHEAD / 2) this.pump();
    if (this.buffer.size > 0) return "more-available";
    if (this.done) return this.end();
    return n > 0 ? "more-available" : "nothing-available";
  }

  isAvailable(): Promise<void> {
    return this.buffer.size > 0 || this.done || this.failure ? Promise.resolve() : this.changed.wait();
  }

  snapshotState(): IterableSplit[] {
    return this.split ? [{ ...this.split }] : [];
  }

  close(): void {
    this.closed = true;
    const it = this.async ?? this.sync;
    this.async = this.sync = undefined;
    // lets a generator run its `finally`; an iterator in the middle of a `next()` finishes that first
    Promise.resolve()
      .then(() => it?.return?.())
      .catch(() => {});
  }

  private pollSync(s: IterableSplit, output: ReaderOutput<T>, maxRecords: number): PollStatus {
    const it = this.sync!;
    for (; this.skip > 0; this.skip--) if (it.next().done) throw this.endedEarly(s.index - this.skip);
    for (let n = 0; n < maxRecords; n++) {
      const r = it.next();
      if (r.done) return this.end();
      output.collect(r.value);
      s.index++;
    }
    return "more-available";
  }

  /** Reads ahead from the async iterator until the buffer is full or the iterable ends. */
  private pump(): void {
    if (this.pumping || this.done || this.closed) return;
    this.pumping = true;
    void (async () => {
      try {
        while (this.async && this.buffer.size < READ_AHEAD) {
          const r = await this.async.next();
          if (r.done) {
            if (this.skip > 0) throw this.endedEarly(this.split!.index - this.skip);
            this.done = true;
            break;
          }
          if (this.skip > 0) this.skip--;
          else this.buffer.push(r.value);
          if (this.buffer.size === 1) this.changed.notify();
        }
      } catch (e) {
        this.failure = { error: e };
      } finally {
        this.pumping = false;
        this.changed.notify();
      }
    })();
  }

  private end(): PollStatus {
    this.split = undefined;
    return "end-of-input";
  }

  /** The iterable created again has fewer values than the checkpoint had read. */
  private endedEarly(count: number): Error {
    return new Error(
      `fromAsyncIterable: the iterable created again after a restart ended after ${count} values, before the checkpointed position ${this.split!.index}: the function must create the same values every time`,
    );
  }
}
