/**
 * A copy-on-write map from canonical key to state value, made of layers.
 *
 * The top layer is active: all writes go there. `capture()` freezes the active
 * layer (O(1): no entry is copied), pins it for the snapshot, and opens a new
 * empty active layer. Reads look from the top down; deletes over frozen layers
 * leave a tombstone. When a snapshot releases its pin, every unpinned frozen
 * layer is merged with the layer above it (copying the upper, usually small,
 * layer's entries down), so with no snapshot in flight there is one layer.
 *
 * Invariant that makes merging safe while other snapshots are serializing: a
 * snapshot's view is the layers from the bottom up to its pinned layer; a
 * layer is merged only when no view ends at it, so every view that contains it
 * also contains the layer above, and the union it sees does not change (the
 * upper layer's own map is left untouched for those views; its pins move to
 * the merged layer through `mergedInto`).
 */

const TOMBSTONE: unique symbol = Symbol("weir.tombstone");
type Slot<V> = V | typeof TOMBSTONE;

interface Layer<V> {
  readonly map: Map<string, Slot<V>>;
  /** Number of snapshot views whose top layer this is. */
  pins: number;
  /** Set when merged: the layer that now carries this layer's pins. */
  mergedInto?: Layer<V>;
}

/** A frozen, read-only view of a {@link LayeredMap}, captured by `capture()`. */
export interface LayerView<V> {
  /** Bottom first. Not to be modified. */
  readonly layers: readonly Layer<V>[];
  released: boolean;
}

/**
 * Copy-on-write layered map.
 *
 * @example
 * ```ts
 * const m = new LayeredMap<number>();
 * m.set("a", 1);
 * const view = m.capture();
 * m.set("a", 2);
 * [...m.viewEntries(view)]; // [["a", 1]]
 * m.release(view);          // m.layerCount() === 1
 * ```
 */
export class LayeredMap<V> {
  private layers: Layer<V>[] = [{ map: new Map(), pins: 0 }];
  private active: Map<string, Slot<V>> = this.layers[0]!.map;
  private copied = 0;

  /** The value for `k`, or undefined. Never stores undefined. */
  get(k: string): V | undefined {
    const v = this.active.get(k);
    if (v !== undefined || this.layers.length === 1) return v === TOMBSTONE ? undefined : v;
    for (let i = this.layers.length - 2; i >= 0; i--) {
      const w = this.layers[i]!.map.get(k);
      if (w !== undefined) return w === TOMBSTONE ? undefined : w;
    }
    return undefined;
  }

  /**
   * The value for `k` owned by the active layer, so the caller may mutate it in
   * place: a value found in a frozen layer is first copied with `copy` into the
   * active layer (copy-on-write).
   */
  getOwned(k: string, copy: (v: V) => V): V | undefined {
    const v = this.active.get(k);
    if (v !== undefined || this.layers.length === 1) return v === TOMBSTONE ? undefined : v;
    for (let i = this.layers.length - 2; i >= 0; i--) {
      const w = this.layers[i]!.map.get(k);
      if (w === TOMBSTONE) return undefined;
      if (w !== undefined) {
        const own = copy(w);
        this.active.set(k, own);
        this.copied++;
        return own;
      }
    }
    return undefined;
  }

  /** Sets `k` in the active layer; `undefined` deletes. */
  set(k: string, v: V | undefined): void {
    if (v === undefined) this.delete(k);
    else this.active.set(k, v);
  }

  delete(k: string): void {
    if (this.layers.length === 1) this.active.delete(k);
    else this.active.set(k, TOMBSTONE);
  }

  /** Captures the current content in O(1) and pins it until {@link release}. */
  capture(): LayerView<V> {
    const top = this.layers[this.layers.length - 1]!;
    top.pins++;
    const view: LayerView<V> = { layers: this.layers.slice(), released: false };
    const next: Layer<V> = { map: new Map(), pins: 0 };
    this.layers.push(next);
    this.active = next.map;
    return view;
  }

  /** Unpins a view (idempotent) and merges the layers no view needs any more. */
  release(view: LayerView<V>): void {
    if (view.released) return;
    view.released = true;
    let top = view.layers[view.layers.length - 1]!;
    while (top.mergedInto !== undefined) top = top.mergedInto;
    top.pins--;
    this.compact();
  }

  private compact(): void {
    let i = 0;
    while (i < this.layers.length - 1) {
      const lower = this.layers[i]!;
      if (lower.pins > 0) {
        i++;
        continue;
      }
      const upper = this.layers[i + 1]!;
      for (const [k, v] of upper.map) {
        if (v === TOMBSTONE && i === 0) lower.map.delete(k);
        else lower.map.set(k, v);
        this.copied++;
      }
      lower.pins = upper.pins;
      upper.mergedInto = lower;
      this.layers.splice(i + 1, 1);
    }
    this.active = this.layers[this.layers.length - 1]!.map;
  }

  /** The live entries (union of all layers, top wins, no tombstones). */
  entries(): IterableIterator<[string, V]> {
    return unionOf(this.layers);
  }

  /** The entries a captured view sees. Lazy: safe to consume across event-loop turns. */
  viewEntries(view: LayerView<V>): IterableIterator<[string, V]> {
    return unionOf(view.layers);
  }

  /** Number of layers (1 when no snapshot holds a view). */
  layerCount(): number {
    return this.layers.length;
  }

  /** Entries copied so far by copy-on-write and by merges (never by `capture`). */
  copiedEntries(): number {
    return this.copied;
  }

  /** Drops all content; outstanding views keep what they captured. */
  clearAll(): void {
    this.layers = [{ map: new Map(), pins: 0 }];
    this.active = this.layers[0]!.map;
  }
}

function* unionOf<V>(layers: readonly Layer<V>[]): Generator<[string, V]> {
  for (let i = layers.length - 1; i >= 0; i--) {
    for (const [k, v] of layers[i]!.map) {
      let shadowed = false;
      for (let j = i + 1; j < layers.length && !shadowed; j++) shadowed = layers[j]!.map.has(k);
      if (!shadowed && v !== TOMBSTONE) yield [k, v];
    }
  }
}
