/**
 * The asynchronous flush of the disk backend's checkpoints: the generations
 * of dirty cache entries frozen at barriers (write-back-cache.ts), written to
 * the store in checkpoint order, in slices of at most {@link FLUSH_SLICE}
 * writes per transaction, as many per turn of the event loop as fit in
 * {@link FLUSH_TURN_MS}, so the task keeps processing records meanwhile (as
 * RocksDB's memtable flush runs beside Flink's task thread).
 *
 * A generation's flush: remove the store's local-recovery marker (the
 * entries stop being exactly the marked snapshot), move the overlay of what
 * eviction wrote since that snapshot onto the entries, write the frozen
 * entries, and in the last transaction write the generation's marker. Right
 * after that transaction, before anything else can write to the store, the
 * generation is durable: its snapshot opens its read transaction there and
 * sees exactly the state at its barrier. Nothing else writes entries while a
 * generation waits: the backend evicts only entries whose value is in the
 * store then (each written slice makes its entries such, see
 * {@link WriteBackCache.written}), and anything that must read the whole
 * store (a scan) first {@link CheckpointFlush.drain}s.
 *
 * A failed write (a full disk) fails that generation and every later one
 * (their snapshots would miss its entries), and makes their entries dirty
 * again in the cache: nothing is lost, the next flush or eviction writes them.
 */

import type { DiskStore, LocalSnapshotId, StoreWrite } from "./disk-store.ts";
import type { CacheEntry, FrozenEntries, WriteBackCache } from "./write-back-cache.ts";
import { yieldToEventLoop } from "../../util/event-loop-turn.ts";

/** Store writes per transaction of a checkpoint's flush. */
export const FLUSH_SLICE = 4_096;

/**
 * Time a turn of the event loop gives the flush: slices until it is spent
 * (at least one). The sooner a generation is in the store, the sooner its
 * entries may be evicted, and the fewer of the keys dirtied after the barrier
 * the cache must evict dirty (to the overlay, written again by the next
 * flush) before the next generation cleans them: on the 1 M-key keyed count
 * (3 M records) one slice per turn sent 930 000 entries through the overlay,
 * 10 ms 540 000–1 070 000, 100 ms 490 000 (the synchronous flush of before:
 * 290 000–670 000, depending on the records per checkpoint). It is also the
 * longest pause the flush makes in the processing of records.
 */
const FLUSH_TURN_MS = 100;

/** One checkpoint's frozen entries on their way to the store. */
export interface FlushGeneration {
  readonly frozen: FrozenEntries;
  readonly marker: LocalSnapshotId;
  /** Called once the generation is in the store, in the same turn as its last transaction. */
  durable(): void;
  /** Called once when it cannot be written. */
  failed(error: unknown): void;
}

/**
 * The entries in ascending key-group order (a counting sort: O(n)). Key
 * groups lead the store's keys, so a slice of the sorted entries lands in a
 * few key groups' pages instead of pages all over the store: in a 1 M-key
 * store this halved the CPU of writing a generation in slices of
 * {@link FLUSH_SLICE} (each transaction copies every page it touches).
 */
function byKeyGroup(f: FrozenEntries): FrozenEntries {
  let last = 0;
  for (const e of f.entries) if (e.keyGroup > last) last = e.keyGroup;
  const starts = new Int32Array(last + 2);
  for (const e of f.entries) starts[e.keyGroup + 1]!++;
  for (let g = 1; g < starts.length; g++) starts[g]! += starts[g - 1]!;
  const entries = new Array<CacheEntry>(f.entries.length);
  const values = new Array<unknown>(f.entries.length);
  for (let i = 0; i < f.entries.length; i++) {
    const at = starts[f.entries[i]!.keyGroup]!++;
    entries[at] = f.entries[i]!;
    values[at] = f.values[i];
  }
  return { generation: f.generation, entries, values };
}

interface Pending {
  gen: FlushGeneration;
  /** 0: unmark and merge the overlay; 1: write the frozen entries (sorted by key group) from `next`. */
  phase: 0 | 1;
  next: number;
}

/**
 * The queue of generations being flushed.
 *
 * @example
 * ```ts
 * const flush = new CheckpointFlush(store, cache, (e, value) => [keyOf(e), encode(value)]);
 * flush.add({ frozen: cache.freeze(), marker, durable: () => openSnapshot(), failed: (e) => reject(e) });
 * flush.drain(); // only when the store must be complete now (a scan)
 * ```
 */
export class CheckpointFlush {
  private readonly queue: Pending[] = [];
  private pumping = false;
  private closed = false;

  /**
   * @param store the backend's store
   * @param cache the cache the generations were frozen from: told which entries are written, or not (a failed write)
   * @param toWrite the store write of a frozen entry with its value
   */
  constructor(
    private readonly store: DiskStore,
    private readonly cache: WriteBackCache,
    private readonly toWrite: (e: CacheEntry, value: unknown) => StoreWrite,
  ) {}

  /** Generations not yet durable. */
  get pending(): number {
    return this.queue.length;
  }

  /** The frozen entries of the generations not yet durable, oldest first (written or not: their values stay as frozen). */
  inFlight(): FrozenEntries[] {
    return this.queue.map((p) => p.gen.frozen);
  }

  /** Queues a generation behind the others and starts writing it in the background. */
  add(gen: FlushGeneration): void {
    if (this.closed) throw this.store.error("the store is closed (the backend was disposed)");
    this.queue.push({ gen, phase: 0, next: 0 });
    if (!this.pumping) void this.pump();
  }

  /** Writes every queued generation now, in this turn (they all become durable, or fail). */
  drain(): void {
    while (this.step());
  }

  /** Stops: generations not yet durable fail (the backend is disposed; their entries are dropped with it). */
  close(): void {
    this.closed = true;
    const left = this.queue.splice(0);
    for (const p of left) p.gen.failed(this.store.error("the backend was disposed while its checkpoint's flush was in flight"));
  }

  private async pump(): Promise<void> {
    this.pumping = true;
    try {
      for (;;) {
        await yieldToEventLoop(); // never in the caller's turn: that is the checkpoint's synchronous part
        const until = performance.now() + FLUSH_TURN_MS;
        let more = this.step();
        while (more && performance.now() < until) more = this.step();
        if (!more) break;
      }
    } finally {
      this.pumping = false;
    }
  }

  /** One slice of the first generation. False when the queue is empty. */
  private step(): boolean {
    const p = this.queue[0];
    if (p === undefined || this.closed) return false;
    const { frozen, marker } = p.gen;
    try {
      if (p.phase === 0) {
        this.store.unmark();
        if (this.store.mergeOverlaySlice(FLUSH_SLICE)) {
          p.phase = 1;
          p.gen = { ...p.gen, frozen: byKeyGroup(p.gen.frozen) };
        }
        return true;
      }
      const end = Math.min(p.next + FLUSH_SLICE, frozen.entries.length);
      const writes: StoreWrite[] = [];
      for (let i = p.next; i < end; i++) writes.push(this.toWrite(frozen.entries[i]!, frozen.values[i]));
      const last = end === frozen.entries.length;
      this.store.write(writes, last ? marker : undefined);
      this.cache.written(frozen, p.next, end);
      p.next = end;
      if (!last) return true;
      this.queue.shift();
      p.gen.durable();
    } catch (e) {
      const failed = this.queue.splice(0);
      for (const f of failed) this.cache.refreeze(f.gen.frozen, f.phase === 1 ? f.next : 0);
      for (const f of failed) f.gen.failed(e);
    }
    return this.queue.length > 0;
  }
}
