/**
 * The event-time temporal join (`FOR SYSTEM_TIME AS OF l.rowtime`, Flink's
 * `TemporalRowTimeJoinOperator`): each row of the insert-only left input
 * joins the version of the right versioned table valid at the left row's
 * time. The right input is the versioned table's changelog, keyed by its
 * primary key (the join keys `rightKeys`), with its own time attribute.
 *
 * The version valid at time `t` for a key is the latest right row of the key
 * with time `<= t` (arrival order among equal times); when that row is a
 * `-D` the key was deleted at that time and nothing is valid. A `-U` only
 * announces the `+U` that follows it, so it does not end a version.
 *
 * Left rows are buffered (keyed state) and emitted once the watermark reaches
 * their time: joined with the valid version when there is one and the
 * residual condition holds, NULL-padded (LEFT) or not at all (INNER)
 * otherwise. Versions that the watermark made unreachable (older than the
 * latest one at or below it) are dropped then. Output is insert-only. The
 * result equals the batch definition above when no row is late (its time is
 * above the watermark when it arrives).
 */
import type { OperatorNaming } from "./operator-naming.ts";
import { KeyedCoProcessFunction } from "../../core/co-process-function.ts";
import type { Collector } from "../../core/collector.ts";
import type { KeyedProcessContext, OnTimerContext } from "../../core/process-function.ts";
import type { DataStream } from "../../api/data-stream.ts";
import { MapStateDescriptor, ValueStateDescriptor, type MapState, type ValueState } from "../../state/index.ts";
import type { Row } from "../data/row.ts";
import { RowKind } from "../data/row-kind.ts";
import type { SqlValue } from "../types/sql-value.ts";
import { sqlValueKey } from "../types/sql-value-key.ts";
import {
  checkJoinSpec, checkPositions, conditionHolds, hasNullKey, InsertOnlyInputError, joinedFields, rowOf,
  type JoinSpec
} from "./join-spec.ts";
import { rowKeySelector } from "./row-key.ts";

/** A temporal join: the shared {@link JoinSpec} (`rightKeys` is the versioned table's primary key) and both time attributes. */
export interface TemporalJoinSpec extends JoinSpec {
  /** Position of the left time attribute (TIMESTAMP(3), epoch ms): the `AS OF` time. */
  readonly leftTimeField: number;
  /** Position of the versioned table's time attribute. */
  readonly rightTimeField: number;
}

/** Buffered copies of a left row. */
interface Probe {
  f: SqlValue[];
  t: number;
  c: number;
}

/** A row of the versioned table's changelog: its fields, time, arrival sequence number and whether it deletes the key. */
interface Version {
  f: SqlValue[];
  t: number;
  n: number;
  d: boolean;
}

/**
 * Translates an event-time temporal join: `left.connect(right).keyBy(leftKeys, rightKeys)`
 * processed by the join, named `naming`.
 *
 * @example
 * ```ts
 * // SELECT * FROM orders o JOIN rates FOR SYSTEM_TIME AS OF o.ts r ON o.currency = r.currency
 * const joined = temporalJoin(orders, rates, {
 *   joinType: "INNER", leftKeys: [1], rightKeys: [0], leftArity: 3, rightArity: 3,
 *   leftTimeField: 2, rightTimeField: 2,
 * }, { uid: "join-1", name: "TemporalJoin" });
 * ```
 * @throws JoinSpecError for keys of different lengths, positions out of range or a join type other than INNER/LEFT
 */
export function temporalJoin(left: DataStream<Row>, right: DataStream<Row>, spec: TemporalJoinSpec, naming: OperatorNaming): DataStream<Row> {
  checkJoinSpec(spec, "temporal join", ["INNER", "LEFT"]);
  checkPositions("temporal join", "left time", [spec.leftTimeField], spec.leftArity);
  checkPositions("temporal join", "right time", [spec.rightTimeField], spec.rightArity);
  return left
    .connect(right)
    .keyBy(rowKeySelector(spec.leftKeys), rowKeySelector(spec.rightKeys))
    .process(new TemporalJoinFunction(spec))
    .uid(naming.uid)
    .name(naming.name);
}

class TemporalJoinFunction extends KeyedCoProcessFunction<string, Row, Row, Row> {
  private probes!: MapState<string, Probe>;
  private versions!: MapState<number, Version>;
  private nextVersion!: ValueState<number>;

  constructor(private readonly spec: TemporalJoinSpec) {
    super();
  }

  override open(): void {
    const ctx = this.getRuntimeContext();
    this.probes = ctx.getMapState(new MapStateDescriptor<string, Probe>("left"));
    this.versions = ctx.getMapState(new MapStateDescriptor<number, Version>("versions"));
    this.nextVersion = ctx.getState(new ValueStateDescriptor<number>("next-version", 0));
  }

  processElement1(row: Row, ctx: KeyedProcessContext<string>, _out: Collector<Row>): void {
    if (row.kind !== RowKind.INSERT && row.kind !== RowKind.UPDATE_AFTER) throw new InsertOnlyInputError("temporal join (left input)", row);
    const time = row.fields[this.spec.leftTimeField] as number | null;
    if (time === null) return; // never emitted: no watermark passes a NULL time
    const key = time + "|" + sqlValueKey(row.fields);
    const probe = this.probes.get(key);
    this.probes.put(key, probe === undefined ? { f: row.fields, t: time, c: 1 } : { ...probe, c: probe.c + 1 });
    ctx.timerService().registerEventTimeTimer(time);
  }

  processElement2(row: Row, ctx: KeyedProcessContext<string>, _out: Collector<Row>): void {
    if (row.kind === RowKind.UPDATE_BEFORE) return; // the +U that follows starts the next version
    const time = row.fields[this.spec.rightTimeField] as number | null;
    if (time === null || hasNullKey(row.fields, this.spec.rightKeys, this.spec.nullSafeKeys)) return; // matches no left row
    const n = this.nextVersion.value()!;
    this.nextVersion.update(n + 1);
    this.versions.put(n, { f: row.fields, t: time, n, d: row.kind === RowKind.DELETE });
    ctx.timerService().registerEventTimeTimer(time); // so that superseded versions are dropped even without left rows
  }

  /** Emits the left rows at or below the watermark, then drops the versions it made unreachable. */
  override onTimer(_timestamp: number, ctx: OnTimerContext<string>, out: Collector<Row>): void {
    const watermark = ctx.timerService().currentWatermark();
    const versions = [...this.versions.values()].sort((a, b) => a.t - b.t || a.n - b.n);
    const due: [string, Probe][] = [];
    for (const [k, p] of this.probes.entries()) if (p.t <= watermark) due.push([k, p]);
    due.sort((a, b) => a[1].t - b[1].t);
    for (const [k, p] of due) {
      this.emit(p, validAt(versions, p.t), out);
      this.probes.remove(k);
    }
    this.dropUnreachable(versions, watermark);
    if (this.probes.isEmpty() && this.versions.isEmpty()) this.nextVersion.clear();
  }

  private emit(p: Probe, version: Version | undefined, out: Collector<Row>): void {
    const { spec } = this;
    const joins = version !== undefined && !version.d && !hasNullKey(p.f, spec.leftKeys, spec.nullSafeKeys) && conditionHolds(spec, p.f, version.f);
    if (!joins && spec.joinType === "INNER") return;
    for (let i = 0; i < p.c; i++) out.collect(rowOf(RowKind.INSERT, joinedFields(p.f, spec.leftArity, joins ? version!.f : null, spec.rightArity)));
  }

  /** Keeps, of the versions at or below the watermark, only the latest, and not even it when it is a deletion. */
  private dropUnreachable(sorted: readonly Version[], watermark: number): void {
    let latest = -1;
    while (latest + 1 < sorted.length && sorted[latest + 1]!.t <= watermark) latest++;
    for (let i = 0; i < latest; i++) this.versions.remove(sorted[i]!.n);
    if (latest >= 0 && sorted[latest]!.d) this.versions.remove(sorted[latest]!.n);
  }
}

/** The version valid at `time` in versions sorted by time then arrival: the last one at or below it (a deletion included). */
function validAt(sorted: readonly Version[], time: number): Version | undefined {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]!.t <= time) lo = mid + 1;
    else hi = mid;
  }
  return lo === 0 ? undefined : sorted[lo - 1];
}
