/**
 * Mini-batch group aggregation (Flink's `table.exec.mini-batch.enabled`,
 * `allow-latency`, `size`): the operator buffers its input rows per group key
 * (in arrival order) instead of applying each at once, and then folds each
 * key's rows into the group's state in one state access, emitting one change
 * per key and batch (`-U[before]`/`+U[after]`, `+I`, `-D`, or nothing when
 * the result row ended as it began). The changelog is coarser than row by
 * row; folded to a table it is the same at every flush, and so at the end.
 *
 * A batch is flushed when it holds `size` rows, when `allow-latency` passed
 * since its first row (processing time), when a watermark arrives (before it
 * is forwarded), before a checkpoint's barrier is forwarded (the buffer is
 * never state: a checkpoint holds every row before its barrier in the groups'
 * state, so exactly-once holds with the group state as it always was), and at
 * the end of input.
 */
import type { DataStream, SingleOutputStreamOperator } from "../../api/data-stream.ts";
import { SingleOutputStreamOperator as Operator, cloneFunction } from "../../api/data-stream.ts";
import { edgesOf } from "../../api/connected-streams.ts";
import type { KeySelector } from "../../graph/stream-graph.ts";
import { NO_TIMESTAMP } from "../../runtime/elements.ts";
import { KeyedProcessOperator } from "../../runtime/operators/keyed-process-operator.ts";
import type { OperatorContext, Output } from "../../runtime/operators/stream-operator.ts";
import type { Row } from "../data/row.ts";
import type { GroupAggFunction } from "./group-aggregate.ts";

/** When a mini-batch is flushed (besides watermarks, barriers and the end of input). */
export interface MiniBatchSpec {
  /** `table.exec.mini-batch.size`: rows buffered at most (> 0). */
  readonly size: number;
  /** `table.exec.mini-batch.allow-latency` in ms: the longest a row waits (> 0). */
  readonly allowLatencyMs: number;
}

/** Buffers rows per key; folds each key's rows with the group aggregation's function on flush. */
class MiniBatchGroupAggOperator extends KeyedProcessOperator<string, Row, Row> {
  private keyOf!: KeySelector;
  private readonly buffer = new Map<unknown, Row[]>();
  private buffered = 0;
  /** A latency flush is scheduled (for the batch being filled). */
  private scheduled = false;

  constructor(
    private readonly agg: GroupAggFunction,
    private readonly batch: MiniBatchSpec,
  ) {
    super(agg);
  }

  override async open(ctx: OperatorContext, output: Output<Row>): Promise<void> {
    this.keyOf = ctx.keySelector!;
    await super.open(ctx, output);
  }

  override processElement(row: Row): void {
    const key = this.keyOf(row);
    const rows = this.buffer.get(key);
    if (rows === undefined) this.buffer.set(key, [row]);
    else rows.push(row);
    if (++this.buffered >= this.batch.size) this.flush();
    else if (!this.scheduled) {
      this.scheduled = true;
      const time = this.ctx.processingTime;
      time.scheduleAt(time.now() + this.batch.allowLatencyMs, () => {
        this.scheduled = false;
        this.flush();
      });
    }
  }

  override processWatermark(timestamp: number): void {
    this.flush();
    super.processWatermark(timestamp);
  }

  prepareSnapshotPreBarrier(): void {
    this.flush();
  }

  finish(): void {
    this.flush();
  }

  /** Folds each buffered key's rows, keys in the order of their first row. */
  private flush(): void {
    if (this.buffered === 0) return;
    this.ctx.element.timestamp = NO_TIMESTAMP;
    for (const [key, rows] of this.buffer) {
      this.setKey(key);
      this.agg.fold(rows, this.context, this.out);
    }
    this.buffer.clear();
    this.buffered = 0;
  }
}

/**
 * `input.keyBy(key).process(fn)` with mini-batches (the same node type as
 * `process`: turning mini-batch on or off keeps a job's savepoints usable).
 *
 * @example
 * ```ts
 * miniBatchGroupAggregate(clicks, rowKeySelector([0]), new GroupAggFunction(spec), { size: 1000, allowLatencyMs: 100 });
 * ```
 */
export function miniBatchGroupAggregate(input: DataStream<Row>, key: KeySelector<Row, string>, fn: GroupAggFunction, batch: MiniBatchSpec): SingleOutputStreamOperator<Row> {
  const env = input.getExecutionEnvironment();
  const node = env.addNode({
    type: "keyed-process",
    name: "KeyedProcess",
    inputs: edgesOf(input.keyBy(key), 0),
    createOperator: () => new MiniBatchGroupAggOperator(cloneFunction(fn), batch),
    keySelector: key as KeySelector,
  });
  return new Operator<Row>(env, node);
}
