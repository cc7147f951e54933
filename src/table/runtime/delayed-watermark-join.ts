/**
 * A keyed two-input process function whose output watermark lags its input
 * watermark by a fixed delay (Flink's `KeyedCoProcessOperatorWithWatermarkDelay`),
 * for joins that emit rows older than the current watermark: the interval
 * join emits a pair when its later row arrives, and a NULL-padded row once
 * the watermark passed its last chance of a match, so the rows it emits are
 * up to the width of the interval older than its watermark. Holding the
 * output watermark back by that width keeps them on time for the event-time
 * operators downstream (windows on either side's time attribute).
 *
 * On a state backend whose states are in memory anyway (the heap backend: see
 * `KeyedStateBackend.statesInMemory`) the function holds its rows in memory,
 * per operator subtask, and writes its keyed state behind: the operator asks
 * it to write what changed right before each snapshot
 * ({@link WriteBehindJoinFunction.flush}, with the key of each write made
 * current), and to read its state back when it opens after a restore
 * ({@link WriteBehindJoinFunction.restore}). A join keyed by a nearly unique
 * value thus costs keyed state nothing per row, and no key switch per record:
 * the operator sets the current key its function sees (`ctx.getCurrentKey()`),
 * not the state backend's. That key may be a cheaper one than keyed state's
 * ({@link MemoryKeys}: a number for a SQL integer key, whose state key is a
 * string): the operator converts it for each write and the keys restored.
 * On a backend whose state may be larger than memory (the disk backend) the
 * operator makes each record's key current in keyed
 * state as any keyed operator does, and the function keeps its rows there
 * (its flush has nothing to write). The watermark drives the function's
 * cleanup ({@link WriteBehindJoinFunction.advance}) before it is forwarded,
 * delayed. Timers of state written before write-behind still fire,
 * into the function's `onTimer` (none: they are dropped, the rows restored
 * carry their own cleanup times).
 */
import { edgesOf } from "../../api/connected-streams.ts";
import { cloneFunction, SingleOutputStreamOperator, type DataStream } from "../../api/data-stream.ts";
import { KeyedCoProcessFunction } from "../../core/co-process-function.ts";
import type { Collector } from "../../core/collector.ts";
import { KeyedCoProcessOperator } from "../../runtime/operators/co-keyed-process-operator.ts";
import type { OperatorContext, Output } from "../../runtime/operators/stream-operator.ts";
import type { KeySelector } from "../../graph/stream-graph.ts";

/**
 * Keys of the records for the rows a write-behind function holds in memory, when cheaper than keyed
 * state's keys (each memory key stands for exactly one state key, and records of one state key get one
 * memory key), and the conversions between the two.
 *
 * @example
 * ```ts
 * const keys: MemoryKeys<Row, Row> = {
 *   left: rowCompactKeySelector([0]), right: rowCompactKeySelector([2]),
 *   stateKey: valueKeyOfCompactKey, memoryKey: (k) => compactKeyOfValueKey(k as string),
 * };
 * ```
 */
export interface MemoryKeys<IN1, IN2> {
  readonly left: KeySelector<IN1, unknown>;
  readonly right: KeySelector<IN2, unknown>;
  /** The key in keyed state of a memory key. */
  readonly stateKey: (key: never) => unknown;
  /** The memory key of a key of keyed state (restored). */
  readonly memoryKey: (key: unknown) => unknown;
}

/**
 * A keyed co-process function that, when {@link backend} says the states are in
 * memory, holds its rows itself and writes them to keyed state only when the
 * operator flushes it: its `processElement1/2` must then not use keyed state
 * (the backend's current key is not set): they read the key from
 * `ctx.getCurrentKey()` (with {@link MemoryKeys}, the memory key, which is also
 * the key its `restore` reads and its `flush` writes). Else the key of each
 * record is current in keyed state.
 *
 * @example
 * ```ts
 * class Expiring extends WriteBehindJoinFunction<string, Row, Row, Row> {
 *   restore(entriesOf) { for (const [key, rows] of entriesOf("_rows")) … }
 *   processElement1(row, ctx, out) { … hold row under ctx.getCurrentKey() … }
 *   processElement2(row, ctx, out) { … }
 *   advance(watermark, emitAt, out) { … drop what the watermark made useless … }
 *   flush(write) { for (const key of changed) write(key, () => rowsState.set(rowsOf(key))); }
 * }
 * ```
 */
export abstract class WriteBehindJoinFunction<K, IN1, IN2, OUT> extends KeyedCoProcessFunction<K, IN1, IN2, OUT> {
  /**
   * @internal Set by the operator before `open`: whether its keyed state backend keeps the states in
   * memory (then the function may hold its rows itself; else it keeps them in keyed state), and how to
   * make a key current in keyed state (for work of the function's own, such as cleanups).
   */
  backend!: { readonly statesInMemory: boolean; readonly setKey: (key: K) => void };

  /** Reads the keyed state restored (called once, after `open`; nothing when the job starts fresh). */
  abstract restore(entriesOf: (state: string) => Iterable<[key: unknown, stored: unknown]>): void;

  /**
   * The watermark reached `watermark`: removes what it made useless. A row emitted for a time of its own
   * calls `emitAt(time)` first (its output timestamp).
   */
  abstract advance(watermark: number, emitAt: (time: number) => void, out: Collector<OUT>): void;

  /** Writes to keyed state what changed since the last flush: `write(key, fn)` runs `fn` with `key` current. */
  abstract flush(write: (key: K, fn: () => void) => void): void;
}

/** Runs `fn` on both inputs keyed; on a watermark, its cleanup, then the watermark forwarded `delayMs` lower; before a snapshot, its flush. */
class DelayedWatermarkCoProcessOperator<K, IN1, IN2, OUT> extends KeyedCoProcessOperator<K, IN1, IN2, OUT> {
  private readonly join: WriteBehindJoinFunction<K, IN1, IN2, OUT>;
  private leftKey!: KeySelector;
  private rightKey!: KeySelector;
  /** The states are in memory: the function holds its rows, the backend's key is set only for its writes. */
  private inMemory = true;
  /** With memory keys: the state key of one. */
  private stateKey: ((key: unknown) => unknown) | undefined;

  constructor(
    fn: WriteBehindJoinFunction<K, IN1, IN2, OUT>,
    private readonly delayMs: number,
    private readonly memoryKeys: MemoryKeys<IN1, IN2> | undefined,
  ) {
    super(fn);
    this.join = fn;
  }

  override async open(ctx: OperatorContext, output: Output<OUT>): Promise<void> {
    const keyed = ctx.keyedState;
    this.inMemory = keyed?.statesInMemory ?? true;
    this.join.backend = { statesInMemory: this.inMemory, setKey: (key) => this.setKey(key) };
    await super.open(ctx, output);
    const memoryKeys = this.inMemory ? this.memoryKeys : undefined;
    this.leftKey = (memoryKeys?.left as KeySelector | undefined) ?? ctx.keySelector!;
    this.rightKey = (memoryKeys?.right as KeySelector | undefined) ?? ctx.keySelector2!;
    this.stateKey = memoryKeys === undefined ? undefined : (memoryKeys.stateKey as (key: unknown) => unknown);
    this.join.restore((state) => (memoryKeys === undefined ? keyed!.entriesOf(state) : withMemoryKeys(keyed!.entriesOf(state), memoryKeys.memoryKey)));
  }

  override processElement(value: IN1): void {
    if (!this.inMemory) return super.processElement(value);
    this.currentKey = this.leftKey(value);
    this.join.processElement1(value, this.context, this.out as Collector<OUT>);
  }

  override processElement2(value: unknown): void {
    if (!this.inMemory) return super.processElement2(value);
    this.currentKey = this.rightKey(value);
    this.join.processElement2(value as IN2, this.context, this.out as Collector<OUT>);
  }

  override processWatermark(timestamp: number): void {
    this.timers.advanceWatermark(timestamp);
    const element = this.ctx.element;
    this.join.advance(timestamp, (time) => (element.timestamp = time), this.out as Collector<OUT>);
    this.out.emitWatermark(timestamp - this.delayMs);
  }

  override snapshotState(checkpointId: number): void {
    super.snapshotState(checkpointId);
    const stateKey = this.stateKey;
    this.join.flush((key, fn) => {
      this.setKey((stateKey === undefined ? key : stateKey(key)) as K);
      fn();
    });
  }
}

/** `entries` with each key turned into its memory key. */
function* withMemoryKeys(entries: Iterable<[unknown, unknown]>, memoryKey: (key: unknown) => unknown): Iterable<[unknown, unknown]> {
  for (const [key, value] of entries) yield [memoryKey(key), value];
}

/**
 * `left.connect(right).keyBy(leftKey, rightKey).process(fn)` with the output
 * watermark `delayMs` behind the operator's watermark (the final watermark
 * stays final: `Infinity - delay` is `Infinity`), `fn`'s cleanup run by the
 * watermark and its state written before each snapshot.
 *
 * @example
 * ```ts
 * const joined = processWithWatermarkDelay(left, right, keyOfLeft, keyOfRight, new MyJoin(), 10_001);
 * ```
 */
export function processWithWatermarkDelay<K, IN1, IN2, OUT>(
  left: DataStream<IN1>,
  right: DataStream<IN2>,
  leftKey: KeySelector<IN1, K>,
  rightKey: KeySelector<IN2, K>,
  fn: WriteBehindJoinFunction<K, IN1, IN2, OUT>,
  delayMs: number,
  memoryKeys?: MemoryKeys<IN1, IN2>,
): SingleOutputStreamOperator<OUT> {
  const env = left.getExecutionEnvironment();
  const leftKeyed = left.keyBy(leftKey);
  const rightKeyed = right.keyBy(rightKey);
  const node = env.addNode({
    type: "keyed-co-process",
    name: "KeyedCoProcess",
    inputs: [...edgesOf(leftKeyed, 0), ...edgesOf(rightKeyed, 1)],
    createOperator: () => new DelayedWatermarkCoProcessOperator(cloneFunction(fn), delayMs, memoryKeys),
    keySelector: leftKey as KeySelector,
    keySelector2: rightKey as KeySelector,
  });
  return new SingleOutputStreamOperator<OUT>(env, node);
}
