/**
 * Where a window operator keeps the contents of its windows: keyed state of
 * the operator (so it is checkpointed, restored and redistributed by key
 * group), one table per key of its windows' contents (window-table.ts).
 * The tables are engine-owned state: no user code receives them, so they are
 * updated in place without a copy per access (the backend encodes a key group
 * that a pending snapshot still needs before its first change). Three forms:
 * all records (process/apply/evictors), a reduced value, an aggregate
 * accumulator.
 *
 * Windows of one size are named by their start, a number beyond the
 * small-integer range: the operator passes it (and the record's timestamp) in
 * {@link WindowContents.at} to the `…At` methods, so that no number is boxed
 * per record and window (a number passed to a call that is not inlined is).
 *
 * Object semantics: what the window function gets is a copy; a record that
 * goes to several windows (`shared`) is stored as a copy in all but the last,
 * so no two windows hold the same object; everything stored is plain data.
 */
import type { AggregateFunction, EngineKeyedState, KeyedStateBackend } from "../../state/index.ts";
import { StateSerializationError } from "../../state/index.ts";
import { ALLOWED_STATE_VALUES } from "../../state/errors.ts";
import { PlainDataError } from "../../state/plain-copy.ts";
import { PlainDataChecker, PlainDataCopier } from "../../state/plain-shapes.ts";
import type { TimestampedValue } from "./evictor.ts";
import type { WindowNamespace } from "./window-namespaces.ts";
import { indexOfStart, indexOfWindow, insertWindow, removeWindowAt, type WindowTable } from "./window-table.ts";

/** The contents of the current key's windows, addressed by window namespace. */
export interface WindowContents<IN> {
  /**
   * Adds a record (with its timestamp) to window `ns`. `shared`: the record also
   * goes to another window of this key. Returns true if the window had no contents.
   */
  add(ns: WindowNamespace, value: IN, timestamp: number, shared: boolean): boolean;
  /**
   * The window start (`at[0]`) and the record's timestamp (`at[1]`) for `addAt`,
   * `sizeAt` and `takeAt`: windows of one size, named by their start.
   */
  readonly at: Float64Array;
  /** `add` to the window starting at `at[0]`, with timestamp `at[1]`. */
  addAt(value: IN, shared: boolean): boolean;
  /** `size` of the window starting at `at[0]`. */
  sizeAt(): number;
  /** `take` of the window starting at `at[0]`. */
  takeAt(): unknown[] | undefined;
  /** What the window function gets (its own copy): all records, or the one pre-aggregated value; undefined when empty. */
  get(ns: WindowNamespace): unknown[] | undefined;
  /** Removes window `ns` and returns what `get` would have; it may be the stored value itself (the window no longer holds it). */
  take(ns: WindowNamespace): unknown[] | undefined;
  /** Number of records added to the window since it was last purged. */
  size(ns: WindowNamespace): number;
  /** Moves the contents of `sources` into `target` (merging session windows). */
  merge(target: WindowNamespace, sources: readonly WindowNamespace[]): void;
  clear(ns: WindowNamespace): void;
  /** Records buffered over all keys (restored state included): for the metric. */
  totalSize(): number;
  /** Calls `fn` for every window with contents, of every key (restored state included). */
  forEachWindow(fn: (key: unknown, ns: WindowNamespace) => void): void;
  /** A snapshot is being taken: tables in use now become the snapshot's (call before the backend's snapshot). */
  beforeSnapshot(): void;
}

/** Creates the contents store of a window operator on its keyed state. */
export type WindowContentsFactory<IN> = (backend: KeyedStateBackend, operatorUid: string) => WindowContents<IN>;

const STATE = "_window-contents";

/** The windows of one key and their contents (`S`). */
type Table<S> = WindowTable<S>;

/** The per-key tables and what every form shares. */
abstract class TableContents<IN, S> implements WindowContents<IN> {
  private readonly state: EngineKeyedState<Table<S>>;
  protected readonly copier = new PlainDataCopier();
  private readonly checker = new PlainDataChecker();
  readonly at = new Float64Array(2);
  /**
   * The current key's table, owned for changes in place, looked up once for all
   * the windows of a record or timer: valid while the (primitive) key stays the
   * same and no snapshot was taken.
   */
  private table: Table<S> | undefined;
  private tableKey: unknown;
  private tableValid = false;
  /** The backend's `ownedValuesEpoch` when `table` was fetched (the disk backend's evictions invalidate it). */
  private tableEpoch = 0;

  constructor(
    private readonly backend: KeyedStateBackend,
    private readonly operatorUid: string,
  ) {
    this.state = backend.getEngineState<Table<S>>(STATE);
  }

  abstract get(ns: WindowNamespace): unknown[] | undefined;
  /** The contents of a window's first record (its timestamp is `at[1]`). */
  protected abstract created(value: IN, shared: boolean): S;
  /** Adds a record to a window's contents, in place (its timestamp is `at[1]`). */
  protected abstract added(s: S, value: IN, shared: boolean): void;
  /** What `take` returns of a removed window's contents. */
  protected abstract taken(s: S): unknown[];

  add(ns: WindowNamespace, value: IN, timestamp: number, shared: boolean): boolean {
    this.at[1] = timestamp;
    const s = this.slot(ns);
    if (s !== undefined) {
      this.added(s, value, shared);
      return false;
    }
    this.put(ns, this.created(value, shared));
    return true;
  }

  addAt(value: IN, shared: boolean): boolean {
    const s = this.slotAt();
    if (s !== undefined) {
      this.added(s, value, shared);
      return false;
    }
    this.put(this.at[0]!, this.created(value, shared)); // a number boxed once per window, not per record
    return true;
  }

  take(ns: WindowNamespace): unknown[] | undefined {
    const table = this.owned();
    return this.takeIndex(table, table === undefined ? -1 : indexOfWindow(table, ns));
  }

  takeAt(): unknown[] | undefined {
    const table = this.owned();
    return this.takeIndex(table, table === undefined ? -1 : indexOfStart(table[0] as number[], this.at[0]!));
  }

  private takeIndex(table: Table<S> | undefined, at: number): unknown[] | undefined {
    if (at < 0) return undefined;
    const s = table![1][at]!;
    this.removeAt(table!, at);
    return this.taken(s);
  }

  /** Moves the contents of `sources` into `target` (session windows merging). */
  merge(target: WindowNamespace, sources: readonly WindowNamespace[]): void {
    for (const source of sources) {
      const s = this.slot(source);
      if (s === undefined) continue;
      this.clear(source);
      const t = this.slot(target);
      if (t === undefined) this.put(target, s);
      else this.absorb(t, s);
    }
  }

  /** Adds the contents of slot `from` to slot `into`, in place. */
  protected abstract absorb(into: S, from: S): void;
  /** Records in a window's contents. */
  protected abstract count(s: S): number;

  size(ns: WindowNamespace): number {
    const s = this.slot(ns);
    return s === undefined ? 0 : this.count(s);
  }

  sizeAt(): number {
    const s = this.slotAt();
    return s === undefined ? 0 : this.count(s);
  }

  clear(ns: WindowNamespace): void {
    const table = this.owned();
    const at = table === undefined ? -1 : indexOfWindow(table, ns);
    if (at >= 0) this.removeAt(table!, at);
  }

  /** Removes the window at index `at` of the current key's table. */
  private removeAt(table: Table<S>, at: number): void {
    if (table[0].length > 1) return removeWindowAt(table, at);
    this.state.set(undefined);
    this.table = undefined;
  }

  totalSize(): number {
    let n = 0;
    for (const [, table] of this.backend.entriesOf(STATE)) for (const s of (table as Table<S>)[1]) n += this.count(s);
    return n;
  }

  forEachWindow(fn: (key: unknown, ns: WindowNamespace) => void): void {
    for (const [key, table] of this.backend.entriesOf(STATE)) for (const ns of (table as Table<S>)[0]) fn(key, ns);
  }

  beforeSnapshot(): void {
    this.tableValid = false;
  }

  /** The contents of window `ns` of the current key, which may be changed in place. */
  protected slot(ns: WindowNamespace): S | undefined {
    const table = this.owned();
    if (table === undefined) return undefined;
    const at = indexOfWindow(table, ns);
    return at < 0 ? undefined : table[1][at];
  }

  /** The contents of the window starting at `at[0]` of the current key, which may be changed in place. */
  private slotAt(): S | undefined {
    const table = this.owned();
    if (table === undefined) return undefined;
    const at = indexOfStart(table[0] as number[], this.at[0]!);
    return at < 0 ? undefined : table[1][at];
  }

  /** Stores `s` as the contents of window `ns` of the current key. */
  protected put(ns: WindowNamespace, s: S): void {
    const table = this.owned();
    if (table === undefined) {
      this.state.set((this.table = [[ns], [s]]));
      return;
    }
    const at = indexOfWindow(table, ns);
    if (at < 0) insertWindow(table, ns, s);
    else table[1][at] = s;
  }

  /** The current key's table (see `table`; an object key is looked up every time: it may have been changed in place). */
  private owned(): Table<S> | undefined {
    const key = this.backend.getCurrentKey();
    if (!this.tableValid || key !== this.tableKey || typeof key === "object" || this.tableEpoch !== this.backend.ownedValuesEpoch) {
      this.table = this.state.getOwned();
      this.tableKey = key;
      this.tableEpoch = this.backend.ownedValuesEpoch;
      this.tableValid = true;
    }
    return this.table;
  }

  /** A copy of `v` (which must be plain data): what is stored apart from what user code holds, or handed to it. */
  protected copy<T>(v: T): T {
    try {
      return this.copier.copy(v);
    } catch (e) {
      throw this.refused(e);
    }
  }

  /** Refuses what is not plain data (snapshots could not hold it) without copying it. */
  protected check(v: unknown): void {
    try {
      this.checker.check(v);
    } catch (e) {
      throw this.refused(e);
    }
  }

  private refused(e: unknown): unknown {
    if (!(e instanceof PlainDataError)) return e;
    return new StateSerializationError(
      `window contents of key ${JSON.stringify(this.backend.getCurrentKey())} in operator '${this.operatorUid}' ${e.message}; ${ALLOWED_STATE_VALUES}`,
      this.operatorUid,
      STATE,
    );
  }
}

/** All records of a window, in arrival order, and their timestamps. */
type RecordsSlot<IN> = [values: IN[], timestamps: number[]];

/** All records of each window (process/apply, and any window with an evictor). */
export class ListWindowContents<IN> extends TableContents<IN, RecordsSlot<IN>> {
  protected created(value: IN, shared: boolean): RecordsSlot<IN> {
    return [[this.own(value, shared)], [this.at[1]!]];
  }

  protected added(s: RecordsSlot<IN>, value: IN, shared: boolean): void {
    s[0].push(this.own(value, shared));
    s[1].push(this.at[1]!);
  }

  /** The record as the window keeps it: a copy when another window gets it too, else itself (checked). */
  private own(value: IN, shared: boolean): IN {
    if (shared) return this.copy(value);
    if (typeof value === "object") this.check(value);
    return value;
  }

  /** The records with their timestamps, in arrival order (copies). */
  elements(ns: WindowNamespace): TimestampedValue<IN>[] {
    const s = this.slot(ns);
    if (s === undefined) return [];
    const [values, timestamps] = s;
    return values.map((v, i) => ({ value: this.copy(v), timestamp: timestamps[i]! }));
  }

  get(ns: WindowNamespace): unknown[] | undefined {
    const s = this.slot(ns);
    return s === undefined ? undefined : s[0].map((v) => this.copy(v));
  }

  protected taken(s: RecordsSlot<IN>): unknown[] {
    return s[0]; // no copy: the window no longer holds them, and a snapshot holds its own encoding
  }

  /** Replaces the window's records (after eviction) with copies of `elements`. */
  replace(ns: WindowNamespace, elements: readonly TimestampedValue<IN>[]): void {
    if (elements.length === 0) return this.clear(ns);
    this.put(ns, [elements.map((e) => this.copy(e.value)), elements.map((e) => e.timestamp)]);
  }

  protected absorb(into: RecordsSlot<IN>, from: RecordsSlot<IN>): void {
    for (const v of from[0]) into[0].push(v);
    for (const ts of from[1]) into[1].push(ts);
  }

  protected count(s: RecordsSlot<IN>): number {
    return s[0].length;
  }
}

/** One folded value per window and the number of records folded into it, changed in place. */
type FoldedSlot<ACC> = [count: number, acc: ACC];

/** One folded value per window. */
abstract class FoldedWindowContents<IN, ACC> extends TableContents<IN, FoldedSlot<ACC>> {
  /** The folded value of a window's first record. */
  protected abstract first(value: IN): ACC;
  protected abstract fold(acc: ACC, value: IN): ACC;
  protected abstract combine(a: ACC, b: ACC): ACC;

  protected created(value: IN, shared: boolean): FoldedSlot<ACC> {
    // the first value may hold the record: copied when another window gets the record too, else checked once per
    // window and kept (the record is the operator's, as in a list of records)
    const first = this.first(value);
    if (shared) return [1, this.copy(first)];
    if (typeof first === "object") this.check(first);
    return [1, first];
  }

  protected added(s: FoldedSlot<ACC>, value: IN, shared: boolean): void {
    s[0]++;
    const acc = this.fold(s[1], value);
    // an object result may hold the record: copied when another window gets the record too
    s[1] = shared && typeof acc === "object" ? this.copy(acc) : acc;
  }

  get(ns: WindowNamespace): unknown[] | undefined {
    const s = this.slot(ns);
    return s === undefined ? undefined : [this.copy(s[1])];
  }

  protected taken(s: FoldedSlot<ACC>): unknown[] {
    return [s[1]]; // no copy: the window no longer holds it, and a snapshot holds its own encoding
  }

  protected absorb(into: FoldedSlot<ACC>, from: FoldedSlot<ACC>): void {
    into[0] += from[0];
    into[1] = this.combine(into[1], from[1]);
  }

  protected count(s: FoldedSlot<ACC>): number {
    return s[0];
  }
}

/** Incremental reduce: the window holds the reduced value. */
export class ReducingWindowContents<IN> extends FoldedWindowContents<IN, IN> {
  /** @param firstValue - what a window's first record becomes (the record itself, or checked by a built-in aggregation) */
  constructor(
    backend: KeyedStateBackend,
    operatorUid: string,
    private readonly reduce: (a: IN, b: IN) => IN,
    private readonly firstValue: (value: IN) => IN = (value) => value,
  ) {
    super(backend, operatorUid);
  }

  protected first(value: IN): IN {
    return this.firstValue(value);
  }

  protected fold(acc: IN, value: IN): IN {
    return this.reduce(acc, value);
  }

  protected combine(a: IN, b: IN): IN {
    return this.reduce(a, b);
  }
}

/**
 * Incremental aggregation: the window holds the accumulator. `add` and `merge`
 * may mutate the accumulator (Flink's contract): it belongs to the window.
 */
export class AggregatingWindowContents<IN, ACC> extends FoldedWindowContents<IN, ACC> {
  constructor(
    backend: KeyedStateBackend,
    operatorUid: string,
    private readonly agg: AggregateFunction<IN, ACC, unknown>,
  ) {
    super(backend, operatorUid);
  }

  protected first(value: IN): ACC {
    return this.agg.add(value, this.agg.createAccumulator());
  }

  protected fold(acc: ACC, value: IN): ACC {
    return this.agg.add(value, acc);
  }

  protected combine(a: ACC, b: ACC): ACC {
    return this.agg.merge(a, b);
  }
}
