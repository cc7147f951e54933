/**
 * What the interval join needs of the rows it holds for one of its sides
 * ({@link JoinSideRows}), and how keyed state stores a key's rows
 * ({@link StoredRows}; {@link LegacyStoredRows} until 2026-12-03). Two
 * implementations, chosen by the state backend (`statesInMemory`): on the
 * heap backend the rows are held in memory per operator subtask, keyed state
 * written behind before each snapshot (`SideRows`, interval-join-rows.ts); on
 * the disk backend, whose state may be larger than memory, they live in
 * keyed state, read and written per key through the backend, each key's
 * earliest cleanup waiting in a queue (`KeyedSideRows`,
 * interval-join-keyed-rows.ts). Both read both stored layouts and write the
 * flat one, so a snapshot of either restores into the other.
 */
import type { SqlValue } from "../types/sql-value.ts";

/**
 * The key of an interval join's rows: in memory its compact key (`sqlValueCompactKey`: a number for an
 * integer key), in keyed state the key string (`sqlValueKey`); on the disk backend the rows are keyed
 * state's, and so are their keys.
 */
export type JoinKey = string | number;

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

/** A key's stored rows in the flat layout (`stored` itself when it is in it; else a new array around the same fields). */
export function flatRows(stored: StoredRows | LegacyStoredRows): StoredRows {
  if (Array.isArray(stored)) return stored;
  const flat: StoredRows = [];
  for (const r of stored.rows) flat.push(r.t, r.m, r.f);
  return flat;
}

/**
 * The rows of one side of an interval join. A row's cleanup time is its time plus a fixed offset (none
 * for a side kept for good): once the watermark reaches it, the row can match nothing more and is
 * dropped; a side whose unmatched rows are emitted NULL-padded (an outer join's preserved side) hands
 * them out at that moment ({@link cleanUp}). Rows are the join's own (its input rows, never mutated).
 *
 * @example
 * ```ts
 * const n = side.matches(key, lo, hi, watermark);
 * for (let i = 0; i < n; i++) use(side.fieldsAt(side.found[i]!)); // then maybe side.setMatched(side.found[i]!)
 * side.add(key, fields, time, matched);
 * while ((side.nextCleanup() ?? Infinity) <= watermark) side.cleanUp(watermark, unmatched);
 * side.expire(watermark);
 * ```
 */
export interface JoinSideRows {
  /** Positions of the rows {@link matches} found, in arrival order (meaningful until the next call of any method but {@link fieldsAt} and {@link setMatched}). */
  readonly found: number[];
  /**
   * Finds the rows of `key` (the current key of keyed state, too) with a time in `[lo, hi]` whose cleanup
   * time is above `watermark`: their positions go to {@link found}; returns how many.
   */
  matches(key: JoinKey, lo: number, hi: number, watermark: number): number;
  /** The fields of the row at a position of {@link found}. */
  fieldsAt(pos: number): SqlValue[];
  /** Notes that the row at a position of {@link found} matched (it is not padded when it expires). */
  setMatched(pos: number): void;
  /** Holds a row of `key` (the current key of keyed state, too): its fields (not copied), time and whether it matched. */
  add(key: JoinKey, fields: SqlValue[], t: number, matched: boolean): void;
  /** The earliest time at which {@link cleanUp} has work, or undefined. */
  nextCleanup(): number | undefined;
  /**
   * Does the work due at {@link nextCleanup} (at or below `watermark`): drops rows whose cleanup time was
   * reached and pushes to `unmatched` the fields of those of a padded side that never matched (all with
   * that cleanup time). The next cleanups follow in the order of their times.
   */
  cleanUp(watermark: number, unmatched: SqlValue[][]): void;
  /** Drops the rows whose cleanup time is at or below `watermark` that no cleanup handed out. */
  expire(watermark: number): void;
  /**
   * Writes to keyed state what changed since the last flush: `write(key, rows)` for a key whose live rows
   * (cleanup time above `watermark`) changed, `write(key, undefined)` for a key that has none left
   * (nothing when the rows live in keyed state already).
   */
  flush(watermark: number, write: (key: JoinKey, stored: StoredRows | undefined) => void): void;
  /** Takes the rows keyed state holds after a restore, by key, in either layout (once, before any other call). */
  restore(entries: Iterable<[key: JoinKey, stored: StoredRows | LegacyStoredRows]>): void;
}
