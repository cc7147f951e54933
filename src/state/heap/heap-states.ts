/**
 * The heap implementations of the keyed state handles. Each reads and writes
 * one {@link LayeredMap} at the backend's current key.
 *
 * Object semantics: state holds its own copies. A value enters state as a
 * copy (`update`, `add`, `put`) and leaves it as a copy (`value`, `get`,
 * `entries`), so user code may mutate, keep or return any object it handed to
 * or received from state without changing the stored value or a snapshot in
 * progress. Primitives are never copied. Accumulators and reduced values are
 * handed to the user's function as owned copies (copy-on-write from a
 * snapshot's frozen layers) and their result is copied in.
 */

import type { AggregateFunction } from "../descriptors.ts";
import { copyPlainData, PlainDataError } from "../plain-copy.ts";
import type { AggregatingState, ListState, MapState, ReducingState, ValueState } from "../state-handles.ts";
import type { LayeredMap } from "./layered-map.ts";

/** What a handle needs from its backend: the current key, and where errors happen. */
export interface CurrentKeySource {
  /** Canonical current key; throws `NoCurrentKeyError` naming `stateName` when none is set. */
  currentKeyFor(stateName: string): string;
  /** The error for a value of state `stateName` at the current key that is not plain data. */
  valueError(stateName: string, e: PlainDataError): Error;
}

/** Copies a value entering state; refuses what is not plain data with an error naming operator, state and key. */
function copyIn<T>(ctx: CurrentKeySource, name: string, v: T): T {
  try {
    return copyPlainData(v);
  } catch (e) {
    throw e instanceof PlainDataError ? ctx.valueError(name, e) : e;
  }
}

const copyOut = copyPlainData;
const copyList = <T>(l: T[]): T[] => l.slice();
const copyMap = <K, V>(m: Map<K, V>): Map<K, V> => new Map(m);
const EMPTY: ReadonlyMap<never, never> = new Map<never, never>();

function* copiedValues<V>(it: IterableIterator<V>): IterableIterator<V> {
  for (const v of it) yield copyOut(v);
}

function* copiedEntries<K, V>(it: IterableIterator<[K, V]>): IterableIterator<[K, V]> {
  for (const [k, v] of it) yield [k, copyOut(v)];
}

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
    return copyOut(v === undefined ? this.defaultValue : v);
  }
  update(v: T): void {
    const k = this.ctx.currentKeyFor(this.name);
    this.table.set(k, copyIn(this.ctx, this.name, v));
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
    return l === undefined ? [] : l.map(copyOut);
  }
  add(v: T): void {
    const k = this.ctx.currentKeyFor(this.name);
    const own = copyIn(this.ctx, this.name, v);
    const l = this.table.getOwned(k, copyList);
    if (l === undefined) this.table.set(k, [own]);
    else l.push(own);
  }
  addAll(vs: T[]): void {
    if (vs.length === 0) return;
    const k = this.ctx.currentKeyFor(this.name);
    const own = vs.map((v) => copyIn(this.ctx, this.name, v));
    const l = this.table.getOwned(k, copyList);
    if (l === undefined) this.table.set(k, own);
    else for (const v of own) l.push(v);
  }
  update(vs: T[]): void {
    const k = this.ctx.currentKeyFor(this.name);
    this.table.set(k, vs.length === 0 ? undefined : vs.map((v) => copyIn(this.ctx, this.name, v)));
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
    return copyOut(this.read().get(k));
  }
  put(k: K, v: V): void {
    const own = copyIn(this.ctx, this.name, v);
    this.own().set(copyIn(this.ctx, this.name, k), own);
  }
  putAll(entries: Iterable<[K, V]> | Map<K, V>): void {
    const copies: [K, V][] = [];
    for (const [k, v] of entries) copies.push([copyIn(this.ctx, this.name, k), copyIn(this.ctx, this.name, v)]);
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
    return copiedEntries(this.read().entries());
  }
  keys(): IterableIterator<K> {
    return this.read().keys();
  }
  values(): IterableIterator<V> {
    return copiedValues(this.read().values());
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
    return copyOut(this.table.get(this.ctx.currentKeyFor(this.name)));
  }
  add(v: T): void {
    const k = this.ctx.currentKeyFor(this.name);
    const cur = this.table.getOwned(k, copyOut);
    this.table.set(k, copyIn(this.ctx, this.name, cur === undefined ? v : this.reduce(cur, v)));
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
    return acc === undefined ? undefined : this.agg.getResult(copyOut(acc));
  }
  add(v: IN): void {
    const k = this.ctx.currentKeyFor(this.name);
    const acc = this.table.getOwned(k, copyOut) ?? this.agg.createAccumulator();
    this.table.set(k, copyIn(this.ctx, this.name, this.agg.add(v, acc)));
  }
  clear(): void {
    this.table.delete(this.ctx.currentKeyFor(this.name));
  }
}
