/**
 * Keyed SQL window operators (window aggregate, window Top-N) that fire their
 * windows from one queue of window ends per operator instead of a timer per
 * key and window, as the DataStream window operator does: a window end waits
 * in a {@link WindowEndQueue} with the keys that have a window ending there,
 * and the watermark pops the ends it passed and fires each key's window. A
 * queued end costs an array slot, not a timer with its keyed state.
 *
 * The queue is not state: the function keeps in its keyed state which ends
 * each key waits for, and the operator rebuilds the queue from that state
 * when it opens (after a restore). State written before the queue existed
 * has timers instead: they still fire, and the function moves each into the
 * queue (see {@link WindowEndFunction.onTimer}).
 */
import type { DataStream } from "../../api/data-stream.ts";
import { SingleOutputStreamOperator, cloneFunction } from "../../api/data-stream.ts";
import { edgesOf } from "../../api/connected-streams.ts";
import type { Collector } from "../../core/collector.ts";
import { KeyedProcessFunction, type KeyedProcessContext, type OnTimerContext } from "../../core/process-function.ts";
import type { KeySelector } from "../../graph/stream-graph.ts";
import { KeyedProcessOperator } from "../../runtime/operators/keyed-process-operator.ts";
import type { OperatorContext, Output } from "../../runtime/operators/stream-operator.ts";
import { WindowEndQueue } from "../../time/windows/window-end-queue.ts";

/**
 * A keyed process function whose windows fire from the operator's queue of
 * window ends. It queues a key's window with {@link queueWindowEnd} (once per
 * key and end: the function keeps which ends a key waits for in its state),
 * says which ends a stored state value waits for ({@link queuedEnds}, to
 * rebuild the queue), and fires one key's window in {@link fireWindowEnd}.
 * Window ends are max timestamps (`window_end - 1`): a window fires when the
 * watermark reaches it.
 *
 * @example
 * ```ts
 * class CountPerWindow extends WindowEndFunction<Row, Row> {
 *   readonly queueState = "_counts";
 *   queuedEnds(stored: unknown) { return [(stored as { end: number }).end]; }
 *   processElement(row, ctx) { … this.queueWindowEnd(end - 1, ctx.getCurrentKey()); }
 *   fireWindowEnd(maxTimestamp, ctx, out) { … }
 * }
 * ```
 */
export abstract class WindowEndFunction<IN, OUT> extends KeyedProcessFunction<string, IN, OUT> {
  /** @internal The queue of this function's operator (each subtask's clone has its own). */
  windowEnds: WindowEndQueue = new WindowEndQueue();

  /** The engine keyed state whose stored values tell the queued ends of each key (see {@link queuedEnds}). */
  abstract readonly queueState: string;

  /** The window ends (max timestamps) a key whose state `queueState` holds `stored` waits for. */
  abstract queuedEnds(stored: unknown): readonly number[];

  /** Fires the current key's window whose max timestamp is `maxTimestamp` (the watermark reached it). */
  abstract fireWindowEnd(maxTimestamp: number, ctx: KeyedProcessContext<string>, out: Collector<OUT>): void;

  /** Queues `key`'s window ending at `maxTimestamp` (the caller keeps it in its state, and queues it once). */
  protected queueWindowEnd(maxTimestamp: number, key: string): void {
    this.windowEnds.push(maxTimestamp, key);
  }

  /**
   * A timer of state written before the window-end queue (each window had an
   * event-time timer at its max timestamp): the window joins the queue, which
   * fires it with this watermark, in order with the other windows.
   */
  override onTimer(timestamp: number, ctx: OnTimerContext<string>, _out: Collector<OUT>): void {
    this.queueLegacyTimer(timestamp, ctx.getCurrentKey());
  }

  /** Queues the current key's window of a timer from before the queue, unless the key's state queued it already. */
  protected abstract queueLegacyTimer(maxTimestamp: number, key: string): void;
}

/** Runs a {@link WindowEndFunction}: its keyed timers (old state's), then its queued window ends, on each watermark. */
class WindowEndOperator<IN, OUT> extends KeyedProcessOperator<string, IN, OUT> {
  private readonly windowFn: WindowEndFunction<IN, OUT>;

  constructor(fn: WindowEndFunction<IN, OUT>) {
    super(fn);
    this.windowFn = fn;
    fn.windowEnds = new WindowEndQueue();
  }

  override async open(ctx: OperatorContext, output: Output<OUT>): Promise<void> {
    await super.open(ctx, output);
    const fn = this.windowFn;
    for (const [key, stored] of ctx.keyedState!.entriesOf(fn.queueState)) {
      for (const end of fn.queuedEnds(stored)) fn.windowEnds.push(end, key);
    }
  }

  override processWatermark(timestamp: number): void {
    this.timers.advanceWatermark(timestamp);
    const fn = this.windowFn;
    const queue = fn.windowEnds;
    for (let end = queue.nextEnd(); end !== undefined && end <= timestamp; end = queue.nextEnd()) {
      const { keys } = queue.pop();
      this.ctx.element.timestamp = end;
      for (let i = 0; i < keys.length; i++) {
        this.setKey(keys[i]);
        fn.fireWindowEnd(end, this.context, this.out);
      }
    }
    this.out.emitWatermark(timestamp);
  }
}

/**
 * `input.keyBy(key).process(fn)` run by the window-end operator (the same
 * node type as `process`, so savepoints of the timer-based operators restore).
 *
 * @example
 * ```ts
 * const ranked = processWindowEnds(windowed, rowKeySelector([3, 4]), new WindowRankFunction(spec));
 * ```
 */
export function processWindowEnds<IN, OUT>(input: DataStream<IN>, key: KeySelector<IN, string>, fn: WindowEndFunction<IN, OUT>): SingleOutputStreamOperator<OUT> {
  const env = input.getExecutionEnvironment();
  const keyed = input.keyBy(key);
  const node = env.addNode({
    type: "keyed-process",
    name: "KeyedProcess",
    inputs: edgesOf(keyed, 0),
    createOperator: () => new WindowEndOperator(cloneFunction(fn)),
    keySelector: key as KeySelector,
  });
  return new SingleOutputStreamOperator<OUT>(env, node);
}
