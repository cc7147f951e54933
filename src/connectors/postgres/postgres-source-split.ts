/**
 * The state of the PostgreSQL CDC source: one split (the source reads one replication slot, parallelism 1)
 * holding where it is — before anything, in the initial snapshot, or streaming from an LSN — as plain
 * data for the checkpoint.
 *
 * Snapshot progress is kept as pieces: a piece is a run of rows (in table order, then primary-key order)
 * read from one consistent snapshot, taken at the LSN of a slot's consistent point. A job that restarts in
 * the middle of the snapshot cannot reopen the old snapshot (it dies with its connection), so it reads the
 * rest from a new one (a new piece at a later LSN) and, while it streams the changes between the first
 * piece's LSN and the last one's, drops those that a later piece already reflects (see `emitsChange`).
 */

/** Rows up to (and including) this position were read: every table before `table`, and rows of `table` with a primary key up to `key` (none when null). */
export interface SnapshotPosition {
  table: number;
  key: string[] | null;
}

/** Rows read from the snapshot at `lsn`, after the previous piece's position up to `upTo`. */
export interface SnapshotPiece {
  readonly lsn: string;
  upTo: SnapshotPosition;
}

/** The one split of a CDC source. */
export interface PostgresSourceSplit {
  readonly kind: "postgres-cdc";
  /** `start`: nothing read yet (a fresh job); `snapshot`: reading the initial snapshot; `stream`: reading the slot. */
  phase: "start" | "snapshot" | "stream";
  /**
   * `stream`: where streaming resumes — the end of the last transaction emitted in full, or a position
   * between transactions the server reported; every transaction committed before it was emitted. This is
   * what a completed checkpoint confirms to the server.
   */
  lsn?: string;
  /** `stream`: the transaction emitted in part, by its commit LSN, and how many of its changes were emitted. */
  txn?: { finalLsn: string; emitted: number };
  /** `snapshot`, and `stream` until it passed the last piece's LSN: the snapshot pieces (first = the slot's consistent point). */
  pieces?: SnapshotPiece[];
}

/** The split of a fresh job. */
export function initialPostgresSplit(): PostgresSourceSplit {
  return { kind: "postgres-cdc", phase: "start" };
}

/** A deep copy (the engine keeps what `snapshotState` returns; the reader keeps changing its own). */
export function copyPostgresSplit(split: PostgresSourceSplit): PostgresSourceSplit {
  const copy: PostgresSourceSplit = { kind: "postgres-cdc", phase: split.phase };
  if (split.lsn !== undefined) copy.lsn = split.lsn;
  if (split.txn !== undefined) copy.txn = { ...split.txn };
  if (split.pieces !== undefined) copy.pieces = split.pieces.map((p) => ({ lsn: p.lsn, upTo: { table: p.upTo.table, key: p.upTo.key === null ? null : [...p.upTo.key] } }));
  return copy;
}

/**
 * Which piece's position decides whether a change of a transaction committed at `finalLsn` is emitted
 * while streaming over the pieces: the last piece read at or before `finalLsn` (its snapshot, and those of
 * the pieces before it, did not see the transaction). `"all"` when that is the last piece (every row was
 * read before the change), `"none"` before the first.
 */
export function pieceFor(pieces: readonly { lsn: bigint }[], finalLsn: bigint): number | "all" | "none" {
  let k = -1;
  for (let j = 0; j < pieces.length; j++) if (pieces[j]!.lsn <= finalLsn) k = j;
  if (k < 0) return "none";
  return k === pieces.length - 1 ? "all" : k;
}
