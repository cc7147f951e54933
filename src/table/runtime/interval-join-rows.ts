/**
 * The rows an interval join holds for one of its sides, in memory, per
 * operator subtask: one queue in arrival order (parallel arrays of fields,
 * keys, times and match flags: no object per row), from which rows leave at
 * the front once the watermark reaches their cleanup time (a row's time plus
 * a fixed offset; never for a side kept for good).
 *
 * A row that arrived out of order may wait behind an earlier row with a later
 * cleanup time (rows of upstream subtasks far apart in event time interleave):
 * it is dead (its cleanup time is at or below the watermark) though still
 * queued, and {@link SideRows.matches} and {@link SideRows.flush} skip it, so
 * the rows seen are exactly those whose cleanup time is above the watermark;
 * the queue is compacted when such rows have doubled its length. A side whose unmatched rows are
 * emitted NULL-padded at their cleanup time (an outer join's preserved side)
 * also queues its rows by cleanup time ({@link SideRows.nextPadding}).
 *
 * The rows of a key are found by a scan of the queue until scanning costs
 * more than indexing would (the probes of the other side read many rows per
 * row added): then an index from key to the key's newest row, each row
 * linked to the previous one of its key, is built and kept. A join keyed by
 * a nearly unique value whose other side is small (Nexmark q7: bids keyed by
 * price, the highest price of each 10 s window) thus costs no map operation
 * per row.
 *
 * Keyed state is written behind: {@link SideRows.flush} writes every key's
 * live rows ({@link StoredRows}) and removes the keys that have none left,
 * right before a snapshot; {@link SideRows.restore} reads them back, in that
 * layout or in the one written before (a row per object, {@link LegacyStoredRows}).
 * Rows are the join's own (its input rows, never mutated); what a snapshot
 * stores is a new array per key around the same field arrays.
 */
import { TimerQueue } from "../../time/timer-queue.ts";
import type { SqlValue } from "../types/sql-value.ts";

/**
 * A key's rows as keyed state stores them, in arrival order: `[t, m, f, t, m, f, …]`, each row's time,
 * whether it matched a row of the other side and its fields (one array per key: a third of the objects
 * of {@link LegacyStoredRows} to encode).
 */
export type StoredRows = (number | boolean | SqlValue[])[];

/** How keyed state stored a key's rows until 2026-12-03 (restored still): an object per row; `next`, the earliest cleanup time. */
export interface LegacyStoredRows {
  rows: { f: SqlValue[]; t: number; m: boolean }[];
  next: number | null;
}

/** Rows held before the queue first grows. */
const INITIAL_CAPACITY = 1024;
/** Index the keys once the rows scanned exceed this many per row added (plus {@link SCAN_ALLOWANCE}). */
const SCANS_PER_ROW = 8;
const SCAN_ALLOWANCE = 4096;

/**
 * @example
 * ```ts
 * const bids = new SideRows(10_000, false); // a row expires when the watermark reaches its time + 10 s
 * bids.add("i7", [7, 1000], 1000, false);
 * const n = bids.matches("i7", 0, 2000, -Infinity); // 1: bids.found[0] is the row's position
 * bids.fieldsAt(bids.found[0]!);                     // [7, 1000]
 * bids.expire(11_000);                               // the row leaves
 * ```
 */
export class SideRows {
  /** Positions (`seq`) of the rows {@link matches} found, in arrival order. */
  readonly found: number[] = [];
  private capacity = INITIAL_CAPACITY;
  private mask = INITIAL_CAPACITY - 1;
  private fields: (SqlValue[] | undefined)[] = new Array<SqlValue[] | undefined>(INITIAL_CAPACITY);
  private keys: (string | undefined)[] = new Array<string | undefined>(INITIAL_CAPACITY);
  private times = new Float64Array(INITIAL_CAPACITY);
  private matchedFlags = new Uint8Array(INITIAL_CAPACITY);
  /** The previous row of the same key (its seq, or -1), while indexed. */
  private previous = new Float64Array(INITIAL_CAPACITY);
  /** Sequence numbers of the first row held and of the next row to add. */
  private front = 0;
  private back = 0;
  /** Key → seq of its newest row, once scanning cost more than indexing. */
  private index: Map<string, number> | undefined;
  private scanned = 0;
  private added = 0;
  /** Compact the queue when it is longer than this (see {@link expire}). */
  private compactAt = INITIAL_CAPACITY;
  /** Rows by cleanup time (key: seq), for a side whose unmatched rows are padded. */
  private readonly padding: TimerQueue | undefined;
  /** The keys keyed state holds rows of (written by the last flush, or restored). */
  private stored = new Set<string>();

  /**
   * @param cleanupOffset a row's cleanup time minus its time; undefined: rows are kept for good
   * @param pads whether unmatched rows are emitted padded at their cleanup time (see {@link nextPadding})
   */
  constructor(
    private readonly cleanupOffset: number | undefined,
    pads: boolean,
  ) {
    this.padding = pads && cleanupOffset !== undefined ? new TimerQueue() : undefined;
  }

  /** Holds a row of `key` (its fields, which are not copied, and time). */
  add(key: string, fields: SqlValue[], t: number, matched: boolean): void {
    if (this.back - this.front === this.capacity) this.grow();
    const seq = this.back++;
    const i = seq & this.mask;
    this.fields[i] = fields;
    this.keys[i] = key;
    this.times[i] = t;
    this.matchedFlags[i] = matched ? 1 : 0;
    this.added++;
    if (this.index !== undefined) {
      this.previous[i] = this.index.get(key) ?? -1;
      this.index.set(key, seq);
    }
    if (this.padding !== undefined) this.padding.push(t + this.cleanupOffset!, seq, 0);
  }

  /**
   * Finds the live rows of `key` with a time in `[lo, hi]` (cleanup time above `watermark`): their
   * positions go to {@link found}, in arrival order; returns how many.
   */
  matches(key: string, lo: number, hi: number, watermark: number): number {
    const found = this.found;
    found.length = 0;
    // a row is live while its time is above this
    const dead = this.cleanupOffset === undefined ? -Infinity : watermark - this.cleanupOffset;
    const { keys, times, mask } = this;
    if (this.index === undefined) {
      const n = this.back - this.front;
      this.scanned += n;
      for (let seq = this.front; seq < this.back; seq++) {
        const i = seq & mask;
        const t = times[i]!;
        if (keys[i] === key && t >= lo && t <= hi && t > dead) found.push(seq);
      }
      if (this.scanned > SCANS_PER_ROW * this.added + SCAN_ALLOWANCE) this.buildIndex();
      return found.length;
    }
    for (let seq = this.index.get(key) ?? -1; seq >= this.front; seq = this.previous[seq & mask]!) {
      const t = times[seq & mask]!;
      if (t >= lo && t <= hi && t > dead) found.push(seq);
    }
    found.reverse();
    return found.length;
  }

  /** The fields of the row at `seq` (held). */
  fieldsAt(seq: number): SqlValue[] {
    return this.fields[seq & this.mask]!;
  }

  /** Notes that the row at `seq` matched (it is not padded when it expires). */
  setMatched(seq: number): void {
    this.matchedFlags[seq & this.mask] = 1;
  }

  /** The earliest cleanup time of the rows queued for padding, or undefined. */
  nextPadding(): number | undefined {
    return this.padding?.nextTimestamp();
  }

  /** Takes the row of {@link nextPadding} off that queue; its fields when it never matched, else undefined. */
  popPadding(): SqlValue[] | undefined {
    const padding = this.padding!;
    padding.pop();
    const i = (padding.key as number) & this.mask;
    return this.matchedFlags[i] === 1 ? undefined : this.fields[i];
  }

  /**
   * Drops the rows at the front whose cleanup time is at or below `watermark` (after their padding: see
   * {@link popPadding}); when dead rows that wait behind live ones have made the queue twice as long as
   * after the last compaction, compacts it (a side without padding: that queue names rows by position).
   */
  expire(watermark: number): void {
    if (this.cleanupOffset === undefined) return;
    const dead = watermark - this.cleanupOffset;
    const { fields, keys, times, mask, index } = this;
    let seq = this.front;
    for (; seq < this.back; seq++) {
      const i = seq & mask;
      if (times[i]! > dead) break;
      if (index !== undefined && index.get(keys[i]!) === seq) index.delete(keys[i]!);
      fields[i] = undefined;
      keys[i] = undefined;
    }
    this.front = seq;
    if (this.padding === undefined && this.back - this.front > this.compactAt) this.compact(dead);
  }

  /** Moves the live rows (time above `dead`) to the back of the queue, in order, and drops the others. */
  private compact(dead: number): void {
    const { fields, keys, times, matchedFlags, mask } = this;
    let to = this.back;
    for (let seq = this.back - 1; seq >= this.front; seq--) {
      const i = seq & mask;
      if (times[i]! <= dead) continue;
      const j = --to & mask;
      if (j === i) continue;
      fields[j] = fields[i];
      keys[j] = keys[i];
      times[j] = times[i]!;
      matchedFlags[j] = matchedFlags[i]!;
    }
    for (let seq = this.front; seq < to; seq++) {
      fields[seq & mask] = undefined;
      keys[seq & mask] = undefined;
    }
    this.front = to;
    this.compactAt = Math.max(INITIAL_CAPACITY, 2 * (this.back - this.front));
    if (this.index !== undefined) this.buildIndex();
  }

  /**
   * Writes to keyed state what it must hold: `write(key, rows)` for each key with live rows (cleanup time
   * above `watermark`), `write(key, undefined)` for each key written before that has none left.
   */
  flush(watermark: number, write: (key: string, stored: StoredRows | undefined) => void): void {
    const dead = this.cleanupOffset === undefined ? -Infinity : watermark - this.cleanupOffset;
    const groups = new Map<string, StoredRows>();
    const { fields, keys, times, matchedFlags, mask } = this;
    for (let seq = this.front; seq < this.back; seq++) {
      const i = seq & mask;
      const t = times[i]!;
      if (t <= dead) continue;
      const key = keys[i]!;
      const group = groups.get(key);
      if (group === undefined) groups.set(key, [t, matchedFlags[i] === 1, fields[i]!]);
      else group.push(t, matchedFlags[i] === 1, fields[i]!);
    }
    for (const key of this.stored) if (!groups.has(key)) write(key, undefined);
    for (const [key, stored] of groups) write(key, stored);
    this.stored = new Set(groups.keys());
  }

  /** Holds the rows restored from keyed state, by key (kept there: the next flush rewrites what changed). */
  restore(entries: Iterable<[key: string, stored: StoredRows | LegacyStoredRows]>): void {
    const rows: { key: string; f: SqlValue[]; t: number; m: boolean }[] = [];
    for (const [key, stored] of entries) {
      this.stored.add(key);
      if (Array.isArray(stored)) {
        for (let i = 0; i + 2 < stored.length; i += 3) rows.push({ key, t: stored[i] as number, m: stored[i + 1] as boolean, f: stored[i + 2] as SqlValue[] });
      } else for (const r of stored.rows) rows.push({ key, f: r.f, t: r.t, m: r.m });
    }
    // in time order, so that the rows leave the front of the queue about when they expire
    rows.sort((a, b) => a.t - b.t);
    for (const r of rows) this.add(r.key, r.f, r.t, r.m);
  }

  private grow(): void {
    const capacity = this.capacity * 2;
    const mask = capacity - 1;
    const fields = new Array<SqlValue[] | undefined>(capacity);
    const keys = new Array<string | undefined>(capacity);
    const times = new Float64Array(capacity);
    const matchedFlags = new Uint8Array(capacity);
    const previous = new Float64Array(capacity);
    for (let seq = this.front; seq < this.back; seq++) {
      const from = seq & this.mask;
      const to = seq & mask;
      fields[to] = this.fields[from];
      keys[to] = this.keys[from];
      times[to] = this.times[from]!;
      matchedFlags[to] = this.matchedFlags[from]!;
      previous[to] = this.previous[from]!;
    }
    this.capacity = capacity;
    this.mask = mask;
    this.fields = fields;
    this.keys = keys;
    this.times = times;
    this.matchedFlags = matchedFlags;
    this.previous = previous;
  }

  private buildIndex(): void {
    const index = new Map<string, number>();
    for (let seq = this.front; seq < this.back; seq++) {
      const i = seq & this.mask;
      const key = this.keys[i]!;
      this.previous[i] = index.get(key) ?? -1;
      index.set(key, seq);
    }
    this.index = index;
  }
}
