/**
 * The LMDB environment of one disk keyed state backend (one subtask of one
 * operator): a directory holding `data.mdb` and `lock.mdb`, with the entries
 * of every state of the backend (layout in disk-key-codec.ts) and a little
 * metadata: a header (operator, max parallelism, key-group range), the id of
 * each state name, and the local-recovery marker.
 *
 * Local recovery: the marker `{checkpointId, token}` is written in the same
 * transaction as the flush of a snapshot, so it says "the entries are exactly
 * the state of that snapshot". Writes between snapshots (evictions of the
 * cache) go to an overlay — entries under a prefix of their own, read before
 * the entries they stand for — which the next snapshot's flush merges in the
 * same transaction as its new marker. A crash therefore leaves entries that
 * match the marker, and an overlay to forget (`discardOverlay`). A store opened without a valid marker (or for another
 * operator, max parallelism or key-group range) is deleted and started
 * empty: stale local data is never mixed in.
 *
 * Durability comes from checkpoints, not from this store, so it is opened
 * with `noSync` (no fsync per commit; LMDB stays consistent, and after an
 * operating-system crash the newest commits — with or without a marker —
 * may be lost together). The map size is left to lmdb-js, which grows it
 * as the data grows; a write that fails (a full disk: ENOSPC, MDB_MAP_FULL)
 * is a {@link DiskStateStoreError} naming the directory and operator.
 */

import { closeSync, existsSync, fstatSync, openSync, readdirSync, readSync, rmSync } from "node:fs";
import { join } from "node:path";
import { createRequire } from "node:module";
import type { LmdbDatabase, LmdbOpen, LmdbReadTransaction } from "./lmdb-surface.ts";
import type { StateKind } from "../descriptors.ts";
import { DiskStateStoreError } from "../errors.ts";
import { decodeStateValue, packPlainData } from "../serializer.ts";
import { entryOfOverlayKey, keyGroupStart, metaKey, metaRange, nameOfMetaKey, overlayKey } from "./disk-key-codec.ts";

/** Which snapshot the local store holds exactly: its checkpoint id and a token unique to that snapshot. */
export interface LocalSnapshotId {
  readonly checkpointId: number;
  readonly token: string;
}

/** One write of a batch: a store key and the packed value, or undefined to delete. */
export type StoreWrite = readonly [key: Uint8Array, value: Uint8Array | undefined];

/** A read transaction for {@link DiskStore.read}, and whether the overlay held entries when it opened. */
export interface StoreView {
  readonly txn: LmdbReadTransaction;
  readonly overlay: boolean;
}

/** Where and for whom a store is opened. */
export interface DiskStoreOptions {
  readonly directory: string;
  readonly operatorUid: string;
  readonly maxParallelism: number;
  readonly keyGroupRange: readonly [number, number];
  /** Read the local-recovery marker of an existing store (else any existing content is deleted). */
  readonly keepLocal: boolean;
}

interface StoreHeader {
  readonly format: "weir-disk-keyed";
  readonly version: 1;
  readonly operatorUid: string;
  readonly maxParallelism: number;
  readonly keyGroupRange: readonly [number, number];
}

/** A registered state as persisted: its id in store keys and its kind. */
export interface StoredState {
  readonly id: number;
  readonly kind: StateKind;
  /** Values stored in the TTL form (see src/state/ttl/). */
  readonly ttl?: boolean;
}

/** LMDB's magic number (0xBEEFC0DE), at this offset of each of its two meta pages (lmdb-js's LMDB). */
const LMDB_MAGIC = 0xbeefc0de;
const LMDB_META_OFFSET = 24;
/** Page sizes LMDB picks (the OS page size: 4 KiB, 16 KiB on Apple silicon, 64 KiB on some ARM Linux). */
const LMDB_PAGE_SIZES = [4096, 16384, 65536];

/** The files of an LMDB store in directory mode. */
const STORE_FILES = ["data.mdb", "lock.mdb"];

/** Largest state id (u16 in store keys). */
const MAX_STATE_ID = 0xffff;

let lmdb: { open: LmdbOpen } | undefined;

/**
 * The `lmdb` package, loaded on the first use of a disk backend (its native
 * binary is not needed by jobs on the heap backend).
 */
function loadLmdb(store: DiskStore): { open: LmdbOpen } {
  try {
    return (lmdb ??= createRequire(import.meta.url)("lmdb") as { open: LmdbOpen });
  } catch (e) {
    throw store.error(`the lmdb package (the disk backend's store) cannot be loaded: ${(e as Error).message}`, e);
  }
}

/**
 * One backend's LMDB store.
 *
 * @example
 * ```ts
 * const store = new DiskStore({ directory: "/tmp/w/op-0", operatorUid: "op", maxParallelism: 128, keyGroupRange: [0, 127], keepLocal: false });
 * const id = store.registerState("count", "value");
 * store.write([[entryKey(5, id, "apple")!, packPlainData(1)]]);
 * store.close();
 * ```
 */
/** An overlay value that stands for a deletion (no stored value encodes to zero bytes). */
const EMPTY = new Uint8Array(0);

export class DiskStore {
  readonly directory: string;
  private readonly operatorUid: string;
  private db: LmdbDatabase;
  private readonly states = new Map<string, StoredState>();
  /** The marker in the store now (undefined once a write followed the last snapshot's flush). */
  private marker: LocalSnapshotId | undefined;
  /** The marker found at open, if it was valid. */
  readonly localAtOpen: LocalSnapshotId | undefined;
  /** Entries in the overlay (written after the marked snapshot); reads look there first while any. */
  private overlaid = 0;
  private closed = false;

  constructor(private readonly opts: DiskStoreOptions) {
    this.directory = opts.directory;
    this.operatorUid = opts.operatorUid;
    let found: LocalSnapshotId | undefined;
    if (existsSync(this.directory)) {
      if (opts.keepLocal) {
        this.checkFile();
        this.db = this.openEnv();
        found = this.validMarker();
        if (found === undefined) {
          this.db.close();
          this.wipe();
          this.db = this.openEnv();
        }
      } else {
        this.wipe();
        this.db = this.openEnv();
      }
    } else this.db = this.openEnv();
    this.localAtOpen = this.marker = found;
    if (found === undefined) this.writeHeader();
    else this.loadStates();
  }

  /** The store's data file, for error messages. */
  get file(): string {
    return join(this.directory, "data.mdb");
  }

  private openEnv(): LmdbDatabase {
    const { open } = loadLmdb(this);
    try {
      return open({ path: this.directory, keyEncoding: "binary", encoding: "binary", noSync: true, cache: false });
    } catch (e) {
      throw this.error(`cannot open the store file ${this.file} (${(e as Error).message}); delete the directory to start from the checkpoint`, e);
    }
  }

  /**
   * Refuses a data file whose two LMDB meta pages are not there (truncated,
   * overwritten, not an LMDB file): LMDB itself would crash the process on
   * one. LMDB has no page checksums, so damage deeper in the file is not
   * detected here.
   */
  private checkFile(): void {
    let fd: number | undefined;
    try {
      if (!existsSync(this.file)) return; // a directory without a store: nothing to keep, opened fresh
      fd = openSync(this.file, "r");
      const size = fstatSync(fd).size;
      if (size === 0) return; // created but never written: LMDB initializes it
      const head = Buffer.alloc(LMDB_META_OFFSET + 4);
      const magicAt = (offset: number): boolean =>
        offset + head.length <= size && readSync(fd!, head, 0, head.length, offset) === head.length && head.readUInt32LE(LMDB_META_OFFSET) === LMDB_MAGIC;
      if (!magicAt(0) || !LMDB_PAGE_SIZES.some((page) => magicAt(page))) {
        throw new Error(`no valid LMDB meta pages (${size} bytes)`);
      }
    } catch (e) {
      throw this.error(`cannot open the store file ${this.file}: it is corrupt or not an LMDB store (${(e as Error).message}); delete the directory to start from the checkpoint`, e);
    } finally {
      if (fd !== undefined) closeSync(fd);
    }
  }

  /** Deletes the directory, which must hold nothing but an LMDB store (a mistaken `localDirectory` is never emptied). */
  private wipe(): void {
    let foreign: string[];
    try {
      foreign = existsSync(this.directory) ? readdirSync(this.directory).filter((f) => !STORE_FILES.includes(f)) : [];
    } catch (e) {
      throw this.error(`cannot read the directory (${(e as Error).message})`, e);
    }
    if (foreign.length > 0) {
      throw this.error(
        `the directory holds other files than a state store (${foreign.slice(0, 3).join(", ")}${foreign.length > 3 ? ", …" : ""}); it is not deleted: give each backend a directory of its own`,
      );
    }
    try {
      rmSync(this.directory, { recursive: true, force: true });
    } catch (e) {
      throw this.error(`cannot delete the stale store (${(e as Error).message})`, e);
    }
  }

  /** The marker when the header matches this backend and one is present, else undefined. */
  private validMarker(): LocalSnapshotId | undefined {
    const header = this.readMeta(metaKey("header")) as Partial<StoreHeader> | undefined;
    const [start, end] = this.opts.keyGroupRange;
    if (
      header?.format !== "weir-disk-keyed" ||
      header.operatorUid !== this.operatorUid ||
      header.maxParallelism !== this.opts.maxParallelism ||
      header.keyGroupRange?.[0] !== start ||
      header.keyGroupRange[1] !== end
    ) {
      return undefined;
    }
    const m = this.readMeta(metaKey("marker")) as Partial<LocalSnapshotId> | undefined;
    return typeof m?.checkpointId === "number" && typeof m.token === "string" ? { checkpointId: m.checkpointId, token: m.token } : undefined;
  }

  private readMeta(key: Uint8Array): unknown {
    const bytes = this.read(key);
    if (bytes === undefined) return undefined;
    try {
      return decodeStateValue(bytes);
    } catch (e) {
      throw this.error(`the store file ${this.file} is corrupt: metadata is not valid msgpack (${(e as Error).message})`, e);
    }
  }

  private writeHeader(): void {
    const header: StoreHeader = {
      format: "weir-disk-keyed",
      version: 1,
      operatorUid: this.operatorUid,
      maxParallelism: this.opts.maxParallelism,
      keyGroupRange: this.opts.keyGroupRange,
    };
    this.transact(() => this.db.putSync(metaKey("header"), packPlainData(header)));
  }

  private loadStates(): void {
    for (const { key, value } of this.guard(() => [...this.db.getRange(metaRange("state"))])) {
      const s = decodeStateValue(value) as Partial<StoredState>;
      if (typeof s?.id !== "number" || typeof s.kind !== "string") throw this.error(`the store file ${this.file} is corrupt: a malformed state entry`);
      this.states.set(nameOfMetaKey(key), { id: s.id, kind: s.kind, ...(s.ttl === true ? { ttl: true } : {}) });
    }
  }

  /** The states persisted in the store (adopted content), by name. */
  storedStates(): ReadonlyMap<string, StoredState> {
    return this.states;
  }

  /** The id of state `name`, registering it (persisted) when new. Registering is not a content change (the marker stays). */
  registerState(name: string, kind: StateKind): number {
    const known = this.states.get(name);
    if (known !== undefined) return known.id;
    let id = 1;
    for (const s of this.states.values()) id = Math.max(id, s.id + 1);
    if (id > MAX_STATE_ID) throw this.error(`more than ${MAX_STATE_ID} keyed states`);
    const stored: StoredState = { id, kind };
    this.transact(() => this.db.putSync(metaKey("state", name), packPlainData(stored)));
    this.states.set(name, stored);
    return id;
  }

  /** Persists whether state `name` (registered) stores its values in the TTL form. */
  setStateTtl(name: string, ttl: boolean): void {
    const known = this.states.get(name);
    if (known === undefined || (known.ttl ?? false) === ttl) return;
    const stored: StoredState = { id: known.id, kind: known.kind, ...(ttl ? { ttl: true } : {}) };
    this.transact(() => this.db.putSync(metaKey("state", name), packPlainData(stored)));
    this.states.set(name, stored);
  }

  /**
   * The stored bytes of `key` (a copy), or undefined: the overlay's version
   * when it has one; read in `view` when given (a snapshot's read
   * transaction: the overlay is looked at only if it held entries when the
   * transaction opened).
   */
  read(key: Uint8Array, view?: StoreView): Uint8Array | undefined {
    return this.guard(() => {
      const options = view && { transaction: view.txn };
      if (view ? view.overlay : this.overlaid > 0) {
        const over = this.db.getBinary(overlayKey(key), options);
        if (over !== undefined) return over.length === 0 ? undefined : over;
      }
      return this.db.getBinary(key, options);
    });
  }

  /**
   * Applies `writes` in one transaction.
   *
   * With `marker` (a snapshot's flush): the overlay is merged into the
   * entries first, then `writes` are applied and the marker written — the
   * store now holds exactly that snapshot. Without (an eviction between
   * snapshots): while a marker stands, the writes go to the overlay (a
   * deletion as an empty value) and the entries stay exactly the marked
   * snapshot, so local recovery survives evictions; without a marker they go
   * to the entries directly.
   *
   * @throws DiskStateStoreError naming the directory when the write fails (a full disk)
   */
  write(writes: readonly StoreWrite[], marker?: LocalSnapshotId): void {
    if (writes.length === 0 && marker === undefined) return;
    const toOverlay = marker === undefined && this.marker !== undefined;
    this.transact(() => {
      if (marker !== undefined) this.mergeOverlay();
      for (const [key, value] of writes) {
        if (toOverlay) {
          this.db.putSync(overlayKey(key), value ?? EMPTY);
          this.overlaid++;
        } else if (value === undefined) this.db.removeSync(key);
        else this.db.putSync(key, value);
      }
      if (marker !== undefined) this.db.putSync(metaKey("marker"), packPlainData(marker));
    });
    if (marker !== undefined) this.marker = marker;
  }

  /**
   * Starts a snapshot's flush that takes several transactions: removes the
   * marker (the entries are about to stop being exactly the marked snapshot,
   * and a crash from now until the flush's last transaction leaves a store
   * that is not kept), so writes go to the entries directly from now on.
   */
  unmark(): void {
    if (this.marker === undefined) return;
    this.transact(() => this.db.removeSync(metaKey("marker")));
    this.marker = undefined;
  }

  /**
   * Moves up to `limit` overlay entries onto their entries in one transaction
   * (after {@link unmark}). Returns true when the overlay is empty.
   */
  mergeOverlaySlice(limit: number): boolean {
    if (this.overlaid === 0) return true;
    const { start, end } = metaRange("overlay");
    let moved = 0;
    this.transact(() => {
      for (const { key, value } of this.db.getRange({ start, end, limit })) {
        const entry = entryOfOverlayKey(key);
        if (value.length === 0) this.db.removeSync(entry);
        else this.db.putSync(entry, value);
        this.db.removeSync(key);
        moved++;
      }
    });
    this.overlaid = moved < limit ? 0 : Math.max(this.overlaid - moved, 1);
    return this.overlaid === 0;
  }

  /** Keeps the marked snapshot and forgets what was written after it (local recovery after a crash). */
  discardOverlay(): void {
    const { start, end } = metaRange("overlay");
    this.transact(() => {
      for (const key of this.db.getKeys({ start, end })) this.db.removeSync(key);
    });
    this.overlaid = 0;
  }

  /** Inside a write transaction: moves every overlay entry onto its entry (an empty value deletes it). */
  private mergeOverlay(): void {
    if (this.overlaid === 0) return;
    const { start, end } = metaRange("overlay");
    for (const { key, value } of this.db.getRange({ start, end })) {
      const entry = entryOfOverlayKey(key);
      if (value.length === 0) this.db.removeSync(entry);
      else this.db.putSync(entry, value);
      this.db.removeSync(key);
    }
    this.overlaid = 0;
  }

  /** Deletes every entry and state id (keeps the header): "clear the store and restore from blobs". */
  clearContent(): void {
    this.transact(() => this.db.clearSync());
    this.states.clear();
    this.marker = undefined;
    this.overlaid = 0;
    this.writeHeader();
  }

  /** Entries in the store (O(1), LMDB's own count). */
  entryCount(): number {
    return this.guard(() => this.db.getStats().entryCount);
  }

  /** A read transaction: a consistent view of the store as of now, until `done()`. */
  readTransaction(): LmdbReadTransaction {
    return this.guard(() => this.db.useReadTransaction());
  }

  /** A read transaction for {@link read}: the store as of now, overlay included, until `txn.done()`. */
  readView(): StoreView {
    return { txn: this.readTransaction(), overlay: this.overlaid > 0 };
  }

  /** Entries of key groups `first..last` (ascending by key), read in `txn` when given. */
  scan(first: number, last: number, txn?: LmdbReadTransaction): Iterable<{ key: Uint8Array; value: Uint8Array }> {
    return this.range(keyGroupStart(first), keyGroupStart(last + 1), txn);
  }

  /**
   * Entries from `start` (inclusive) to `end` (exclusive), ascending by key:
   * read in `txn` when given (a snapshot's read transaction, opened right
   * after the flush that merged the overlay), else now with the overlay
   * applied (both are in key order: one merge pass).
   */
  range(start: Uint8Array, end: Uint8Array, txn?: LmdbReadTransaction): Iterable<{ key: Uint8Array; value: Uint8Array }> {
    return this.guard(() => {
      const entries = this.db.getRange({ start, end, transaction: txn });
      if (txn !== undefined || this.overlaid === 0) return entries;
      const over = Array.from(this.db.getRange({ start: overlayKey(start), end: overlayKey(end) }), ({ key, value }) => ({ key: entryOfOverlayKey(key), value }));
      const merged: { key: Uint8Array; value: Uint8Array }[] = [];
      let i = 0;
      const takeOverlayBelow = (key: Uint8Array | undefined): void => {
        for (; i < over.length && (key === undefined || Buffer.compare(over[i]!.key, key) < 0); i++) {
          if (over[i]!.value.length > 0) merged.push(over[i]!);
        }
      };
      for (const entry of entries) {
        takeOverlayBelow(entry.key);
        if (i < over.length && Buffer.compare(over[i]!.key, entry.key) === 0) {
          if (over[i]!.value.length > 0) merged.push(over[i]!); // an empty value: deleted since the marker
          i++;
        } else merged.push(entry);
      }
      takeOverlayBelow(undefined);
      return merged;
    });
  }

  /** Closes the environment (idempotent). */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.db.close();
  }

  /** Closes and deletes the directory. */
  destroy(): void {
    this.close();
    this.wipe();
  }

  /** A {@link DiskStateStoreError} about this store. */
  error(detail: string, cause?: unknown): DiskStateStoreError {
    return new DiskStateStoreError(this.operatorUid, this.directory, detail, cause === undefined ? undefined : { cause });
  }

  private transact(fn: () => void): void {
    if (this.closed) throw this.error("the store is closed (the backend was disposed)");
    try {
      this.db.transactionSync(fn);
    } catch (e) {
      const m = (e as Error).message;
      const full = /ENOSPC|MDB_MAP_FULL|No space left/i.test(m) ? "the disk is full: " : "";
      throw this.error(`${full}a write to ${this.file} failed (${m})`, e);
    }
  }

  private guard<T>(fn: () => T): T {
    if (this.closed) throw this.error("the store is closed (the backend was disposed)");
    try {
      return fn();
    } catch (e) {
      throw this.error(`cannot read ${this.file} (${(e as Error).message})`, e);
    }
  }
}
