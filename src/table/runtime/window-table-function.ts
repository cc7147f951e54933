/**
 * The window table-valued functions (`TABLE(TUMBLE(…))`, `HOP`, `CUMULATE`,
 * `SESSION`) over an insert-only input: each row comes out once per window
 * that contains its time attribute, with three fields appended:
 * `window_start`, `window_end` (TIMESTAMP(3), epoch ms) and `window_time`
 * (`window_end - 1`, the window's rowtime).
 *
 * - `TUMBLE`, `HOP`, `CUMULATE` are stateless: windows `[start, end)` aligned
 *   to the epoch plus `offset` (which may be negative); a hopping row comes out
 *   once per window of size `size` every `slide` that contains it (latest
 *   start first), a cumulating row once per window `[start, start + k * step)`
 *   of its `maxSize` period that contains it (shortest first). They drop no
 *   late row: the window operator that consumes them decides lateness.
 * - `SESSION` buffers rows per partition (`partitionKeys`) in keyed state:
 *   a session is a maximal run of rows whose times are at most `gap` apart,
 *   `[first, last + gap)`; it comes out (its rows in time order, ties by
 *   arrival) when the watermark passes its end - 1. A row is dropped when the
 *   session it lands in (after merging) has already ended by the watermark,
 *   as Flink's window operator drops late rows.
 *
 * Rows whose time attribute is NULL are dropped (as Flink).
 */
import type { OperatorNaming } from "./operator-naming.ts";
import type { Collector } from "../../core/collector.ts";
import type { DataStream } from "../../api/data-stream.ts";
import { KeyedProcessFunction, type KeyedProcessContext, type OnTimerContext } from "../../core/process-function.ts";
import { ValueStateDescriptor, type ValueState } from "../../state/index.ts";
import type { Row } from "../data/row.ts";
import type { SqlValue } from "../types/sql-value.ts";
import { rowKeySelector } from "./row-key.ts";
import type { WindowSpec } from "./window-spec.ts";
import { windowStartWithOffset } from "../../time/windows/window.ts";

/**
 * The windows `[start, end)` of a tumbling, hopping or cumulating window spec
 * that contain `time`, in the order their rows come out.
 *
 * @example
 * ```ts
 * alignedWindows({ kind: "hop", timeField: 0, size: 10, slide: 5, offset: 0 }, 12); // [[10, 20], [5, 15]]
 * ```
 */
export function alignedWindows(window: Exclude<WindowSpec, { kind: "session" }>, time: number): [number, number][] {
  switch (window.kind) {
    case "tumble": {
      const start = windowStartWithOffset(time, window.offset, window.size);
      return [[start, start + window.size]];
    }
    case "hop": {
      const out: [number, number][] = [];
      for (let start = windowStartWithOffset(time, window.offset, window.slide); start > time - window.size; start -= window.slide) {
        out.push([start, start + window.size]);
      }
      return out;
    }
    case "cumulate": {
      const start = windowStartWithOffset(time, window.offset, window.maxSize);
      const out: [number, number][] = [];
      for (let end = windowStartWithOffset(time, window.offset, window.step) + window.step; end <= start + window.maxSize; end += window.step) {
        out.push([start, end]);
      }
      return out;
    }
  }
}

/**
 * Applies the window TVF `window` to `input`: one operator named by `naming`
 * (keyed by the partition keys for `SESSION`).
 *
 * @example
 * ```ts
 * // TABLE(TUMBLE(TABLE bids, DESCRIPTOR(bidtime), INTERVAL '10' MINUTES)), bidtime at 0
 * const windowed = windowTableFunction(bids, { kind: "tumble", timeField: 0, size: 600_000, offset: 0 },
 *   { uid: "tumble-bids", name: "WindowTableFunction(tumble)" });
 * ```
 */
export function windowTableFunction(input: DataStream<Row>, window: WindowSpec, naming: OperatorNaming): DataStream<Row> {
  if (window.kind === "session") {
    return input
      .keyBy(rowKeySelector(window.partitionKeys))
      .process(new SessionFunction(window.timeField, window.gap))
      .uid(naming.uid)
      .name(naming.name);
  }
  const field = window.timeField;
  if (window.kind === "tumble") {
    const { offset, size } = window;
    // the window of the last row: rows come window after window
    let start = Number.NaN;
    return input
      .flatMap((row: Row, out: Collector<Row>) => {
        const time = row.fields[field];
        if (time === null || time === undefined) return;
        const t = time as number;
        if (!(t >= start && t < start + size)) start = windowStartWithOffset(t, offset, size);
        out.collect({ kind: row.kind, fields: withWindow(row.fields, start, start + size) });
      })
      .uid(naming.uid)
      .name(naming.name);
  }
  return input
    .flatMap((row: Row, out: Collector<Row>) => {
      const time = row.fields[field];
      if (time === null || time === undefined) return;
      for (const [start, end] of alignedWindows(window, time as number)) out.collect({ kind: row.kind, fields: withWindow(row.fields, start, end) });
    })
    .uid(naming.uid)
    .name(naming.name);
}

/** `fields` followed by `window_start`, `window_end` and `window_time`: one array of the row's length, filled in place. */
function withWindow(fields: readonly SqlValue[], start: number, end: number): SqlValue[] {
  const n = fields.length;
  const out = new Array<SqlValue>(n + 3);
  for (let i = 0; i < n; i++) out[i] = fields[i]!;
  out[n] = start;
  out[n + 1] = end;
  out[n + 2] = end - 1;
  return out;
}

/** An open session: `[start, last + gap)` and its rows in time order. */
interface Session {
  start: number;
  last: number;
  rows: SqlValue[][];
}

class SessionFunction extends KeyedProcessFunction<string, Row, Row> {
  private sessions!: ValueState<Session[]>;

  constructor(
    private readonly timeField: number,
    private readonly gap: number,
  ) {
    super();
  }

  override open(): void {
    this.sessions = this.getRuntimeContext().getState(new ValueStateDescriptor<Session[]>("session-rows"));
  }

  processElement(row: Row, ctx: KeyedProcessContext<string>, _out: Collector<Row>): void {
    const time = row.fields[this.timeField];
    if (time === null || time === undefined) return;
    const t = time as number;
    const gap = this.gap;
    const kept: Session[] = [];
    const merged: Session = { start: t, last: t, rows: [] };
    for (const s of this.sessions.value() ?? []) {
      // Flink's session windows [t, t + gap) merge when they overlap or touch.
      if (s.start <= t + gap && s.last + gap >= t) {
        merged.start = Math.min(merged.start, s.start);
        merged.last = Math.max(merged.last, s.last);
        merged.rows.push(...s.rows);
      } else kept.push(s);
    }
    merged.rows.push(row.fields); // last: among rows of equal time, arrival order
    const end = merged.last + gap;
    if (end - 1 <= ctx.timerService().currentWatermark()) return; // a late row: its session already ended
    const field = this.timeField;
    merged.rows.sort((a, b) => (a[field] as number) - (b[field] as number));
    kept.push(merged);
    this.sessions.update(kept);
    ctx.timerService().registerEventTimeTimer(end - 1);
  }

  override onTimer(timestamp: number, _ctx: OnTimerContext<string>, out: Collector<Row>): void {
    const open: Session[] = [];
    const ended: Session[] = [];
    for (const s of this.sessions.value() ?? []) (s.last + this.gap - 1 <= timestamp ? ended : open).push(s);
    if (ended.length === 0) return;
    ended.sort((a, b) => a.start - b.start);
    for (const s of ended) {
      const end = s.last + this.gap;
      for (const fields of s.rows) out.collect({ kind: "+I", fields: [...fields, s.start, end, end - 1] });
    }
    if (open.length === 0) this.sessions.clear();
    else this.sessions.update(open);
  }
}
