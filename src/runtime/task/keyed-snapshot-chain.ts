/**
 * The incremental chain of one operator subtask's keyed state: the shared
 * files (a full base, then deltas) that its latest checkpoint consists of,
 * and the decision whether the next checkpoint writes a delta or a new base.
 *
 * Snapshots of a chain are taken in checkpoint order; their files are
 * appended in the same order even when writes overlap (each waits for the
 * previous one). A failed write breaks the chain: a delta captured after it
 * cannot be used (its checkpoint is declined) and the next snapshot is a new
 * base. Deltas of aborted checkpoints stay in the chain (the storage keeps
 * their files while a later checkpoint references them).
 */
import type { SharedStateRef } from "../../checkpoint/types.ts";

/** Deltas after which the next snapshot is a new base, whatever their size (restore reads the whole chain). */
const MAX_DELTAS = 64;

/**
 * @example
 * ```ts
 * const chain = new KeyedSnapshotChain();
 * const type = chain.nextType();                       // "base": nothing written yet
 * const snap = backend.snapshot(7, type);
 * const refs = await chain.append(type, async () => storage.writeSharedState(7, uid, 0, await snap.serialize()));
 * ```
 */
export class KeyedSnapshotChain {
  private refs: readonly SharedStateRef[] = [];
  private baseSize = 0;
  private deltaSize = 0;
  private broken = false;
  private tail: Promise<unknown> = Promise.resolve();

  /**
   * What the next snapshot must be: a new base when there is no chain (or it
   * broke), when its deltas together outgrow the base or are too many (a
   * restore reads them all), or when half or more of the `entries` changed
   * (`changed` keys: such a delta, encoded in the synchronous part, would cost
   * more than a base); else a delta.
   */
  nextType(changed = 0, entries = Infinity): "base" | "delta" {
    if (this.refs.length === 0 || this.broken) return "base";
    if (changed * 2 >= entries) return "base";
    return this.deltaSize > this.baseSize || this.refs.length > MAX_DELTAS ? "base" : "delta";
  }

  /** Continues the chain of a restored checkpoint (the state was restored from exactly these files). */
  adopt(refs: readonly SharedStateRef[]): void {
    this.refs = refs;
    this.baseSize = refs[0]?.size ?? 0;
    this.deltaSize = refs.slice(1).reduce((n, r) => n + r.size, 0);
    this.broken = false;
  }

  /**
   * Writes the file of a snapshot of type `type` after every earlier append
   * finished, and resolves with the chain that ends with it. Rejects when
   * `write` fails, or for a delta when an earlier write failed.
   */
  append(type: "base" | "delta", write: () => Promise<SharedStateRef>): Promise<readonly SharedStateRef[]> {
    const result = this.tail.then(async () => {
      if (type === "delta" && this.broken) {
        throw new Error("an earlier incremental snapshot of this state failed to write; the next checkpoint writes a full one");
      }
      try {
        const ref = await write();
        if (type === "base") {
          this.refs = [ref];
          this.baseSize = ref.size;
          this.deltaSize = 0;
        } else {
          this.refs = [...this.refs, ref];
          this.deltaSize += ref.size;
        }
        this.broken = false;
        return this.refs;
      } catch (e) {
        this.broken = true;
        throw e;
      }
    });
    this.tail = result.catch(() => {});
    return result;
  }
}
