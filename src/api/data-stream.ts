/**
 * The stream builders: DataStream, its operator-returning form
 * SingleOutputStreamOperator (uid, name, parallelism), KeyedStream and
 * DataStreamSink. They only add nodes to the environment's stream graph;
 * nothing runs until `execute()`.
 */
import type { FilterFunction, FlatMapFunction, MapFunction, ReduceFunction } from "../core/functions.ts";
import type {
  KeyedProcessFunctionLike,
  KeyedProcessFunctionObject,
  ProcessFunctionLike,
  ProcessFunctionObject,
} from "../core/process-function.ts";
import { asFunctionObject } from "../core/function-object.ts";
import type { Sink } from "../core/sink.ts";
import type { OutputTag } from "../core/output-tag.ts";
import { OperatorSettings } from "./operator-settings.ts";
import type { WatermarkStrategy } from "../time/watermark-strategy.ts";
import { TimestampsAndWatermarksOperator } from "../runtime/operators/timestamps-and-watermarks-operator.ts";
import type { KeySelector, Partitioning, StreamEdge, StreamNode } from "../graph/stream-graph.ts";
import { printSink } from "../connectors/builtin/print-sink.ts";
import { executeAndCollect, type CollectResultIterator } from "./execute-and-collect.ts";
import { FilterOperator, FlatMapOperator, MapOperator, ProcessOperator } from "../runtime/operators/element-operators.ts";
import { KeyedProcessOperator } from "../runtime/operators/keyed-process-operator.ts";
import { KeyedReduceOperator } from "../runtime/operators/keyed-reduce-operator.ts";
import { aggregationName, FieldAggregation, type AggregationArgs, type AggregationKind } from "./built-in-aggregations.ts";
import { SinkOperator } from "../runtime/operators/sink-operator.ts";
import type { StreamExecutionEnvironment } from "./environment.ts";
import type { Window } from "../time/windows/window.ts";
import type { WindowAssigner } from "../time/windows/window-assigner.ts";
import { WindowedStream } from "./windowed-stream.ts";
import { AllWindowedStream } from "./all-windowed-stream.ts";
import { JoinedStreams } from "./join.ts";
import { CoGroupedStreams } from "./co-group.ts";
import type { MapStateDescriptor } from "../state/index.ts";
import { ConnectedStreams, KeyedConnectedStreams } from "./connected-streams.ts";
import { BroadcastStream } from "./broadcast-stream.ts";
import { BroadcastConnectedStream, KeyedBroadcastConnectedStream } from "./broadcast-connected-stream.ts";
import { IntervalJoin } from "./interval-join.ts";
import { refuseAsyncFunction } from "./refuse-async-function.ts";
import { checkedKeySelector } from "./checked-key-selector.ts";

/** An input of the next operator: a node and how its records are distributed. */
interface Upstream {
  readonly node: number;
  readonly partitioning?: Partitioning;
  readonly keySelector?: KeySelector;
  /** A side output of the node instead of its main output. */
  readonly sideTag?: string;
}

/**
 * A stream of records of type `T`.
 *
 * @example
 * ```ts
 * env.fromSequence(1, 100)
 *   .filter((n) => n % 2 === 0)
 *   .map((n) => n * n)
 *   .print();
 * ```
 */
export class DataStream<T> {
  /** @internal */
  constructor(
    protected readonly env: StreamExecutionEnvironment,
    /** @internal */ readonly upstreams: readonly Upstream[],
  ) {}

  /** The environment this stream belongs to. */
  getExecutionEnvironment(): StreamExecutionEnvironment {
    return this.env;
  }

  /**
   * Applies `fn` to every record: a function, or an object with `map` (and
   * `open(context)`, `close()`, fields of its own on `this`).
   *
   * @example
   * ```ts
   * words.map((w) => w.length);
   * words.map({ open(ctx) { this.tag = `#${ctx.getIndexOfThisSubtask()}`; }, tag: "", map(w): string { return w + this.tag; } });
   * ```
   */
  map<R, S = unknown>(fn: MapFunction<T, R, S>): SingleOutputStreamOperator<R> {
    refuseAsyncFunction("map", fn);
    return this.transform("map", "Map", () => new MapOperator(cloneFunction(fn)));
  }

  /**
   * Assigns event timestamps and generates watermarks here (when the source cannot).
   *
   * @example
   * ```ts
   * stream.assignTimestampsAndWatermarks(
   *   WatermarkStrategy.forBoundedOutOfOrderness<Bid>(5_000).withTimestampAssigner((b) => b.dateTime));
   * ```
   */
  assignTimestampsAndWatermarks(strategy: WatermarkStrategy<T>): SingleOutputStreamOperator<T> {
    return this.transform("timestamps-watermarks", "Timestamps/Watermarks", () => new TimestampsAndWatermarksOperator(strategy));
  }

  /** Keeps the records for which `fn` returns true: a function, or an object with `filter` (and `open(context)`, `close()`). */
  filter<S = unknown>(fn: FilterFunction<T, S>): SingleOutputStreamOperator<T> {
    refuseAsyncFunction("filter", fn);
    return this.transform("filter", "Filter", () => new FilterOperator(cloneFunction(fn)));
  }

  /** Zero or more records per record: return an iterable or use the collector (a function, or an object with `flatMap` and `open(context)`, `close()`). */
  flatMap<R, S = unknown>(fn: FlatMapFunction<T, R, S>): SingleOutputStreamOperator<R> {
    refuseAsyncFunction("flatMap", fn);
    return this.transform("flat-map", "FlatMap", () => new FlatMapOperator(cloneFunction(fn)));
  }

  /**
   * Low-level processing of every record: a ProcessFunction, an object literal
   * with `processElement` (and `open(context)`, `close()`), or the `processElement`
   * function alone; the output type comes from `out`'s annotation (or `process<R>`).
   *
   * @example
   * ```ts
   * lines.process((line, ctx, out: Collector<string>) => {
   *   if (line.startsWith("#")) ctx.output(comments, line); else out.collect(line);
   * });
   * ```
   */
  process<R, S = unknown>(fn: ProcessFunctionLike<T, R, S>): SingleOutputStreamOperator<R> {
    const f = asFunctionObject<ProcessFunctionObject<T, R>>(fn, "processElement");
    return this.transform("process", "Process", () => new ProcessOperator(cloneFunction(f)));
  }

  /**
   * Partitions the stream by key: records with the same key go to the same parallel
   * instance, and keyed state is scoped to the key. Keys must be strings, numbers,
   * bigints, booleans or arrays of those: a record whose key is null or undefined fails
   * the job with a `NullKeyError` naming this call's file:line, the selector and the record.
   */
  keyBy<K>(key: KeySelector<T, K>): KeyedStream<T, K> {
    const checked = checkedKeySelector(key);
    return new KeyedStream<T, K>(this.env, this.upstreams.map((u) => ({ ...u, partitioning: "hash", keySelector: checked as KeySelector })), checked);
  }

  /** Merges streams of the same type into one. */
  union(...others: DataStream<T>[]): DataStream<T> {
    return new DataStream<T>(this.env, [...this.upstreams, ...others.flatMap((o) => o.upstreams)]);
  }

  /**
   * Groups the whole stream into windows, in one parallel instance (Flink's windowAll).
   *
   * @example
   * ```ts
   * stream.windowAll(TumblingEventTimeWindows.of(1_000)).sum("amount");
   * ```
   */
  windowAll<W extends Window>(assigner: WindowAssigner<T, W>): AllWindowedStream<T, W> {
    return new AllWindowedStream(this, assigner);
  }

  /**
   * Window join with another stream: `.where(k1).equalTo(k2).window(assigner).apply((a, b) => r)`.
   *
   * @example
   * ```ts
   * a.join(b).where((x) => x.id).equalTo((y) => y.id).window(TumblingEventTimeWindows.of(1_000)).apply((x, y) => [x, y]);
   * ```
   */
  join<B>(other: DataStream<B>): JoinedStreams<T, B> {
    return new JoinedStreams(this, other);
  }

  /**
   * Window coGroup with another stream: `.where(k1).equalTo(k2).window(assigner).apply((as, bs, out) => …)`.
   *
   * @example
   * ```ts
   * a.coGroup(b).where((x) => x.id).equalTo((y) => y.id).window(TumblingEventTimeWindows.of(1_000))
   *   .apply((xs, ys, out) => out.collect([xs.length, ys.length]));
   * ```
   */
  coGroup<B>(other: DataStream<B>): CoGroupedStreams<T, B> {
    return new CoGroupedStreams(this, other);
  }

  /** Distributes records round-robin over the next operator's instances. */
  rebalance(): DataStream<T> {
    return this.partitioned("rebalance");
  }

  /**
   * Without arguments: sends every record to every instance of the next operator.
   * With MapStateDescriptors: a BroadcastStream whose records maintain those
   * broadcast states, to `connect` to another stream.
   *
   * @example
   * ```ts
   * const rules = new MapStateDescriptor<string, Rule>("rules");
   * events.keyBy((e) => e.user).connect(ruleStream.broadcast(rules)).process(new ApplyRules());
   * ```
   */
  broadcast(): DataStream<T>;
  broadcast(...descriptors: [MapStateDescriptor<unknown, unknown>, ...MapStateDescriptor<unknown, unknown>[]]): BroadcastStream<T>;
  broadcast(...descriptors: MapStateDescriptor<unknown, unknown>[]): DataStream<T> | BroadcastStream<T> {
    return descriptors.length === 0 ? this.partitioned("broadcast") : new BroadcastStream(this, descriptors);
  }

  /**
   * Connects this stream with another into one two-input operator (`ConnectedStreams`),
   * or with a broadcast stream (`BroadcastConnectedStream`). Connect two keyed
   * streams for keyed state and timers shared by both inputs.
   *
   * @example
   * ```ts
   * orders.keyBy((o) => o.id).connect(payments.keyBy((p) => p.orderId)).process(new MatchPayment());
   * ```
   */
  connect<B>(other: BroadcastStream<B>): BroadcastConnectedStream<T, B>;
  connect<B>(other: DataStream<B>): ConnectedStreams<T, B>;
  connect<B>(other: DataStream<B> | BroadcastStream<B>): ConnectedStreams<T, B> | BroadcastConnectedStream<T, B> {
    return other instanceof BroadcastStream ? new BroadcastConnectedStream(this, other) : new ConnectedStreams(this, other);
  }

  /** Keeps records in the same instance (requires equal parallelism; allows chaining). */
  forward(): DataStream<T> {
    return this.partitioned("forward");
  }

  /** Writes the stream to a sink. */
  sinkTo(sink: Sink<T>): DataStreamSink {
    const node = this.env.addNode({
      type: "sink",
      name: "Sink",
      inputs: this.edges(),
      createOperator: () => new SinkOperator(sink),
    });
    return new DataStreamSink(node);
  }

  /**
   * Runs the job and returns its results as they come, to read with `for await`
   * (Flink's `executeAndCollect`); at most `limit` of them. Leaving the loop
   * early (or `close()`) cancels the job; a failed job makes the loop throw.
   * With checkpointing the results come per completed checkpoint, each exactly
   * once in exactly-once mode, also across failures; without, as they come, and
   * a restart after results were returned fails the loop (`CollectRestartError`).
   * Meant for tests and small results: they wait in memory until read.
   *
   * @example
   * ```ts
   * for await (const total of env.fromSequence(1, 10).keyBy((n) => n % 2).sum().executeAndCollect("sums")) {
   *   console.log(total);
   * }
   * ```
   */
  executeAndCollect(jobName = "weir-job", limit = Number.POSITIVE_INFINITY): CollectResultIterator<T> {
    return executeAndCollect(this, this.env, jobName, limit);
  }

  /** Prints every record to standard output (`3> record` with the subtask when parallel). Not exactly-once. */
  print(prefix?: string): DataStreamSink {
    const s = this.sinkTo(printSink<T>(prefix));
    s.name("Print");
    return s;
  }

  /** @internal */
  protected edges(): StreamEdge[] {
    return this.upstreams.map((u) => ({ from: u.node, partitioning: u.partitioning ?? "forward", keySelector: u.keySelector, sideTag: u.sideTag }));
  }

  /** @internal Adds a one-input operator. */
  protected transform<R>(type: string, name: string, createOperator: () => object, keySelector?: KeySelector): SingleOutputStreamOperator<R> {
    const node = this.env.addNode({ type, name, inputs: this.edges(), createOperator, keySelector });
    return new SingleOutputStreamOperator<R>(this.env, node);
  }

  private partitioned(p: Partitioning): DataStream<T> {
    return new DataStream<T>(this.env, this.upstreams.map((u) => ({ node: u.node, sideTag: u.sideTag, partitioning: p })));
  }
}

/** The stream an operator produces; configures that operator. */
export class SingleOutputStreamOperator<T> extends DataStream<T> {
  /** @internal */
  private readonly settings: OperatorSettings;

  constructor(env: StreamExecutionEnvironment, private readonly node: StreamNode) {
    super(env, [{ node: node.id }]);
    this.settings = new OperatorSettings(node);
  }

  /** The records the operator emitted to the side output `tag`. */
  getSideOutput<X>(tag: OutputTag<X>): DataStream<X> {
    return new DataStream<X>(this.env, [{ node: this.node.id, sideTag: tag.id }]);
  }

  /** Stable id of the operator's state: keep it when changing the job so state is restored. */
  uid(uid: string): this {
    this.settings.uid(uid);
    return this;
  }

  /** Name shown in logs, errors and the dashboard. */
  name(name: string): this {
    this.settings.name(name);
    return this;
  }

  /** A longer description of the operator, shown in the job's plan in place of its name (Flink's `setDescription`). */
  setDescription(description: string): this {
    this.settings.setDescription(description);
    return this;
  }

  /** @internal Sets the description unless the operator has one (the SQL planner's plan-node descriptions). */
  describeIfUndescribed(description: string): void {
    this.node.description ??= description;
  }

  setParallelism(parallelism: number): this {
    this.settings.setParallelism(parallelism);
    return this;
  }

  setMaxParallelism(maxParallelism: number): this {
    this.settings.setMaxParallelism(maxParallelism);
    return this;
  }

  /** Runs the operator in its own task instead of chaining it to its predecessor. */
  disableChaining(): this {
    this.settings.disableChaining();
    return this;
  }
}

/**
 * A stream partitioned by key (`keyBy`), with keyed state for its operators.
 *
 * @example
 * ```ts
 * env.fromElements(["a", 1], ["b", 2], ["a", 3])
 *   .keyBy(([k]) => k)
 *   .sum("1")
 *   .print();
 * ```
 */
export class KeyedStream<T, K> extends DataStream<T> {
  /** @internal */
  constructor(env: StreamExecutionEnvironment, upstreams: readonly Upstream[], private readonly key: KeySelector<T, K>) {
    super(env, upstreams);
  }

  /**
   * Processes every record with keyed state scoped to its key and timers: a
   * KeyedProcessFunction (or ProcessFunction), an object literal with
   * `processElement` (and `onTimer`, `open(context)`, `close()`), or the
   * `processElement` function alone.
   *
   * @example
   * ```ts
   * words.keyBy((w) => w).process({
   *   count: undefined as ValueState<number> | undefined,
   *   open(ctx) { this.count = ctx.getState(new ValueStateDescriptor<number>("count", 0)); },
   *   processElement(w, ctx, out: Collector<[string, number]>) {
   *     const n = this.count!.value()! + 1;
   *     this.count!.update(n);
   *     out.collect([ctx.getCurrentKey(), n]);
   *   },
   * });
   * ```
   */
  override process<R, S = unknown>(fn: KeyedProcessFunctionLike<K, T, R, S>): SingleOutputStreamOperator<R> {
    const f = asFunctionObject<KeyedProcessFunctionObject<K, T, R>>(fn, "processElement");
    return this.transform("keyed-process", "KeyedProcess", () => new KeyedProcessOperator(cloneFunction(f)), this.key as KeySelector);
  }

  /**
   * Connects this keyed stream with a broadcast stream (keyed state and timers on
   * this side), with another stream keyed on the same key type (keyed state and
   * timers shared by both inputs), or with any stream.
   *
   * @example
   * ```ts
   * orders.keyBy((o) => o.id).connect(payments.keyBy((p) => p.orderId)).process(new MatchPayment());
   * ```
   */
  override connect<B>(other: BroadcastStream<B>): KeyedBroadcastConnectedStream<T, B, K>;
  override connect<B>(other: KeyedStream<B, K>): KeyedConnectedStreams<T, B, K>;
  override connect<B>(other: DataStream<B>): ConnectedStreams<T, B>;
  override connect<B>(other: DataStream<B> | BroadcastStream<B>): ConnectedStreams<T, B> | BroadcastConnectedStream<T, B> {
    if (other instanceof BroadcastStream) return new KeyedBroadcastConnectedStream(this, other);
    return other instanceof KeyedStream ? new KeyedConnectedStreams(this, other) : new ConnectedStreams(this, other);
  }

  /**
   * Interval join with another keyed stream (event time): set the bounds with `between`.
   *
   * @example
   * ```ts
   * clicks.keyBy((c) => c.user).intervalJoin(buys.keyBy((b) => b.user)).between(-5_000, 10_000).process(new Pair());
   * ```
   */
  intervalJoin<R>(other: KeyedStream<R, K>): IntervalJoin<T, R, K> {
    return new IntervalJoin(this, other);
  }

  /**
   * Groups each key's records into windows.
   *
   * @example
   * ```ts
   * stream.keyBy((e) => e.user).window(TumblingEventTimeWindows.of(60_000)).sum("clicks");
   * ```
   */
  window<W extends Window>(assigner: WindowAssigner<T, W>): WindowedStream<T, K, W> {
    return new WindowedStream<T, K, W>(this, assigner);
  }

  /** Rolling reduce: emits the combined value of the key after every record. */
  reduce(fn: ReduceFunction<T>): SingleOutputStreamOperator<T> {
    return this.transform("reduce", "Reduce", () => new KeyedReduceOperator<T>(cloneFunction(fn)), this.key as KeySelector);
  }

  /**
   * Rolling sum of the records (numbers or bigints) or of one numeric field (an
   * object key, or a tuple position); the other fields are those of the key's
   * first record. Only numeric fields compile; a record whose field is missing or
   * not a number fails the job with an AggregationFieldError.
   *
   * @example
   * ```ts
   * visits.keyBy((v) => v.page).sum("ms");
   * pairs.keyBy(([word]) => word).sum(1); // [string, number] tuples
   * ```
   */
  sum(...[field]: AggregationArgs<T>): SingleOutputStreamOperator<T> {
    return this.aggregateField("sum", field);
  }

  /** Rolling minimum of the records or of one numeric field; the other fields are those of the key's first record. */
  min(...[field]: AggregationArgs<T>): SingleOutputStreamOperator<T> {
    return this.aggregateField("min", field);
  }

  /** Rolling maximum of the records or of one numeric field; the other fields are those of the key's first record. */
  max(...[field]: AggregationArgs<T>): SingleOutputStreamOperator<T> {
    return this.aggregateField("max", field);
  }

  /** Rolling record with the smallest value in the numeric `field` (the first one on ties). */
  minBy(...[field]: AggregationArgs<T>): SingleOutputStreamOperator<T> {
    return this.aggregateField("minBy", field);
  }

  /** Rolling record with the largest value in the numeric `field` (the first one on ties). */
  maxBy(...[field]: AggregationArgs<T>): SingleOutputStreamOperator<T> {
    return this.aggregateField("maxBy", field);
  }

  private aggregateField(kind: AggregationKind, field: string | number | undefined): SingleOutputStreamOperator<T> {
    const name = field === undefined ? undefined : String(field);
    const create = () => {
      const agg = new FieldAggregation<T>(kind, name);
      return new KeyedReduceOperator<T>(agg, (record) => agg.first(record));
    };
    return this.transform(kind, aggregationName(kind), create, this.key as KeySelector);
  }
}

/** The end of a stream: configures the sink operator (uid, name, parallelism, chaining). */
export class DataStreamSink extends OperatorSettings {}

/**
 * A copy of a function object for one parallel instance, so that fields a user
 * keeps on `this` are not shared between instances or attempts (Flink
 * serializes functions; here a shallow copy with the same prototype). Plain
 * functions are returned as they are.
 */
export function cloneFunction<F>(fn: F): F {
  if (typeof fn !== "object" || fn === null) return fn;
  return Object.assign(Object.create(Object.getPrototypeOf(fn)), fn) as F;
}
