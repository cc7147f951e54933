/**
 * The rows an interval join holds for one of its sides in memory, per
 * operator subtask, on the heap backend (see interval-join-side.ts): one queue in arrival order (parallel arrays of fields,
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
 * also queues its rows by cleanup time ({@link SideRows.nextCleanup}).
 *
 * The rows of a key are found by a scan of the queue until scanning costs
 * more than indexing would (the probes of the other side read many rows per
 * row added): then an index from key to the key's newest row, each row
 * linked to the previous one of its key, is built and kept. A join keyed by
 * a nearly unique value whose other side is small (Nexmark q7: bids keyed by
 * price, the highest price of each 10 s window) thus costs no map operation
 * per row.
 *
 * Keyed state is written behind: right before a snapshot, {@link SideRows.flush}
 * writes the live rows ({@link StoredRows}) of each key whose rows changed
 * since the last flush (a row added, dropped or died, or its match flag set),
 * and removes the keys that have none left, so that an incremental checkpoint
 * holds only those keys. The changed keys are found at the flush, from the
 * rows added since the last one (the back of the queue), the rows whose
 * cleanup time the watermark passed since (a scan of the times), the keys of
 * the rows dropped and of the match flags set since (two lists): no map
 * operation per row between flushes. {@link SideRows.restore} reads them
 * back, in that layout or in the one written before (a row per object,
 * {@link LegacyStoredRows}). Rows are the join's own (its input rows, never
 * mutated); what a snapshot stores is a new array per key around the same
 * field arrays.
 */
import { TimerQueue } from "../../time/timer-queue.ts";
import type { SqlValue } from "../types/sql-value.ts";
import type { JoinKey, JoinSideRows, LegacyStoredRows, StoredRows } from "./interval-join-side.ts";

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
 * bids.flush(-Infinity, (key, rows) => {});          // ("i7", [1000, false, [7, 1000]])
 * bids.expire(11_000);                               // the row leaves
 * bids.flush(11_000, (key, rows) => {});             // ("i7", undefined)
 * ```
 */
export class SideRows implements JoinSideRows {
  /** Positions (`seq`) of the rows {@link matches} found, in arrival order. */
  readonly found: number[] = [];
  private capacity = INITIAL_CAPACITY;
  private mask = INITIAL_CAPACITY - 1;
  private fields: (SqlValue[] | undefined)[] = new Array<SqlValue[] | undefined>(INITIAL_CAPACITY);
  private keys: (JoinKey | undefined)[] = new Array<JoinKey | undefined>(INITIAL_CAPACITY);
  private times = new Float64Array(INITIAL_CAPACITY);
  private matchedFlags = new Uint8Array(INITIAL_CAPACITY);
  /** The previous row of the same key (its seq, or -1), while indexed. */
  private previous = new Float64Array(INITIAL_CAPACITY);
  /** Sequence numbers of the first row held and of the next row to add. */
  private front = 0;
  private back = 0;
  /** Key → seq of its newest row, once scanning cost more than indexing. */
  private index: Map<JoinKey, number> | undefined;
  private scanned = 0;
  private added = 0;
  /** Compact the queue when it is longer than this (see {@link expire}). */
  private compactAt = INITIAL_CAPACITY;
  /** Rows by cleanup time (key: seq), for a side whose unmatched rows are padded. */
  private readonly padding: TimerQueue | undefined;
  /** The seq of the first row added since the last flush (or restore): the rows before it are those the last flush saw (a compaction moves both groups alike). */
  private flushedBack = 0;
  /** The last flush left out the rows with a time at or below this (dead at its watermark). */
  private flushedDead = -Infinity;
  /** Keys of the rows dropped from the queue since the last flush that it stored (one entry per row). */
  private readonly droppedKeys: JoinKey[] = [];
  /** Keys of the rows held at the last flush whose match flag was set since (one entry per row). */
  private readonly matchedKeys: JoinKey[] = [];

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
  add(key: JoinKey, fields: SqlValue[], t: number, matched: boolean): void {
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
  matches(key: JoinKey, lo: number, hi: number, watermark: number): number {
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
    const i = seq & this.mask;
    if (this.matchedFlags[i] === 1) return;
    this.matchedFlags[i] = 1;
    if (seq < this.flushedBack) this.matchedKeys.push(this.keys[i]!);
  }

  /** The earliest cleanup time of the rows queued for padding, or undefined (none: a side that pads nothing). */
  nextCleanup(): number | undefined {
    return this.padding?.nextTimestamp();
  }

  /** Takes the row of {@link nextCleanup} off that queue; pushes its fields to `unmatched` when it never matched (it leaves the queue at {@link expire}). */
  cleanUp(_watermark: number, unmatched: SqlValue[][]): void {
    const padding = this.padding!;
    padding.pop();
    const i = (padding.key as number) & this.mask;
    if (this.matchedFlags[i] === 0) unmatched.push(this.fields[i]!);
  }

  /**
   * Drops the rows at the front whose cleanup time is at or below `watermark` (after their padding: see
   * {@link cleanUp}); when dead rows that wait behind live ones have made the queue twice as long as
   * after the last compaction, compacts it (a side without padding: that queue names rows by position).
   */
  expire(watermark: number): void {
    if (this.cleanupOffset === undefined) return;
    const dead = watermark - this.cleanupOffset;
    const { fields, keys, times, mask, index, flushedBack, flushedDead, droppedKeys } = this;
    let seq = this.front;
    for (; seq < this.back; seq++) {
      const i = seq & mask;
      const t = times[i]!;
      if (t > dead) break;
      if (index !== undefined && index.get(keys[i]!) === seq) index.delete(keys[i]!);
      if (seq < flushedBack && t > flushedDead) droppedKeys.push(keys[i]!);
      fields[i] = undefined;
      keys[i] = undefined;
    }
    this.front = seq;
    if (this.padding === undefined && this.back - this.front > this.compactAt) this.compact(dead);
  }

  /**
   * Moves the live rows (time above `dead`) to the back of the queue, in order, and drops the others; the
   * rows added since the last flush stay the last ones ({@link flushedBack} moves with them).
   */
  private compact(dead: number): void {
    const { fields, keys, times, matchedFlags, mask, flushedBack, flushedDead, droppedKeys } = this;
    let to = this.back;
    let added = 0;
    for (let seq = this.back - 1; seq >= this.front; seq--) {
      const i = seq & mask;
      const t = times[i]!;
      if (t <= dead) {
        if (seq < flushedBack && t > flushedDead) droppedKeys.push(keys[i]!);
        continue;
      }
      if (seq >= flushedBack) added++;
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
    this.flushedBack = this.back - added;
    this.compactAt = Math.max(INITIAL_CAPACITY, 2 * (this.back - this.front));
    if (this.index !== undefined) this.buildIndex();
  }

  /**
   * Writes to keyed state what changed since the last flush: `write(key, rows)` for each key whose live
   * rows (cleanup time above `watermark`) changed, `write(key, undefined)` for each key written before that
   * has none left.
   */
  flush(watermark: number, write: (key: JoinKey, stored: StoredRows | undefined) => void): void {
    const dead = this.cleanupOffset === undefined ? -Infinity : watermark - this.cleanupOffset;
    const { fields, keys, times, matchedFlags, mask, flushedBack, flushedDead } = this;
    // the changed keys, in the order found, each with its live rows once collected (null: none yet)
    const groups = new Map<JoinKey, StoredRows | null>();
    for (const key of this.droppedKeys) groups.set(key, null);
    for (const key of this.matchedKeys) groups.set(key, null);
    // rows added since and live, rows the last flush stored that died since
    for (let seq = this.front; seq < this.back; seq++) {
      const t = times[seq & mask]!;
      if (seq >= flushedBack ? t > dead : t > flushedDead && t <= dead) groups.set(keys[seq & mask]!, null);
    }
    this.droppedKeys.length = 0;
    this.matchedKeys.length = 0;
    this.flushedBack = this.back;
    this.flushedDead = Math.max(flushedDead, dead);
    if (groups.size === 0) return;
    const collect = (seq: number, key: JoinKey) => {
      const i = seq & mask;
      const t = times[i]!;
      if (t <= dead) return;
      const group = groups.get(key);
      if (group === undefined) return; // unchanged
      if (group === null) groups.set(key, [t, matchedFlags[i] === 1, fields[i]!]);
      else group.push(t, matchedFlags[i] === 1, fields[i]!);
    };
    if (this.index !== undefined) {
      // each changed key's rows, newest first along the index: collected in arrival order
      const seqs: number[] = [];
      for (const key of groups.keys()) {
        seqs.length = 0;
        for (let seq = this.index.get(key) ?? -1; seq >= this.front; seq = this.previous[seq & mask]!) seqs.push(seq);
        for (let j = seqs.length - 1; j >= 0; j--) collect(seqs[j]!, key);
      }
    } else {
      for (let seq = this.front; seq < this.back; seq++) collect(seq, keys[seq & mask]!);
    }
    // a changed key without live rows had one live at the last flush (a new row makes its key changed only
    // while live), which that flush or an earlier one wrote: its rows leave keyed state
    for (const [key, group] of groups) write(key, group ?? undefined);
  }

  /** Holds the rows restored from keyed state, by key (kept there: the next flush rewrites what changed). */
  restore(entries: Iterable<[key: JoinKey, stored: StoredRows | LegacyStoredRows]>): void {
    const rows: { key: JoinKey; f: SqlValue[]; t: number; m: boolean }[] = [];
    for (const [key, stored] of entries) {
      if (Array.isArray(stored)) {
        for (let i = 0; i + 2 < stored.length; i += 3) rows.push({ key, t: stored[i] as number, m: stored[i + 1] as boolean, f: stored[i + 2] as SqlValue[] });
      } else for (const r of stored.rows) rows.push({ key, f: r.f, t: r.t, m: r.m });
    }
    // in time order, so that the rows leave the front of the queue about when they expire
    rows.sort((a, b) => a.t - b.t);
    for (const r of rows) this.add(r.key, r.f, r.t, r.m);
    this.flushedBack = this.back;
  }

  private grow(): void {
    const capacity = this.capacity * 2;
    const mask = capacity - 1;
    const fields = new Array<SqlValue[] | undefined>(capacity);
    const keys = new Array<JoinKey | undefined>(capacity);
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
    const index = new Map<JoinKey, number>();
    for (let seq = this.front; seq < this.back; seq++) {
      const i = seq & this.mask;
      const key = this.keys[i]!;
      this.previous[i] = index.get(key) ?? -1;
      index.set(key, seq);
    }
    this.index = index;
  }
}
