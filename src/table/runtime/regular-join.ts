/**
 * The regular (unbounded) streaming join, Flink's `StreamingJoinOperator` and
 * `StreamingSemiAntiJoinOperator`: both inputs are kept in keyed state (the
 * key is the equi-join key) as multisets, row → count, and each change of
 * either input emits the change of the join result it causes, so the folded
 * output equals the batch join of the inputs seen so far at every point.
 *
 * Inputs may carry any RowKind: `+I`/`+U` add one copy of the row, `-U`/`-D`
 * remove one. The output carries `+I` for joined rows that appear and `-D` for
 * those that disappear (see {@link regularJoinChangelogMode}).
 *
 * - INNER: a change of a row emits the same change of its pairs with the
 *   matching rows of the other side.
 * - LEFT/RIGHT/FULL: each row of a preserved side keeps the number of rows of
 *   the other side it matches. A preserved row without a match is emitted
 *   NULL-padded; when its first match arrives `-D[row, NULL…]` then
 *   `+I[row, match]` are emitted, when its last match goes `-D[row, match]`
 *   then `+I[row, NULL…]`.
 * - SEMI/ANTI (`IN`/`EXISTS`, `NOT IN`/`NOT EXISTS`): the left row is emitted
 *   (left fields only) while it has a match (SEMI) or has none (ANTI).
 *
 * Rows with a NULL key (in a key that is not null-safe) never match: they are
 * not kept in state, and a preserved side emits them NULL-padded (ANTI: as
 * they are) right away.
 *
 * **State TTL** (`stateTtlMs`, `table.exec.state.ttl`): a key's state (both
 * sides) is forgotten once no row of that key arrived for `stateTtlMs` of
 * processing time, without emitting anything. What was emitted for the key
 * stays in the result; a later retraction of a forgotten row is ignored, and a
 * later row of the key joins only the rows that arrived after the forgetting.
 * The result then differs from the batch join (as in Flink), but it is always
 * a valid changelog: it never retracts a row it did not emit.
 */
import type { OperatorNaming } from "./operator-naming.ts";
import { KeyedCoProcessFunction } from "../../core/co-process-function.ts";
import type { Collector } from "../../core/collector.ts";
import type { KeyedProcessContext, OnTimerContext } from "../../core/process-function.ts";
import type { DataStream } from "../../api/data-stream.ts";
import { MapStateDescriptor, ValueStateDescriptor, type MapState, type ValueState } from "../../state/index.ts";
import type { Row } from "../data/row.ts";
import { isAccumulate, RowKind } from "../data/row-kind.ts";
import { ChangelogMode } from "../plan/changelog-mode.ts";
import type { SqlValue } from "../types/sql-value.ts";
import { sqlValueKey } from "../types/sql-value-key.ts";
import {
  checkJoinSpec, conditionHolds, hasNullKey, joinedFields, JoinSpecError, ownFields, padsLeft, padsRight, rowOf,
  type JoinSpec, type JoinType
} from "./join-spec.ts";
import { rowKeySelector } from "./row-key.ts";

/** A regular join: the shared {@link JoinSpec} and the state TTL. */
export interface RegularJoinSpec extends JoinSpec {
  /** Forget a key's state after this much processing time without a row of the key (see the module doc); never when undefined. */
  readonly stateTtlMs?: number;
}

/** A distinct row of one side: its fields, its number of copies and how many rows of the other side it matches. */
interface Entry {
  f: SqlValue[];
  c: number;
  m: number;
}

/**
 * The changelog mode of a regular join's output: `+I` only when no input
 * retracts and the join never retracts what it emitted (INNER and SEMI over
 * insert-only inputs), `+I`/`-D` otherwise.
 *
 * @example
 * ```ts
 * regularJoinChangelogMode("INNER", ChangelogMode.INSERT_ONLY, ChangelogMode.INSERT_ONLY); // [+I]
 * regularJoinChangelogMode("LEFT", ChangelogMode.INSERT_ONLY, ChangelogMode.INSERT_ONLY);  // [+I, -D]
 * ```
 */
export function regularJoinChangelogMode(joinType: JoinType, left: ChangelogMode, right: ChangelogMode): ChangelogMode {
  const insertOnly = ChangelogMode.isInsertOnly(left) && ChangelogMode.isInsertOnly(right);
  if (insertOnly && (joinType === "INNER" || joinType === "SEMI")) return ChangelogMode.INSERT_ONLY;
  return ChangelogMode.of(RowKind.INSERT, RowKind.DELETE);
}

/**
 * Translates a regular join: `left.connect(right).keyBy(leftKeys, rightKeys)`
 * processed by the join, named `naming`.
 *
 * @example
 * ```ts
 * // SELECT * FROM orders o LEFT JOIN customers c ON o.cid = c.id AND o.amount > c.credit
 * const joined = regularJoin(orders, customers, {
 *   joinType: "LEFT", leftKeys: [1], rightKeys: [0], leftArity: 3, rightArity: 2,
 *   condition: (f) => (f[2] === null || f[4] === null ? null : (f[2] as number) > (f[4] as number)),
 * }, { uid: "join-1", name: "Join(LEFT)" });
 * ```
 * @throws JoinSpecError for keys of different lengths, positions out of range or a non-positive TTL
 */
export function regularJoin(left: DataStream<Row>, right: DataStream<Row>, spec: RegularJoinSpec, naming: OperatorNaming): DataStream<Row> {
  checkJoinSpec(spec, "regular join", ["INNER", "LEFT", "RIGHT", "FULL", "SEMI", "ANTI"]);
  if (spec.stateTtlMs !== undefined && !(spec.stateTtlMs > 0)) throw new JoinSpecError(`regular join: state TTL must be positive, got ${spec.stateTtlMs}`);
  return left
    .connect(right)
    .keyBy(rowKeySelector(spec.leftKeys), rowKeySelector(spec.rightKeys))
    .process(new RegularJoinFunction(spec))
    .uid(naming.uid)
    .name(naming.name);
}

/** The join of one key: both sides' multisets, and the TTL bookkeeping. */
class RegularJoinFunction extends KeyedCoProcessFunction<string, Row, Row, Row> {
  private leftState!: MapState<string, Entry>;
  private rightState!: MapState<string, Entry>;
  private lastAccess!: ValueState<number>;
  private ttlTimer!: ValueState<number>;
  private readonly semiAnti: boolean;

  constructor(private readonly spec: RegularJoinSpec) {
    super();
    this.semiAnti = spec.joinType === "SEMI" || spec.joinType === "ANTI";
  }

  override open(): void {
    const ctx = this.getRuntimeContext();
    this.leftState = ctx.getMapState(new MapStateDescriptor<string, Entry>("left"));
    this.rightState = ctx.getMapState(new MapStateDescriptor<string, Entry>("right"));
    this.lastAccess = ctx.getState(new ValueStateDescriptor<number>("ttl-last-access"));
    this.ttlTimer = ctx.getState(new ValueStateDescriptor<number>("ttl-timer"));
  }

  processElement1(row: Row, ctx: KeyedProcessContext<string>, out: Collector<Row>): void {
    this.process(row, true, ctx, out);
  }

  processElement2(row: Row, ctx: KeyedProcessContext<string>, out: Collector<Row>): void {
    this.process(row, false, ctx, out);
  }

  /** The state TTL's timer: forgets the key unless a row of it arrived since the timer was set (then waits for the new deadline). */
  override onTimer(timestamp: number, ctx: OnTimerContext<string>, _out: Collector<Row>): void {
    const ttl = this.spec.stateTtlMs!;
    const last = this.lastAccess.value();
    if (last === undefined || last + ttl <= timestamp) {
      this.leftState.clear();
      this.rightState.clear();
      this.lastAccess.clear();
      this.ttlTimer.clear();
      return;
    }
    this.ttlTimer.update(last + ttl);
    ctx.timerService().registerProcessingTimeTimer(last + ttl);
  }

  private process(row: Row, isLeft: boolean, ctx: KeyedProcessContext<string>, out: Collector<Row>): void {
    const { spec } = this;
    const fields = row.fields;
    const accumulate = isAccumulate(row.kind);
    const kind = accumulate ? RowKind.INSERT : RowKind.DELETE;
    const preserved = isLeft ? padsLeft(spec.joinType) || spec.joinType === "ANTI" : padsRight(spec.joinType);
    if (hasNullKey(fields, isLeft ? spec.leftKeys : spec.rightKeys, spec.nullSafeKeys)) {
      if (preserved) out.collect(rowOf(kind, this.padded(fields, isLeft)));
      return;
    }
    if (spec.stateTtlMs !== undefined) this.touch(ctx);

    const own = isLeft ? this.leftState : this.rightState;
    const other = isLeft ? this.rightState : this.leftState;
    const key = sqlValueKey(fields);
    const entry = own.get(key);
    if (!accumulate && entry === undefined) return; // forgotten by the state TTL (or never inserted): nothing of it is in the result

    const matches: [string, Entry][] = [];
    let total = 0;
    for (const [k, e] of other.entries()) {
      if (isLeft ? conditionHolds(spec, fields, e.f) : conditionHolds(spec, e.f, fields)) {
        matches.push([k, e]);
        total += e.c;
      }
    }

    if (accumulate) {
      if (entry === undefined) own.put(key, { f: fields, c: 1, m: total });
      else own.put(key, { f: entry.f, c: entry.c + 1, m: total });
    } else if (entry!.c === 1) own.remove(key);
    else own.put(key, { f: entry!.f, c: entry!.c - 1, m: total });

    if (this.semiAnti) {
      if (isLeft) {
        if ((total > 0) === (spec.joinType === "SEMI")) out.collect(rowOf(kind, ownFields(fields)));
        return;
      }
      for (const [k, e] of matches) {
        const before = e.m;
        e.m += accumulate ? 1 : -1;
        other.put(k, e);
        if ((before === 0) === (e.m === 0)) continue;
        const emitted = (e.m > 0) === (spec.joinType === "SEMI") ? RowKind.INSERT : RowKind.DELETE;
        for (let i = 0; i < e.c; i++) out.collect(rowOf(emitted, ownFields(e.f)));
      }
      return;
    }

    if (total === 0 && preserved) out.collect(rowOf(kind, this.padded(fields, isLeft)));
    const otherPreserved = isLeft ? padsRight(spec.joinType) : padsLeft(spec.joinType);
    for (const [k, e] of matches) {
      if (accumulate && otherPreserved && e.m === 0)
        for (let i = 0; i < e.c; i++) out.collect(rowOf(RowKind.DELETE, this.padded(e.f, !isLeft)));
      for (let i = 0; i < e.c; i++) out.collect(rowOf(kind, isLeft ? this.joined(fields, e.f) : this.joined(e.f, fields)));
      if (!otherPreserved) continue;
      e.m += accumulate ? 1 : -1;
      other.put(k, e);
      if (!accumulate && e.m === 0) for (let i = 0; i < e.c; i++) out.collect(rowOf(RowKind.INSERT, this.padded(e.f, !isLeft)));
    }
  }

  /** The row of one side NULL-padded (ANTI joins: the left row as it is). */
  private padded(fields: readonly SqlValue[], isLeft: boolean): SqlValue[] {
    const { leftArity, rightArity } = this.spec;
    if (this.semiAnti) return ownFields(fields);
    return isLeft ? joinedFields(fields, leftArity, null, rightArity) : joinedFields(null, leftArity, fields, rightArity);
  }

  private joined(left: readonly SqlValue[], right: readonly SqlValue[]): SqlValue[] {
    return joinedFields(left, this.spec.leftArity, right, this.spec.rightArity);
  }

  /** Records the key's access for the state TTL; one pending processing-time timer per key checks it. */
  private touch(ctx: KeyedProcessContext<string>): void {
    const now = ctx.timerService().currentProcessingTime();
    this.lastAccess.update(now);
    if (this.ttlTimer.value() !== undefined) return;
    const at = now + this.spec.stateTtlMs!;
    this.ttlTimer.update(at);
    ctx.timerService().registerProcessingTimeTimer(at);
  }
}
