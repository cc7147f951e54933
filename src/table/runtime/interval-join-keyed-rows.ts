/**
 * The rows an interval join holds for one of its sides in keyed state, read
 * and written per key through the backend: on the disk backend, whose state
 * may be larger than memory (see interval-join-side.ts). A key's rows are one
 * {@link StoredRows} value (a key in the layout written before 2026-12-03,
 * {@link LegacyStoredRows}, is converted when first read).
 *
 * The earliest cleanup time of each key's rows waits in one queue per side
 * and operator subtask, not a timer per key (a join keyed by a nearly unique
 * value would have a timer, with its keyed state, per row): a key's entry is
 * queued when its first row arrives, when a row with an earlier cleanup time
 * arrives, and after each cleanup for the rows left; an entry the key's rows
 * no longer have due (its cleanup moved earlier and ran) changes nothing. The
 * queue is not state: {@link KeyedSideRows.restore} rebuilds it from the keys
 * restored. A side whose unmatched rows are padded drops a key's rows due at
 * the entry's time (each padded row then has its own cleanup time); a side
 * that pads nothing drops every row due at the watermark (a key with many
 * rows is scanned once per watermark, not once per row).
 */
import type { EngineKeyedState } from "../../state/index.ts";
import { TimerQueue } from "../../time/timer-queue.ts";
import type { SqlValue } from "../types/sql-value.ts";
import { flatRows, type JoinKey, type JoinSideRows, type LegacyStoredRows, type StoredRows } from "./interval-join-side.ts";

/**
 * @example
 * ```ts
 * const bids = new KeyedSideRows(engineKeyedState(ctx, "_right"), 10_000, false, (key) => operator.setKey(key));
 * bids.add("i7", [7, 1000], 1000, false);             // "i7" current: appended to its state, cleanup queued at 11 000
 * bids.matches("i7", 0, 2000, -Infinity);            // 1: bids.found[0] is the row's position in the key's rows
 * while ((bids.nextCleanup() ?? Infinity) <= 11_000) bids.cleanUp(11_000, []); // "i7" made current, its state removed
 * ```
 */
export class KeyedSideRows implements JoinSideRows {
  readonly found: number[] = [];
  /** The rows {@link matches} read (the stored value, or the owned one once {@link setMatched} wrote). */
  private rows: StoredRows | undefined;
  private owned: StoredRows | undefined;
  /** Each key's earliest cleanup time (at least; key: the key, namespace 0). */
  private readonly cleanups = new TimerQueue();

  /**
   * @param state the side's rows, at the current key
   * @param cleanupOffset a row's cleanup time minus its time; undefined: rows are kept for good
   * @param pads whether unmatched rows are handed out padded at their cleanup time
   * @param setKey makes a key current (for the cleanups)
   */
  constructor(
    private readonly state: EngineKeyedState<StoredRows | LegacyStoredRows>,
    private readonly cleanupOffset: number | undefined,
    private readonly pads: boolean,
    private readonly setKey: (key: JoinKey) => void,
  ) {}

  matches(_key: JoinKey, lo: number, hi: number, watermark: number): number {
    const found = this.found;
    found.length = 0;
    this.owned = undefined;
    const stored = this.state.get();
    const rows = (this.rows = stored === undefined ? undefined : Array.isArray(stored) ? stored : this.converted(stored));
    if (rows === undefined) return 0;
    const dead = this.cleanupOffset === undefined ? -Infinity : watermark - this.cleanupOffset;
    for (let i = 0; i < rows.length; i += 3) {
      const t = rows[i] as number;
      if (t >= lo && t <= hi && t > dead) found.push(i);
    }
    return found.length;
  }

  fieldsAt(pos: number): SqlValue[] {
    return this.rows![pos + 2] as SqlValue[];
  }

  setMatched(pos: number): void {
    const owned = (this.owned ??= this.state.getOwned() as StoredRows); // changed in place
    this.rows = owned;
    owned[pos + 1] = true;
  }

  add(key: JoinKey, fields: SqlValue[], t: number, matched: boolean): void {
    const stored = this.state.getOwned(); // changed in place
    const offset = this.cleanupOffset;
    if (stored === undefined) {
      this.state.set([t, matched, fields]);
      if (offset !== undefined) this.cleanups.push(t + offset, key, 0);
      return;
    }
    const rows = Array.isArray(stored) ? stored : this.converted(stored);
    if (offset !== undefined) {
      // a cleanup is queued at the earliest cleanup time of the rows held: another one if this row's is earlier
      let earliest = Infinity;
      for (let i = 0; i < rows.length; i += 3) earliest = Math.min(earliest, rows[i] as number);
      if (t < earliest) this.cleanups.push(t + offset, key, 0);
    }
    rows.push(t, matched, fields);
  }

  nextCleanup(): number | undefined {
    return this.cleanups.nextTimestamp();
  }

  cleanUp(watermark: number, unmatched: SqlValue[][]): void {
    const { cleanups, state } = this;
    const time = cleanups.pop();
    const key = cleanups.key as JoinKey;
    this.setKey(key);
    const stored = state.get();
    if (stored === undefined) return;
    const offset = this.cleanupOffset!;
    // a padded side drops the rows due at `time` (each is padded at its own cleanup time); another, all due
    const dead = (this.pads ? time : watermark) - offset;
    let rows = Array.isArray(stored) ? stored : this.converted(stored);
    let due = false;
    for (let i = 0; i < rows.length && !due; i += 3) due = (rows[i] as number) <= dead;
    if (!due) return; // an outdated entry: the key's earliest cleanup is queued too
    rows = state.getOwned() as StoredRows; // compacted in place
    let kept = 0;
    let earliest = Infinity;
    for (let i = 0; i < rows.length; i += 3) {
      const t = rows[i] as number;
      if (t > dead) {
        rows[kept++] = t;
        rows[kept++] = rows[i + 1]!;
        rows[kept++] = rows[i + 2]!;
        earliest = Math.min(earliest, t);
      } else if (this.pads && rows[i + 1] === false) unmatched.push(rows[i + 2] as SqlValue[]);
    }
    if (kept === 0) {
      state.set(undefined);
      return;
    }
    rows.length = kept;
    cleanups.push(earliest + offset, key, 0);
  }

  /** Nothing: a side that pads nothing drops its rows at its cleanups. */
  expire(): void {}

  /** Nothing: the rows are in keyed state. */
  flush(): void {}

  /** Queues each key's earliest cleanup (the rows stay in keyed state). */
  restore(entries: Iterable<[key: JoinKey, stored: StoredRows | LegacyStoredRows]>): void {
    const offset = this.cleanupOffset;
    if (offset === undefined) return;
    for (const [key, stored] of entries) {
      let earliest = Infinity;
      if (Array.isArray(stored)) for (let i = 0; i < stored.length; i += 3) earliest = Math.min(earliest, stored[i] as number);
      else for (const r of stored.rows) earliest = Math.min(earliest, r.t);
      if (earliest !== Infinity) this.cleanups.push(earliest + offset, key, 0);
    }
  }

  /** A key's rows in the legacy layout, converted and stored in place of them (the key is current). */
  private converted(legacy: LegacyStoredRows): StoredRows {
    this.state.set(flatRows(legacy));
    return this.state.getOwned() as StoredRows;
  }
}
