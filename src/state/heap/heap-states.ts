/**
 * The heap implementations of the keyed state handles. Each reads and writes
 * one {@link LayeredMap} at the backend's current key. Values that a handle
 * mutates in place (lists, maps, accumulators) are first taken out of frozen
 * layers with `getOwned`, so a snapshot in progress never sees the mutation.
 */

import type { AggregateFunction } from "../descriptors.ts";
import type { AggregatingState, ListState, MapState, ReducingState, ValueState } from "../state-handles.ts";
import type { LayeredMap } from "./layered-map.ts";

/** What a handle needs from its backend: the current key. */
export interface CurrentKeySource {
  /** Canonical current key; throws `NoCurrentKeyError` naming `stateName` when none is set. */
  currentKeyFor(stateName: string): string;
}

const copyList = <T>(l: T[]): T[] => l.slice();
const copyMap = <K, V>(m: Map<K, V>): Map<K, V> => new Map(m);
const deepCopy = <T>(v: T): T => (typeof v === "object" && v !== null ? structuredClone(v) : v);
const EMPTY: ReadonlyMap<never, never> = new Map<never, never>();

/** Heap {@link ValueState}. */
export class HeapValueState<T> implements ValueState<T> {
  constructor(
    private readonly ctx: CurrentKeySource,
    private readonly name: string,
    private readonly table: LayeredMap<T>,
    private readonly defaultValue: T | undefined,
  ) {}
  value(): T | undefined {
    const v = this.table.get(this.ctx.currentKeyFor(this.name));
    return v === undefined ? this.defaultValue : v;
  }
  update(v: T): void {
    this.table.set(this.ctx.currentKeyFor(this.name), v);
  }
  clear(): void {
    this.table.delete(this.ctx.currentKeyFor(this.name));
  }
}

/** Heap keyed {@link ListState}. An empty list is no state. */
export class HeapListState<T> implements ListState<T> {
  constructor(
    private readonly ctx: CurrentKeySource,
    private readonly name: string,
    private readonly table: LayeredMap<T[]>,
  ) {}
  get(): T[] {
    const l = this.table.get(this.ctx.currentKeyFor(this.name));
    return l === undefined ? [] : l.slice();
  }
  add(v: T): void {
    const k = this.ctx.currentKeyFor(this.name);
    const l = this.table.getOwned(k, copyList);
    if (l === undefined) this.table.set(k, [v]);
    else l.push(v);
  }
  addAll(vs: T[]): void {
    if (vs.length === 0) return;
    const k = this.ctx.currentKeyFor(this.name);
    const l = this.table.getOwned(k, copyList);
    if (l === undefined) this.table.set(k, vs.slice());
    else for (const v of vs) l.push(v);
  }
  update(vs: T[]): void {
    this.table.set(this.ctx.currentKeyFor(this.name), vs.length === 0 ? undefined : vs.slice());
  }
  clear(): void {
    this.table.delete(this.ctx.currentKeyFor(this.name));
  }
}

/** Heap {@link MapState}. An empty map is no state. */
export class HeapMapState<K, V> implements MapState<K, V> {
  constructor(
    private readonly ctx: CurrentKeySource,
    private readonly name: string,
    private readonly table: LayeredMap<Map<K, V>>,
  ) {}
  private read(): ReadonlyMap<K, V> {
    return this.table.get(this.ctx.currentKeyFor(this.name)) ?? EMPTY;
  }
  private own(): Map<K, V> {
    const k = this.ctx.currentKeyFor(this.name);
    let m = this.table.getOwned(k, copyMap);
    if (m === undefined) {
      m = new Map();
      this.table.set(k, m);
    }
    return m;
  }
  get(k: K): V | undefined {
    return this.read().get(k);
  }
  put(k: K, v: V): void {
    this.own().set(k, v);
  }
  putAll(entries: Iterable<[K, V]> | Map<K, V>): void {
    const m = this.own();
    for (const [k, v] of entries) m.set(k, v);
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
    return this.read().entries();
  }
  keys(): IterableIterator<K> {
    return this.read().keys();
  }
  values(): IterableIterator<V> {
    return this.read().values();
  }
  isEmpty(): boolean {
    return this.read().size === 0;
  }
  clear(): void {
    this.table.delete(this.ctx.currentKeyFor(this.name));
  }
}

/** Heap {@link ReducingState}. */
export class HeapReducingState<T> implements ReducingState<T> {
  constructor(
    private readonly ctx: CurrentKeySource,
    private readonly name: string,
    private readonly table: LayeredMap<T>,
    private readonly reduce: (a: T, b: T) => T,
  ) {}
  get(): T | undefined {
    return this.table.get(this.ctx.currentKeyFor(this.name));
  }
  add(v: T): void {
    const k = this.ctx.currentKeyFor(this.name);
    const cur = this.table.getOwned(k, deepCopy);
    this.table.set(k, cur === undefined ? v : this.reduce(cur, v));
  }
  clear(): void {
    this.table.delete(this.ctx.currentKeyFor(this.name));
  }
}

/** Heap {@link AggregatingState}; stores the accumulator. */
export class HeapAggregatingState<IN, ACC, OUT> implements AggregatingState<IN, OUT> {
  constructor(
    private readonly ctx: CurrentKeySource,
    private readonly name: string,
    private readonly table: LayeredMap<ACC>,
    private readonly agg: AggregateFunction<IN, ACC, OUT>,
  ) {}
  get(): OUT | undefined {
    const acc = this.table.get(this.ctx.currentKeyFor(this.name));
    return acc === undefined ? undefined : this.agg.getResult(acc);
  }
  add(v: IN): void {
    const k = this.ctx.currentKeyFor(this.name);
    const acc = this.table.getOwned(k, deepCopy) ?? this.agg.createAccumulator();
    this.table.set(k, this.agg.add(v, acc));
  }
  clear(): void {
    this.table.delete(this.ctx.currentKeyFor(this.name));
  }
}
