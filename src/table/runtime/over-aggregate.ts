/**
 * `OVER` aggregation ordered by an event-time attribute (`SUM(x) OVER
 * (PARTITION BY k ORDER BY ts ROWS|RANGE BETWEEN … PRECEDING AND CURRENT
 * ROW)`) on an insert-only input: every row comes out once, `+I[input
 * fields…, call results…]`, when the watermark passes its time, in time
 * order per partition.
 *
 * Rows wait in state by time until the watermark reaches them (an
 * event-time timer per distinct time); rows whose time is at or below the
 * watermark on arrival are late and dropped, as Flink does. Frames:
 *
 * - `ROWS`: the current row and the `preceding` rows before it (ties in
 *   arrival order), unbounded or not;
 * - `RANGE`: every row whose time is within `preceding` ms before the
 *   current row's time, so rows of the same time see each other.
 *
 * Unbounded frames keep only the accumulators (insert-only functions);
 * bounded ones also keep the rows of the frame (a `MapState` by sequence
 * number) and retract each row as it leaves the frame (retractable
 * functions). Multisets (`DISTINCT`, retractable `MIN`/`MAX`) are keyed
 * `MapState`s, so a row costs a few small state accesses whatever the frame.
 */
import type { OperatorNaming } from "./operator-naming.ts";
import type { DataStream } from "../../api/data-stream.ts";
import type { Collector } from "../../core/collector.ts";
import { KeyedProcessFunction, type KeyedProcessContext, type OnTimerContext } from "../../core/process-function.ts";
import { MapStateDescriptor, ValueStateDescriptor, type MapState, type ValueState } from "../../state/index.ts";
import type { Row } from "../data/row.ts";
import type { SqlValue } from "../types/sql-value.ts";
import { KeyedAccumulators } from "./agg/keyed-accumulators.ts";
import type { AggregateCall } from "./aggregate-call.ts";
import { rowKeySelector } from "./row-key.ts";

/** The frame of an `OVER` window; it always ends at the current row. */
export interface OverFrame {
  unit: "ROWS" | "RANGE";
  /** Rows (ROWS) or milliseconds (RANGE) before the current row, or no limit. */
  preceding: number | "unbounded";
}

/** A planned `OVER` aggregation (ascending event-time order). */
export interface OverAggregateSpec {
  partitionKeys: readonly number[];
  /** Input position of the event-time attribute of `ORDER BY`. */
  timeField: number;
  frame: OverFrame;
  calls: readonly AggregateCall[];
}

/** A partition's accumulators and, for a bounded frame, the sequence numbers of the frame's rows (`head` ≤ n < `tail`). */
interface OverState {
  accs: unknown[];
  head: number;
  tail: number;
}

class OverAggFunction extends KeyedProcessFunction<string, Row, Row> {
  /** Made in `open`: it holds this parallel instance's state handles (the function object is cloned per instance). */
  private aggs!: KeyedAccumulators;
  private pending!: MapState<number, SqlValue[][]>;
  private state!: ValueState<OverState>;
  /** The rows of a bounded frame by sequence number: [time, fields]. */
  private frame!: MapState<number, [number, SqlValue[]]>;

  constructor(private readonly spec: OverAggregateSpec) {
    super();
  }

  open(): void {
    const ctx = this.getRuntimeContext();
    this.pending = ctx.getMapState(new MapStateDescriptor<number, SqlValue[][]>("pending"));
    this.state = ctx.getState(new ValueStateDescriptor<OverState>("over"));
    this.frame = ctx.getMapState(new MapStateDescriptor<number, [number, SqlValue[]]>("frame"));
    this.aggs = new KeyedAccumulators(this.spec.calls, { retractable: this.spec.frame.preceding !== "unbounded" });
    this.aggs.open(ctx);
  }

  processElement(row: Row, ctx: KeyedProcessContext<string>, _out: Collector<Row>): void {
    const t = row.fields[this.spec.timeField];
    if (typeof t !== "number" || t <= ctx.timerService().currentWatermark()) return; // no time, or late
    const rows = this.pending.get(t) ?? [];
    rows.push(row.fields);
    this.pending.put(t, rows);
    ctx.timerService().registerEventTimeTimer(t);
  }

  /** Retracts and forgets the oldest row of the frame. */
  private dropOldest(st: OverState, row: [number, SqlValue[]]): void {
    this.aggs.retract(st.accs, row[1]);
    this.frame.remove(st.head++);
  }

  onTimer(t: number, _ctx: OnTimerContext<string>, out: Collector<Row>): void {
    const rows = this.pending.get(t);
    if (rows === undefined) return;
    this.pending.remove(t);
    const st = this.state.value() ?? { accs: this.aggs.create(), head: 0, tail: 0 };
    const emit = (fields: SqlValue[], values: readonly SqlValue[]) => out.collect({ kind: "+I", fields: [...fields, ...values] });
    const { unit, preceding } = this.spec.frame;
    if (unit === "ROWS") {
      for (const fields of rows) {
        this.aggs.accumulate(st.accs, fields);
        if (preceding !== "unbounded") {
          this.frame.put(st.tail++, [t, fields]);
          if (st.tail - st.head > preceding + 1) this.dropOldest(st, this.frame.get(st.head)!);
        }
        emit(fields, this.aggs.values(st.accs));
      }
    } else {
      if (preceding !== "unbounded") {
        for (let oldest = this.frame.get(st.head); oldest !== undefined && oldest[0] < t - preceding; oldest = this.frame.get(st.head)) this.dropOldest(st, oldest);
        for (const fields of rows) this.frame.put(st.tail++, [t, fields]);
      }
      for (const fields of rows) this.aggs.accumulate(st.accs, fields);
      const values = this.aggs.values(st.accs);
      for (const fields of rows) emit(fields, values);
    }
    this.state.update(st);
  }
}

/**
 * The `OVER` aggregation of `input` (insert-only) by `spec`: each input row
 * with the call results appended, as `+I`, once the watermark passes it.
 *
 * @example
 * ```ts
 * // SELECT *, SUM(amount) OVER (PARTITION BY product ORDER BY order_time
 * //   RANGE BETWEEN INTERVAL '1' HOUR PRECEDING AND CURRENT ROW) FROM orders
 * overAggregate(orders, {
 *   partitionKeys: [1],
 *   timeField: 3,
 *   frame: { unit: "RANGE", preceding: 3_600_000 },
 *   calls: [{ fn: "SUM", args: [2], argTypes: [INT], distinct: false, resultType: INT, text: "SUM(amount)" }],
 * }, { uid: "over-1", name: "OverAggregate" });
 * ```
 */
export function overAggregate(input: DataStream<Row>, spec: OverAggregateSpec, naming: OperatorNaming): DataStream<Row> {
  return input.keyBy(rowKeySelector(spec.partitionKeys)).process(new OverAggFunction(spec)).uid(naming.uid).name(naming.name);
}
