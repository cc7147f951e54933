/**
 * The keyed state handles of every keyed state backend. Each reads and writes
 * one {@link KeyedStateMap} at the backend's current key and key group.
 *
 * Object semantics: state holds its own copies. A value enters state as a
 * copy (`update`, `add`, `put`) and leaves it as a copy (`value`, `get`,
 * `entries`), so user code may mutate, keep or return any object it handed to
 * or received from state without changing the stored value or a snapshot in
 * progress. Primitives are never copied. Lists and maps grow in place, and
 * accumulators and reduced values are handed to the user's function as
 * stored, with their result copied in: the map encodes a key group for
 * pending snapshots before the first write to it (`getForUpdate`), so no
 * snapshot sees such a mutation.
 *
 * Each handle copies its values with its own {@link PlainDataCopier}: the
 * values of one state mostly share one key list, which the copier compiles.
 */

import type { AggregateFunction } from "./descriptors.ts";
import { PlainDataError } from "./plain-copy.ts";
import { PlainDataCopier } from "./plain-shapes.ts";
import type { AggregatingState, ListState, MapState, ReducingState, ValueState } from "./state-handles.ts";
import type { StateKey } from "./state-key.ts";
import type { KeyedStateMap } from "./keyed-state-map.ts";

/** What a handle needs from its backend: the current key and its group, and where errors happen. */
export interface CurrentKeySource {
  /** The current state key; throws `NoCurrentKeyError` naming `stateName` when none is set. */
  currentKeyFor(stateName: string): StateKey;
  /** Index of the current key's group in the backend's range (valid once `currentKeyFor` returned). */
  readonly currentGroup: number;
  /** Hash code of the current key (valid once `currentKeyFor` returned). */
  readonly currentCode: number;
  /** The error for a value of state `stateName` at the current key that is not plain data. */
  valueError(stateName: string, e: PlainDataError): Error;
}

/** Copies a value entering state with `copier`; refuses what is not plain data with an error naming operator, state and key. */
function copyIn<T>(ctx: CurrentKeySource, name: string, copier: PlainDataCopier, v: T): T {
  try {
    return copier.copy(v);
  } catch (e) {
    throw e instanceof PlainDataError ? ctx.valueError(name, e) : e;
  }
}

const EMPTY: ReadonlyMap<never, never> = new Map<never, never>();

function* copiedValues<V>(copier: PlainDataCopier, it: IterableIterator<V>): IterableIterator<V> {
  for (const v of it) yield copier.copy(v);
}

function* copiedEntries<K, V>(copier: PlainDataCopier, it: IterableIterator<[K, V]>): IterableIterator<[K, V]> {
  for (const [k, v] of it) yield [k, copier.copy(v)];
}

/** Keyed {@link ValueState}. */
export class KeyedValueState<T> implements ValueState<T> {
  constructor(
    private readonly ctx: CurrentKeySource,
    private readonly name: string,
    private readonly table: KeyedStateMap<T>,
    private readonly defaultValue: T | undefined,
  ) {}
  private readonly copier = new PlainDataCopier();
  value(): T | undefined {
    const k = this.ctx.currentKeyFor(this.name);
    const v = this.table.get(this.ctx.currentGroup, k, this.ctx.currentCode);
    return this.copier.copy(v === undefined ? this.defaultValue : v);
  }
  update(v: T): void {
    const k = this.ctx.currentKeyFor(this.name);
    this.table.set(this.ctx.currentGroup, k, this.ctx.currentCode, copyIn(this.ctx, this.name, this.copier, v));
  }
  clear(): void {
    const k = this.ctx.currentKeyFor(this.name);
    this.table.delete(this.ctx.currentGroup, k, this.ctx.currentCode);
  }
}

/** Keyed {@link ListState}. An empty list is no state. */
export class KeyedListState<T> implements ListState<T> {
  constructor(
    private readonly ctx: CurrentKeySource,
    private readonly name: string,
    private readonly table: KeyedStateMap<T[]>,
  ) {}
  private readonly copier = new PlainDataCopier();
  get(): T[] {
    const k = this.ctx.currentKeyFor(this.name);
    const l = this.table.get(this.ctx.currentGroup, k, this.ctx.currentCode);
    return l === undefined ? [] : l.map((v) => this.copier.copy(v));
  }
  add(v: T): void {
    const k = this.ctx.currentKeyFor(this.name);
    const own = copyIn(this.ctx, this.name, this.copier, v);
    const l = this.table.getForUpdate(this.ctx.currentGroup, k, this.ctx.currentCode);
    if (l === undefined) this.table.set(this.ctx.currentGroup, k, this.ctx.currentCode, [own]);
    else l.push(own);
  }
  addAll(vs: T[]): void {
    if (vs.length === 0) return;
    const k = this.ctx.currentKeyFor(this.name);
    const own = vs.map((v) => copyIn(this.ctx, this.name, this.copier, v));
    const l = this.table.getForUpdate(this.ctx.currentGroup, k, this.ctx.currentCode);
    if (l === undefined) this.table.set(this.ctx.currentGroup, k, this.ctx.currentCode, own);
    else for (const v of own) l.push(v);
  }
  update(vs: T[]): void {
    const k = this.ctx.currentKeyFor(this.name);
    const own = vs.length === 0 ? undefined : vs.map((v) => copyIn(this.ctx, this.name, this.copier, v));
    this.table.set(this.ctx.currentGroup, k, this.ctx.currentCode, own);
  }
  clear(): void {
    const k = this.ctx.currentKeyFor(this.name);
    this.table.delete(this.ctx.currentGroup, k, this.ctx.currentCode);
  }
}

/** Keyed {@link MapState}. An empty map is no state. */
export class KeyedMapState<K, V> implements MapState<K, V> {
  constructor(
    private readonly ctx: CurrentKeySource,
    private readonly name: string,
    private readonly table: KeyedStateMap<Map<K, V>>,
  ) {}
  private readonly copier = new PlainDataCopier();
  private readonly keyCopier = new PlainDataCopier();
  private read(): ReadonlyMap<K, V> {
    const k = this.ctx.currentKeyFor(this.name);
    return this.table.get(this.ctx.currentGroup, k, this.ctx.currentCode) ?? EMPTY;
  }
  private own(): Map<K, V> {
    const k = this.ctx.currentKeyFor(this.name);
    let m = this.table.getForUpdate(this.ctx.currentGroup, k, this.ctx.currentCode);
    if (m === undefined) {
      m = new Map();
      this.table.set(this.ctx.currentGroup, k, this.ctx.currentCode, m);
    }
    return m;
  }
  get(k: K): V | undefined {
    return this.copier.copy(this.read().get(k));
  }
  put(k: K, v: V): void {
    const own = copyIn(this.ctx, this.name, this.copier, v);
    this.own().set(copyIn(this.ctx, this.name, this.keyCopier, k), own);
  }
  putAll(entries: Iterable<[K, V]> | Map<K, V>): void {
    const copies: [K, V][] = [];
    for (const [k, v] of entries) copies.push([copyIn(this.ctx, this.name, this.keyCopier, k), copyIn(this.ctx, this.name, this.copier, v)]);
    const m = this.own();
    for (const [k, v] of copies) m.set(k, v);
    if (m.size === 0) this.clear();
  }
  remove(k: K): void {
    if (!this.read().has(k)) return;
    const m = this.own();
    m.delete(k);
    if (m.size === 0) this.clear();
  }
  contains(k: K): boolean {
    return this.read().has(k);
  }
  entries(): IterableIterator<[K, V]> {
    return copiedEntries(this.copier, this.read().entries());
  }
  keys(): IterableIterator<K> {
    return this.read().keys();
  }
  values(): IterableIterator<V> {
    return copiedValues(this.copier, this.read().values());
  }
  isEmpty(): boolean {
    return this.read().size === 0;
  }
  clear(): void {
    const k = this.ctx.currentKeyFor(this.name);
    this.table.delete(this.ctx.currentGroup, k, this.ctx.currentCode);
  }
}

/** Keyed {@link ReducingState}. */
export class KeyedReducingState<T> implements ReducingState<T> {
  constructor(
    private readonly ctx: CurrentKeySource,
    private readonly name: string,
    private readonly table: KeyedStateMap<T>,
    private readonly reduce: (a: T, b: T) => T,
  ) {}
  private readonly copier = new PlainDataCopier();
  get(): T | undefined {
    const k = this.ctx.currentKeyFor(this.name);
    return this.copier.copy(this.table.get(this.ctx.currentGroup, k, this.ctx.currentCode));
  }
  add(v: T): void {
    const k = this.ctx.currentKeyFor(this.name);
    const cur = this.table.getForUpdate(this.ctx.currentGroup, k, this.ctx.currentCode);
    this.table.set(this.ctx.currentGroup, k, this.ctx.currentCode, copyIn(this.ctx, this.name, this.copier, cur === undefined ? v : this.reduce(cur, v)));
  }
  clear(): void {
    const k = this.ctx.currentKeyFor(this.name);
    this.table.delete(this.ctx.currentGroup, k, this.ctx.currentCode);
  }
}

/** Keyed {@link AggregatingState}; stores the accumulator. */
export class KeyedAggregatingState<IN, ACC, OUT> implements AggregatingState<IN, OUT> {
  constructor(
    private readonly ctx: CurrentKeySource,
    private readonly name: string,
    private readonly table: KeyedStateMap<ACC>,
    private readonly agg: AggregateFunction<IN, ACC, OUT>,
  ) {}
  private readonly copier = new PlainDataCopier();
  get(): OUT | undefined {
    const k = this.ctx.currentKeyFor(this.name);
    const acc = this.table.get(this.ctx.currentGroup, k, this.ctx.currentCode);
    return acc === undefined ? undefined : this.agg.getResult(this.copier.copy(acc));
  }
  add(v: IN): void {
    const k = this.ctx.currentKeyFor(this.name);
    const acc = this.table.getForUpdate(this.ctx.currentGroup, k, this.ctx.currentCode) ?? this.agg.createAccumulator();
    this.table.set(this.ctx.currentGroup, k, this.ctx.currentCode, copyIn(this.ctx, this.name, this.copier, this.agg.add(v, acc)));
  }
  clear(): void {
    const k = this.ctx.currentKeyFor(this.name);
    this.table.delete(this.ctx.currentGroup, k, this.ctx.currentCode);
  }
}
