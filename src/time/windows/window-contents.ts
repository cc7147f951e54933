/**
 * Where a window operator keeps the contents of its windows: keyed state
 * (so it is checkpointed, restored and redistributed by key group), with one
 * MapState per key whose entries are keyed by window id — the heap backend has
 * no namespaces, so the window id plays that role. Three forms: all records
 * (process/apply/evictors), a reduced value, an aggregate accumulator.
 */
import type { AggregateFunction, HeapKeyedStateBackend, MapState } from "../../state/index.ts";
import { MapStateDescriptor } from "../../state/index.ts";
import type { TimestampedValue } from "./evictor.ts";

/** The contents of the current key's windows, addressed by window id. */
export interface WindowContents<IN> {
  /** Adds a record (with its timestamp) to window `wid`. */
  add(wid: string, value: IN, timestamp: number): void;
  /** What the window function gets: all records, or the one pre-aggregated value; undefined when empty. */
  get(wid: string): unknown[] | undefined;
  /** Number of records added to the window since it was last purged. */
  size(wid: string): number;
  /** Moves the contents of `sources` into `target` (merging session windows). */
  merge(target: string, sources: readonly string[]): void;
  clear(wid: string): void;
  /** Records buffered over all keys (restored state included): for the metric. */
  totalSize(backend: HeapKeyedStateBackend): number;
}

const STATE = "_window-contents";

/** All records of each window: entry `wid` holds the count, `wid#i` the i-th record as [value, timestamp]. */
export class ListWindowContents<IN> implements WindowContents<IN> {
  private readonly map: MapState<string, unknown>;

  constructor(backend: HeapKeyedStateBackend) {
    this.map = backend.getMapState(new MapStateDescriptor<string, unknown>(STATE));
  }

  add(wid: string, value: IN, timestamp: number): void {
    const n = this.size(wid);
    this.map.put(`${wid}#${n}`, [value, timestamp]);
    this.map.put(wid, n + 1);
  }

  /** The records with their timestamps, in arrival order. */
  elements(wid: string): TimestampedValue<IN>[] {
    const n = this.size(wid);
    const out: TimestampedValue<IN>[] = [];
    for (let i = 0; i < n; i++) {
      const [value, timestamp] = this.map.get(`${wid}#${i}`) as [IN, number];
      out.push({ value, timestamp });
    }
    return out;
  }

  get(wid: string): unknown[] | undefined {
    const n = this.size(wid);
    return n === 0 ? undefined : this.elements(wid).map((e) => e.value);
  }

  /** Replaces the window's records (after eviction). */
  replace(wid: string, elements: readonly TimestampedValue<IN>[]): void {
    this.clear(wid);
    for (const e of elements) this.add(wid, e.value, e.timestamp);
  }

  size(wid: string): number {
    return (this.map.get(wid) as number | undefined) ?? 0;
  }

  merge(target: string, sources: readonly string[]): void {
    for (const s of sources) {
      for (const e of this.elements(s)) this.add(target, e.value, e.timestamp);
      this.clear(s);
    }
  }

  clear(wid: string): void {
    const n = this.size(wid);
    for (let i = 0; i < n; i++) this.map.remove(`${wid}#${i}`);
    this.map.remove(wid);
  }

  totalSize(backend: HeapKeyedStateBackend): number {
    let n = 0;
    for (const [, m] of backend.entriesOf(STATE))
      for (const [k, v] of m as Map<string, unknown>) if (!k.includes("#")) n += v as number;
    return n;
  }
}

/** One folded value per window, stored as [count, value]. */
abstract class FoldedWindowContents<IN, ACC> implements WindowContents<IN> {
  protected readonly map: MapState<string, [number, ACC]>;

  constructor(backend: HeapKeyedStateBackend) {
    this.map = backend.getMapState(new MapStateDescriptor<string, [number, ACC]>(STATE));
  }

  protected abstract fold(acc: ACC | undefined, value: IN): ACC;
  protected abstract combine(a: ACC, b: ACC): ACC;

  add(wid: string, value: IN): void {
    const cur = this.map.get(wid);
    this.map.put(wid, [(cur?.[0] ?? 0) + 1, this.fold(cur?.[1], value)]);
  }

  get(wid: string): unknown[] | undefined {
    const cur = this.map.get(wid);
    return cur === undefined ? undefined : [cur[1]];
  }

  size(wid: string): number {
    return this.map.get(wid)?.[0] ?? 0;
  }

  merge(target: string, sources: readonly string[]): void {
    let acc = this.map.get(target);
    for (const s of sources) {
      const src = this.map.get(s);
      if (src === undefined) continue;
      acc = acc === undefined ? src : [acc[0] + src[0], this.combine(acc[1], src[1])];
      this.map.remove(s);
    }
    if (acc !== undefined) this.map.put(target, acc);
  }

  clear(wid: string): void {
    this.map.remove(wid);
  }

  totalSize(backend: HeapKeyedStateBackend): number {
    let n = 0;
    for (const [, m] of backend.entriesOf(STATE)) for (const [c] of (m as Map<string, [number, ACC]>).values()) n += c;
    return n;
  }
}

/** Incremental reduce: the window holds the reduced value. */
export class ReducingWindowContents<IN> extends FoldedWindowContents<IN, IN> {
  constructor(
    backend: HeapKeyedStateBackend,
    private readonly reduce: (a: IN, b: IN) => IN,
  ) {
    super(backend);
  }

  protected fold(acc: IN | undefined, value: IN): IN {
    return acc === undefined ? value : this.reduce(acc, value);
  }

  protected combine(a: IN, b: IN): IN {
    return this.reduce(a, b);
  }
}

/**
 * Incremental aggregation: the window holds the accumulator. `add` and `merge`
 * may mutate the accumulator (Flink's contract): they get the copy that the
 * state handed out, never the stored one.
 */
export class AggregatingWindowContents<IN, ACC> extends FoldedWindowContents<IN, ACC> {
  constructor(
    backend: HeapKeyedStateBackend,
    private readonly agg: AggregateFunction<IN, ACC, unknown>,
  ) {
    super(backend);
  }

  protected fold(acc: ACC | undefined, value: IN): ACC {
    return this.agg.add(value, acc === undefined ? this.agg.createAccumulator() : acc);
  }

  protected combine(a: ACC, b: ACC): ACC {
    return this.agg.merge(a, b);
  }
}
