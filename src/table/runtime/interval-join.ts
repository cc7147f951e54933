/**
 * The SQL interval join (Flink's `RowTimeIntervalJoin`): on equal keys, a
 * left row `l` joins every right row `r` with
 * `r.time BETWEEN l.time + lowerBound AND l.time + upperBound` (inclusive,
 * the times read from the rows' time attribute fields) for which the residual
 * condition holds. Both inputs are insert-only, and so is the output.
 *
 * Each row is joined with the rows of the other side held so far, then held
 * itself (on the heap backend in memory, per operator subtask, written to keyed
 * state before each snapshot: see {@link SideRows}; on the disk backend, whose
 * state may be larger than memory, in keyed state, per key: see
 * {@link KeyedSideRows}; what is emitted is a copy) until the
 * watermark makes a new match impossible: a left row until the watermark
 * reaches `l.time + upperBound`, a right row until it reaches
 * `r.time - lowerBound`. An outer join (LEFT, RIGHT, FULL) emits a row of its
 * preserved side that never matched NULL-padded at that moment (in the order
 * of those times, with its own as the output timestamp); a row whose
 * matches are already impossible when it arrives (it is late) joins the
 * held rows and, without a match, is emitted padded at once.
 *
 * The rows it emits are older than its watermark (a pair when its later row
 * arrives, a padded row after its last chance): the output watermark is held
 * back by `max(-lowerBound, upperBound, 0) + 1` ms, as Flink does, so that
 * they are not late for event-time operators downstream on either time
 * attribute (see {@link intervalJoinWatermarkDelay}).
 *
 * Rows with a NULL key (not null-safe) or a NULL time never match. The result equals the batch
 * join when no row is late (its time is above the watermark when it arrives).
 *
 * **Retained side** (`retain`, INNER joins only): the rows of that side are kept for good, and only the
 * other side's rows expire. The planner uses it for a regular join whose condition bounds a rowtime
 * attribute of one side by the `window_end` of a window aggregation's rows on the other (Nexmark q7:
 * `B.dateTime BETWEEN B1.window_end - INTERVAL '10' SECOND AND B1.window_end`). A window aggregation
 * emits a window before its watermark passes the window's end and drops late rows, so every later row
 * of that side has its end above the current watermark: a row of the other side expires once the
 * watermark makes its bound on that end unreachable, and a late row of the other side still joins every
 * row of the retained side. The result then equals the regular join's (Flink plans the query as one:
 * `window_end` is no time attribute) whether rows are late or not, with the state of one side bounded.
 */
import type { OperatorNaming } from "./operator-naming.ts";
import type { Collector } from "../../core/collector.ts";
import type { KeyedProcessContext } from "../../core/process-function.ts";
import type { DataStream } from "../../api/data-stream.ts";
import { engineKeyedState } from "../../core/runtime-context.ts";
import type { Row } from "../data/row.ts";
import { RowKind } from "../data/row-kind.ts";
import type { SqlValue } from "../types/sql-value.ts";
import {
  checkJoinSpec, checkPositions, conditionHolds, hasNullKey, InsertOnlyInputError, joinedFields, JoinSpecError, padsLeft, padsRight, rowOf,
  type JoinSpec
} from "./join-spec.ts";
import { processWithWatermarkDelay, WriteBehindJoinFunction } from "./delayed-watermark-join.ts";
import { KeyedSideRows } from "./interval-join-keyed-rows.ts";
import { SideRows } from "./interval-join-rows.ts";
import type { JoinKey, JoinSideRows, LegacyStoredRows, StoredRows } from "./interval-join-side.ts";
import { rowCompactKeySelector, rowKeySelector } from "./row-key.ts";
import { compactKeyOfValueKey, valueKeyOfCompactKey } from "../types/sql-value-key.ts";

/** An interval join: the shared {@link JoinSpec}, the time attributes and the bounds of `r.time - l.time`. */
export interface IntervalJoinSpec extends JoinSpec {
  /** Position of the left time attribute (TIMESTAMP(3), epoch ms). */
  readonly leftTimeField: number;
  /** Position of the right time attribute. */
  readonly rightTimeField: number;
  /** `r.time >= l.time + lowerBound` (ms, inclusive). */
  readonly lowerBound: number;
  /** `r.time <= l.time + upperBound` (ms, inclusive). */
  readonly upperBound: number;
  /** The side whose rows are kept for good (INNER joins only; see the module doc); none when absent. */
  readonly retain?: "left" | "right";
}

/**
 * Translates an interval join: `left.connect(right).keyBy(leftKeys, rightKeys)`
 * processed by the join, named `naming`.
 *
 * @example
 * ```ts
 * // SELECT * FROM orders o LEFT JOIN shipments s ON o.id = s.order_id
 * //   AND s.ts BETWEEN o.ts AND o.ts + INTERVAL '4' HOUR
 * const joined = intervalJoin(orders, shipments, {
 *   joinType: "LEFT", leftKeys: [0], rightKeys: [1], leftArity: 3, rightArity: 3,
 *   leftTimeField: 2, rightTimeField: 2, lowerBound: 0, upperBound: 4 * 3600_000,
 * }, { uid: "join-1", name: "IntervalJoin(LEFT)" });
 * ```
 * @throws JoinSpecError for keys of different lengths, positions out of range or a join type other than INNER/LEFT/RIGHT/FULL
 */
export function intervalJoin(left: DataStream<Row>, right: DataStream<Row>, spec: IntervalJoinSpec, naming: OperatorNaming): DataStream<Row> {
  checkJoinSpec(spec, "interval join", ["INNER", "LEFT", "RIGHT", "FULL"]);
  checkPositions("interval join", "left time", [spec.leftTimeField], spec.leftArity);
  checkPositions("interval join", "right time", [spec.rightTimeField], spec.rightArity);
  if (!Number.isFinite(spec.lowerBound) || !Number.isFinite(spec.upperBound))
    throw new JoinSpecError(`interval join: bounds must be finite, got [${spec.lowerBound}, ${spec.upperBound}]`);
  if (spec.retain !== undefined && spec.joinType !== "INNER") throw new JoinSpecError(`interval join: only an INNER join can retain a side, got ${spec.joinType}`);
  // rows held in memory go by their compact keys (a number for an integer key); keyed state keeps the keys
  const memoryKeys = {
    left: rowCompactKeySelector(spec.leftKeys),
    right: rowCompactKeySelector(spec.rightKeys),
    stateKey: valueKeyOfCompactKey,
    memoryKey: (key: unknown) => compactKeyOfValueKey(key as string),
  };
  return processWithWatermarkDelay(left, right, rowKeySelector(spec.leftKeys), rowKeySelector(spec.rightKeys), new IntervalJoinFunction(spec), intervalJoinWatermarkDelay(spec), memoryKeys)
    .uid(naming.uid)
    .name(naming.name);
}

/**
 * How far the interval join's output watermark lags its input watermark:
 * more than the age of any row it emits relative to its watermark (rows that
 * were late on arrival aside).
 *
 * @example
 * ```ts
 * intervalJoinWatermarkDelay({ lowerBound: -5000, upperBound: 10_000 }); // 10001
 * ```
 */
export function intervalJoinWatermarkDelay(bounds: Pick<IntervalJoinSpec, "lowerBound" | "upperBound">): number {
  return Math.max(-bounds.lowerBound, bounds.upperBound, 0) + 1;
}

/** The engine keyed states of the left and the right side's rows ({@link StoredRows} per key). */
const LEFT_STATE = "_left";
const RIGHT_STATE = "_right";

class IntervalJoinFunction extends WriteBehindJoinFunction<JoinKey, Row, Row, Row> {
  private left!: JoinSideRows;
  private right!: JoinSideRows;
  private leftPads = false;
  private rightPads = false;
  /** The watermark of the last {@link advance}. */
  private watermark = -Infinity;
  /** The fields of the unmatched rows a cleanup handed out (emptied after each). */
  private readonly unmatched: SqlValue[][] = [];

  constructor(private readonly spec: IntervalJoinSpec) {
    super();
  }

  override open(): void {
    const { spec } = this;
    this.leftPads = padsLeft(spec.joinType);
    this.rightPads = padsRight(spec.joinType);
    // a left row is useless once the watermark reaches l.time + upperBound, a right row at r.time - lowerBound
    const leftOffset = spec.retain === "left" ? undefined : spec.upperBound;
    const rightOffset = spec.retain === "right" ? undefined : -spec.lowerBound;
    const { statesInMemory, setKey } = this.backend;
    if (statesInMemory) {
      this.left = new SideRows(leftOffset, this.leftPads);
      this.right = new SideRows(rightOffset, this.rightPads);
    } else {
      const ctx = this.getRuntimeContext();
      const state = (name: string) => engineKeyedState<StoredRows | LegacyStoredRows>(ctx, name);
      this.left = new KeyedSideRows(state(LEFT_STATE), leftOffset, this.leftPads, setKey);
      this.right = new KeyedSideRows(state(RIGHT_STATE), rightOffset, this.rightPads, setKey);
    }
  }

  restore(entriesOf: (state: string) => Iterable<[unknown, unknown]>): void {
    this.left.restore(entriesOf(LEFT_STATE) as Iterable<[JoinKey, StoredRows | LegacyStoredRows]>);
    this.right.restore(entriesOf(RIGHT_STATE) as Iterable<[JoinKey, StoredRows | LegacyStoredRows]>);
  }

  processElement1(row: Row, ctx: KeyedProcessContext<JoinKey>, out: Collector<Row>): void {
    this.process(row, true, ctx, out);
  }

  processElement2(row: Row, ctx: KeyedProcessContext<JoinKey>, out: Collector<Row>): void {
    this.process(row, false, ctx, out);
  }

  /**
   * Emits the rows of the preserved sides that never matched and whose matches the watermark made
   * impossible, NULL-padded, in the order of their cleanup times (each at its own), then drops every row
   * whose matches are impossible.
   */
  advance(watermark: number, emitAt: (time: number) => void, out: Collector<Row>): void {
    this.watermark = watermark;
    const { left, right, unmatched } = this;
    for (;;) {
      const l = left.nextCleanup();
      const r = right.nextCleanup();
      const isLeft = l !== undefined && (r === undefined || l <= r);
      const time = isLeft ? l : r;
      if (time === undefined || time > watermark) break;
      (isLeft ? left : right).cleanUp(watermark, unmatched);
      for (let i = 0; i < unmatched.length; i++) {
        emitAt(time);
        out.collect(rowOf(RowKind.INSERT, this.padded(unmatched[i]!, isLeft)));
      }
      unmatched.length = 0;
    }
    left.expire(watermark);
    right.expire(watermark);
  }

  flush(write: (key: JoinKey, fn: () => void) => void): void {
    const ctx = this.getRuntimeContext();
    const leftState = engineKeyedState<StoredRows>(ctx, LEFT_STATE);
    const rightState = engineKeyedState<StoredRows>(ctx, RIGHT_STATE);
    this.left.flush(this.watermark, (key, stored) => write(key, () => leftState.set(stored)));
    this.right.flush(this.watermark, (key, stored) => write(key, () => rightState.set(stored)));
  }

  private process(row: Row, isLeft: boolean, ctx: KeyedProcessContext<JoinKey>, out: Collector<Row>): void {
    if (row.kind !== RowKind.INSERT && row.kind !== RowKind.UPDATE_AFTER) throw new InsertOnlyInputError("interval join", row);
    const { spec } = this;
    const fields = row.fields;
    const time = fields[isLeft ? spec.leftTimeField : spec.rightTimeField] as number | null;
    const pads = isLeft ? this.leftPads : this.rightPads;
    if (time === null || hasNullKey(fields, isLeft ? spec.leftKeys : spec.rightKeys, spec.nullSafeKeys)) {
      if (pads) out.collect(rowOf(RowKind.INSERT, this.padded(fields, isLeft)));
      return;
    }
    const key = ctx.getCurrentKey();
    const watermark = ctx.timerService().currentWatermark();
    // the other side's times that match: [lo, hi]
    const lo = isLeft ? time + spec.lowerBound : time - spec.upperBound;
    const hi = isLeft ? time + spec.upperBound : time - spec.lowerBound;
    const other = isLeft ? this.right : this.left;
    const otherPads = isLeft ? this.rightPads : this.leftPads;
    let matched = false;
    const n = other.matches(key, lo, hi, watermark);
    for (let i = 0; i < n; i++) {
      const seq = other.found[i]!;
      const f = other.fieldsAt(seq);
      if (!(isLeft ? conditionHolds(spec, fields, f) : conditionHolds(spec, f, fields))) continue;
      matched = true;
      out.collect(rowOf(RowKind.INSERT, isLeft ? this.joined(fields, f) : this.joined(f, fields)));
      if (otherPads) other.setMatched(seq);
    }
    const retained = spec.retain === (isLeft ? "left" : "right");
    const cleanup = isLeft ? time + spec.upperBound : time - spec.lowerBound;
    if (!retained && cleanup <= watermark) {
      if (!matched && pads) out.collect(rowOf(RowKind.INSERT, this.padded(fields, isLeft)));
      return;
    }
    // the row is this function's own, so its fields may be kept
    (isLeft ? this.left : this.right).add(key, fields, time, matched);
  }

  private padded(fields: readonly SqlValue[], isLeft: boolean): SqlValue[] {
    const { leftArity, rightArity } = this.spec;
    return isLeft ? joinedFields(fields, leftArity, null, rightArity) : joinedFields(null, leftArity, fields, rightArity);
  }

  private joined(left: readonly SqlValue[], right: readonly SqlValue[]): SqlValue[] {
    return joinedFields(left, this.spec.leftArity, right, this.spec.rightArity);
  }
}
