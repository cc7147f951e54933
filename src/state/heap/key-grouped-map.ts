/**
 * The entries of one keyed state: one {@link KeyTable} from state key to
 * value per key group of the backend's range (each access passes the key's
 * hash code, computed once per record), and snapshots of them that cost
 * nothing to take and that encode each key group at most once per change.
 *
 * `capture()` copies nothing: it notes each key group's version (a counter
 * bumped by the first write after a capture) and marks the group captured.
 * The first write to a captured group first encodes the group for every
 * snapshot that still needs it (encode-on-write), so the snapshot holds the
 * group's bytes and the write may change the table in place; groups nobody
 * writes are encoded by the snapshot's serializer, between batches. A
 * group's encoding is kept until the group changes, so the next snapshot
 * reuses it when the group did not change (incremental encoding; it takes
 * the memory of the unchanged groups' share of a checkpoint). No table is
 * ever shared between the live state and a snapshot, so values may be
 * mutated in place once obtained through `getForUpdate`. */

import type { ChangedKeys } from "../incremental/changed-keys.ts";
import type { KeyedStateMap } from "../keyed-state-map.ts";
import type { KeyGroupEntries } from "../snapshot/key-group-chunk.ts";
import type { StateKey } from "../state-key.ts";
import { KeyTable } from "./key-table.ts";

/** The table of a group that has none yet: never written to (writes go through `prepareWrite`, which replaces it). */
const NO_ENTRIES = new KeyTable<never>();

/** The encoding of one version of a key group's entries. */
interface EncodedGroup {
  readonly version: number;
  readonly bytes: Uint8Array;
}

/** What a snapshot of a {@link KeyGroupedMap} holds: the encoded key groups, filled in as they are encoded. */
export interface KeyGroupedView {
  /** Version of each group (by index in the range) at the capture. */
  readonly versions: Float64Array;
  /** Per group index: its encoding once done, null when it had no entries, undefined while pending. */
  readonly chunks: (Uint8Array | null | undefined)[];
  released: boolean;
}

/** Counters of a {@link KeyGroupedMap}, for tests and metrics. */
export interface KeyGroupedMapStats {
  /** Snapshots not yet released. */
  readonly liveViews: number;
  /** Key groups encoded by a write (encode-on-write). */
  readonly encodedOnWrite: number;
  /** Key groups encoded by a serializer. */
  readonly encodedBySerializer: number;
  /** Key groups whose encoding of an earlier snapshot was reused. */
  readonly reused: number;
}

/**
 * Key-grouped copy-on-write map (copy = encoding).
 *
 * @example
 * ```ts
 * const m = new KeyGroupedMap<number>(0, 128, encodeKeyGroupEntries);
 * const a = hashCodeOfStateKey("a");
 * m.set(5, "a", a, 1);
 * const view = m.capture();
 * m.set(5, "a", a, 2);             // encodes group 5 for the view first
 * m.encodePending(view, 5);       // 0: already encoded
 * view.chunks[5];                 // the bytes of { a → 1 }
 * m.release(view);
 * ```
 */
export class KeyGroupedMap<V> implements KeyedStateMap<V> {
  private readonly tables: KeyTable<V>[];
  /** 1 while the next write to the group must go through `prepareWrite` (captured since its last write, or no table yet). */
  private readonly captured: Uint8Array;
  private readonly versions: Float64Array;
  private readonly encoded: (EncodedGroup | undefined)[];
  private readonly views: KeyGroupedView[] = [];
  private encodedOnWrite = 0;
  private encodedBySerializer = 0;
  private reused = 0;

  /**
   * @param firstKeyGroup key group of index 0
   * @param groups number of key groups
   * @param encode encodes a group's entries (called on a write or by a serializer)
   * @param changes where writes are noted (incremental checkpoints), if anywhere
   */
  constructor(
    readonly firstKeyGroup: number,
    readonly groups: number,
    private readonly encode: (entries: KeyGroupEntries) => Uint8Array,
    private readonly changes?: ChangedKeys,
  ) {
    this.tables = new Array<KeyTable<V>>(groups).fill(NO_ENTRIES);
    this.captured = new Uint8Array(groups).fill(1);
    this.versions = new Float64Array(groups);
    this.encoded = new Array<EncodedGroup | undefined>(groups).fill(undefined);
  }

  /** The value of `k` (hash code `code`) in group index `g`, or undefined. Never stores undefined. */
  get(g: number, k: StateKey, code: number): V | undefined {
    return this.tables[g]!.get(k, code);
  }

  /** The value of `k` in group index `g`, which the caller may mutate in place (as a write). */
  getForUpdate(g: number, k: StateKey, code: number): V | undefined {
    this.changes?.record(g, k, code);
    const m = this.captured[g] === 0 ? this.tables[g]! : this.prepareWrite(g);
    return m.get(k, code);
  }

  /** Sets `k` in group index `g`; `undefined` deletes. */
  set(g: number, k: StateKey, code: number, v: V | undefined): void {
    if (v === undefined) return this.delete(g, k, code);
    this.changes?.record(g, k, code);
    (this.captured[g] === 0 ? this.tables[g]! : this.prepareWrite(g)).set(k, code, v);
  }

  delete(g: number, k: StateKey, code: number): void {
    // a group that is not captured is changed in place: one probe finds and deletes
    if (this.captured[g] === 0) {
      if (this.tables[g]!.delete(k, code)) this.changes?.record(g, k, code);
      return;
    }
    if (!this.tables[g]!.has(k, code)) return;
    this.changes?.record(g, k, code);
    this.prepareWrite(g).delete(k, code);
  }

  reserve(g: number, n: number): void {
    (this.captured[g] === 0 ? this.tables[g]! : this.prepareWrite(g)).reserve(n);
  }

  /** Makes group `g` writable: encodes it for the views that captured this version and lack it, bumps its version. */
  private prepareWrite(g: number): KeyTable<V> {
    let m = this.tables[g]!;
    if (m === NO_ENTRIES) m = this.tables[g] = new KeyTable();
    else {
      for (const view of this.views) {
        if (view.chunks[g] === undefined && view.versions[g] === this.versions[g]) {
          if (this.encodeCurrent(g)) this.encodedOnWrite++;
          view.chunks[g] = this.encoded[g]!.bytes;
        }
      }
      this.encoded[g] = undefined; // outdated by this write: only unchanged groups keep their encoding
    }
    this.versions[g]!++;
    this.captured[g] = 0;
    return m;
  }

  /** Makes `encoded[g]` the encoding of group `g`'s current version; true when it had to encode (false: reused). */
  private encodeCurrent(g: number): boolean {
    const version = this.versions[g]!;
    if (this.encoded[g]?.version === version) {
      this.reused++;
      return false;
    }
    this.encoded[g] = { version, bytes: this.encode(this.tables[g]!) };
    return true;
  }

  /** Captures the current content in O(groups), copying and encoding nothing. Release the view when done. */
  capture(): KeyGroupedView {
    const chunks = new Array<Uint8Array | null | undefined>(this.groups);
    for (let g = 0; g < this.groups; g++) {
      this.captured[g] = 1;
      chunks[g] = this.tables[g]!.size === 0 ? null : undefined;
    }
    const view: KeyGroupedView = { versions: this.versions.slice(), chunks, released: false };
    this.views.push(view);
    return view;
  }

  /**
   * Encodes group index `g` for `view` unless it already has it.
   * Returns the number of entries encoded (0 when done before or reused).
   *
   * @throws Error when the view was released
   */
  encodePending(view: KeyGroupedView, g: number): number {
    if (view.released) throw new Error("weir: a released snapshot view was serialized");
    if (view.chunks[g] !== undefined) return 0;
    const encodedNow = this.encodeCurrent(g);
    view.chunks[g] = this.encoded[g]!.bytes;
    if (!encodedNow) return 0;
    this.encodedBySerializer++;
    return this.tables[g]!.size;
  }

  /** Drops a view (idempotent); its groups are no longer encoded on write. */
  release(view: KeyGroupedView): void {
    if (view.released) return;
    view.released = true;
    this.views.splice(this.views.indexOf(view), 1);
  }

  /** Number of entries, O(groups). */
  get size(): number {
    let n = 0;
    for (let g = 0; g < this.groups; g++) n += this.tables[g]!.size;
    return n;
  }

  /** Calls `fn` for every live entry, group by group. */
  forEach(fn: (v: V, k: StateKey, g: number) => void): void {
    for (let g = 0; g < this.groups; g++) this.tables[g]!.forEach((v, k) => fn(v, k, g));
  }

  /** Counters (for tests and metrics). */
  stats(): KeyGroupedMapStats {
    return {
      liveViews: this.views.length,
      encodedOnWrite: this.encodedOnWrite,
      encodedBySerializer: this.encodedBySerializer,
      reused: this.reused,
    };
  }

  /** Drops all content; outstanding views keep what they encoded and get nothing more. */
  clearAll(): void {
    for (const view of this.views) view.released = true;
    this.views.length = 0;
    for (let g = 0; g < this.groups; g++) {
      this.tables[g] = NO_ENTRIES;
      this.captured[g] = 1;
      this.versions[g]!++;
    }
    this.encoded.fill(undefined);
  }
}
