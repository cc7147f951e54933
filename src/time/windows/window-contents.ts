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
 * Object semantics: what the window function gets is a copy; a record that
 * goes to several windows (`shared`) is stored as a copy in all but the last,
 * so no two windows hold the same object; everything stored is plain data.
 */
import type { AggregateFunction, EngineKeyedState, KeyedStateBackend } from "../../state/index.ts";
import { StateSerializationError } from "../../state/index.ts";
import { ALLOWED_STATE_VALUES } from "../../state/errors.ts";
import { checkPlainData, PlainDataCopier, PlainDataError } from "../../state/plain-copy.ts";
import type { TimestampedValue } from "./evictor.ts";
import type { WindowNamespace } from "./window-namespaces.ts";
import { indexOfWindow, insertWindow, removeWindowAt, type WindowTable } from "./window-table.ts";

/** The contents of the current key's windows, addressed by window namespace. */
export interface WindowContents<IN> {
  /**
   * Adds a record (with its timestamp) to window `ns`. `shared`: the record also
   * goes to another window of this key. Returns true if the window had no contents.
   */
  add(ns: WindowNamespace, value: IN, timestamp: number, shared: boolean): boolean;
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

  abstract add(ns: WindowNamespace, value: IN, timestamp: number, shared: boolean): boolean;
  abstract get(ns: WindowNamespace): unknown[] | undefined;
  abstract take(ns: WindowNamespace): unknown[] | undefined;

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

  clear(ns: WindowNamespace): void {
    const table = this.owned();
    const at = table === undefined ? -1 : indexOfWindow(table, ns);
    if (at < 0) return;
    if (table![0].length > 1) return removeWindowAt(table!, at);
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
      checkPlainData(v);
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
  add(ns: WindowNamespace, value: IN, timestamp: number, shared: boolean): boolean {
    let own = value;
    if (shared) own = this.copy(value);
    else if (typeof value === "object") this.check(value);
    const s = this.slot(ns);
    if (s !== undefined) {
      s[0].push(own);
      s[1].push(timestamp);
      return false;
    }
    this.put(ns, [[own], [timestamp]]);
    return true;
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

  take(ns: WindowNamespace): unknown[] | undefined {
    const s = this.slot(ns);
    if (s === undefined) return undefined;
    this.clear(ns);
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

  add(ns: WindowNamespace, value: IN, _timestamp: number, shared: boolean): boolean {
    const s = this.slot(ns);
    if (s === undefined) {
      // the first value is copied when it is an object: checked once per window, and apart from the record
      this.put(ns, [1, this.copy(this.first(value))]);
      return true;
    }
    s[0]++;
    const acc = this.fold(s[1], value);
    // an object result may hold the record: copied when another window gets the record too
    s[1] = shared && typeof acc === "object" ? this.copy(acc) : acc;
    return false;
  }

  get(ns: WindowNamespace): unknown[] | undefined {
    const s = this.slot(ns);
    return s === undefined ? undefined : [this.copy(s[1])];
  }

  take(ns: WindowNamespace): unknown[] | undefined {
    const s = this.slot(ns);
    if (s === undefined) return undefined;
    this.clear(ns);
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
