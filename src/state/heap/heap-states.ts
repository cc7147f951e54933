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
 *
 * Each handle copies its values with its own {@link PlainDataCopier}: the
 * values of one state mostly share one key list, which the copier compiles.
 */

import type { AggregateFunction } from "../descriptors.ts";
import { PlainDataCopier, PlainDataError } from "../plain-copy.ts";
import type { AggregatingState, ListState, MapState, ReducingState, ValueState } from "../state-handles.ts";
import type { LayeredMap } from "./layered-map.ts";

/** What a handle needs from its backend: the current key, and where errors happen. */
export interface CurrentKeySource {
  /** Canonical current key; throws `NoCurrentKeyError` naming `stateName` when none is set. */
  currentKeyFor(stateName: string): string;
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

const copyList = <T>(l: T[]): T[] => l.slice();
const copyMap = <K, V>(m: Map<K, V>): Map<K, V> => new Map(m);
const EMPTY: ReadonlyMap<never, never> = new Map<never, never>();

function* copiedValues<V>(copier: PlainDataCopier, it: IterableIterator<V>): IterableIterator<V> {
  for (const v of it) yield copier.copy(v);
}

function* copiedEntries<K, V>(copier: PlainDataCopier, it: IterableIterator<[K, V]>): IterableIterator<[K, V]> {
  for (const [k, v] of it) yield [k, copier.copy(v)];
}

/** Heap {@link ValueState}. */
export class HeapValueState<T> implements ValueState<T> {
  constructor(
    private readonly ctx: CurrentKeySource,
    private readonly name: string,
    private readonly table: LayeredMap<T>,
    private readonly defaultValue: T | undefined,
  ) {}
  private readonly copier = new PlainDataCopier();
  value(): T | undefined {
    const v = this.table.get(this.ctx.currentKeyFor(this.name));
    return this.copier.copy(v === undefined ? this.defaultValue : v);
  }
  update(v: T): void {
    const k = this.ctx.currentKeyFor(this.name);
    this.table.set(k, copyIn(this.ctx, this.name, this.copier, v));
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
  private readonly copier = new PlainDataCopier();
  get(): T[] {
    const l = this.table.get(this.ctx.currentKeyFor(this.name));
    return l === undefined ? [] : l.map((v) => this.copier.copy(v));
  }
  add(v: T): void {
    const k = this.ctx.currentKeyFor(this.name);
    const own = copyIn(this.ctx, this.name, this.copier, v);
    const l = this.table.getOwned(k, copyList);
    if (l === undefined) this.table.set(k, [own]);
    else l.push(own);
  }
  addAll(vs: T[]): void {
    if (vs.length === 0) return;
    const k = this.ctx.currentKeyFor(this.name);
    const own = vs.map((v) => copyIn(this.ctx, this.name, this.copier, v));
    const l = this.table.getOwned(k, copyList);
    if (l === undefined) this.table.set(k, own);
    else for (const v of own) l.push(v);
  }
  update(vs: T[]): void {
    const k = this.ctx.currentKeyFor(this.name);
    this.table.set(k, vs.length === 0 ? undefined : vs.map((v) => copyIn(this.ctx, this.name, this.copier, v)));
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
  private readonly copier = new PlainDataCopier();
  private readonly keyCopier = new PlainDataCopier();
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
  private readonly copier = new PlainDataCopier();
  private readonly copyOut = (v: T): T => this.copier.copy(v);
  get(): T | undefined {
    return this.copier.copy(this.table.get(this.ctx.currentKeyFor(this.name)));
  }
  add(v: T): void {
    const k = this.ctx.currentKeyFor(this.name);
    const cur = this.table.getOwned(k, this.copyOut);
    this.table.set(k, copyIn(this.ctx, this.name, this.copier, cur === undefined ? v : this.reduce(cur, v)));
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
  private readonly copier = new PlainDataCopier();
  private readonly copyOut = (acc: ACC): ACC => this.copier.copy(acc);
  get(): OUT | undefined {
    const acc = this.table.get(this.ctx.currentKeyFor(this.name));
    return acc === undefined ? undefined : this.agg.getResult(this.copier.copy(acc));
  }
  add(v: IN): void {
    const k = this.ctx.currentKeyFor(this.name);
    const acc = this.table.getOwned(k, this.copyOut) ?? this.agg.createAccumulator();
    this.table.set(k, copyIn(this.ctx, this.name, this.copier, this.agg.add(v, acc)));
  }
  clear(): void {
    this.table.delete(this.ctx.currentKeyFor(this.name));
  }
}
