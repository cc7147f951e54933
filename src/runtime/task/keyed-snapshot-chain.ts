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
 *
 * When the deltas outgrow the base, the chain is rebased in the background,
 * as Flink's changelog backend materializes its state: the barrier that
 * finds it so takes a delta (written with its checkpoint, as usual) and a
 * full snapshot of the same moment ({@link KeyedSnapshotChain.materialize}),
 * which serializes beside the processing; the first append after it is
 * serialized writes it as that checkpoint's new base, and the chain becomes
 * that base and the deltas taken after its barrier. No checkpoint waits for
 * a whole base to be serialized; the one that writes it writes its bytes.
 * The base's file is written by the checkpoint that first references it (its
 * `checkpointId` is that checkpoint's, the state in it an earlier barrier's),
 * so the storage's cleanup treats it as any new base.
 */
import type { SharedStateRef } from "../../checkpoint/types.ts";
import type { KeyedStateBackend } from "../../state/keyed-state-backend.ts";
import type { StateSnapshot } from "../../state/state-snapshot.ts";

/** Deltas after which the next snapshot is a new base, whatever their size (restore reads the whole chain). */
const MAX_DELTAS = 64;

/** A full snapshot on its way to becoming the chain's next base. */
interface Materialization {
  /** The barrier it was taken at: the deltas of later barriers follow it. */
  readonly at: number;
  /** Its bytes once serialized. */
  bytes?: Uint8Array;
}

/**
 * @example
 * ```ts
 * const chain = new KeyedSnapshotChain();
 * // at barrier 7 (the synchronous part): the first snapshot of a chain is a base
 * const { keyed, shared } = chain.capture(7, backend, (bytes) => storage.writeSharedState(7, uid, 0, bytes));
 * const refs = await shared; // the files checkpoint 7 references: [base]
 * keyed.release();
 * ```
 */
export class KeyedSnapshotChain {
  private refs: readonly SharedStateRef[] = [];
  private baseSize = 0;
  private deltaSize = 0;
  private broken = false;
  private tail: Promise<unknown> = Promise.resolve();
  private materializing: Materialization | undefined;

  /**
   * The synchronous part of barrier `checkpointId` for `backend`'s keyed
   * state: takes the snapshot the chain needs ({@link nextType}; with a base
   * to {@link materialize} beside a delta when {@link wantsBase}) and queues
   * its file, written with `writeShared` once serialized ({@link append}).
   * `keyed` is the snapshot of the checkpoint (release it when done), `shared`
   * the chain that checkpoint references.
   */
  capture(
    checkpointId: number,
    backend: KeyedStateBackend,
    writeShared: (bytes: Uint8Array) => Promise<SharedStateRef>,
  ): { readonly keyed: StateSnapshot; readonly shared: Promise<readonly SharedStateRef[]> } {
    const type = this.nextType(backend.changedKeyCount(), backend.approximateEntries());
    let keyed: StateSnapshot;
    if (type === "delta" && this.wantsBase()) {
      const { delta, base } = backend.snapshotWithBase(checkpointId);
      this.materialize(checkpointId, base);
      keyed = delta;
    } else keyed = backend.snapshot(checkpointId, type);
    const shared = this.append(checkpointId, type, async () => writeShared(await keyed.serialize()), writeShared);
    return { keyed, shared };
  }

  /**
   * What the next snapshot must be: a new base when there is no chain (or it
   * broke), when its deltas are too many (a restore reads them all), or when
   * half or more of the `entries` changed (`changed` keys: such a delta,
   * encoded in the synchronous part, would cost more than a base); else a
   * delta (see {@link wantsBase} for a base taken beside it).
   */
  nextType(changed = 0, entries = Infinity): "base" | "delta" {
    if (this.refs.length === 0 || this.broken) return "base";
    if (changed * 2 >= entries) return "base";
    return this.refs.length > MAX_DELTAS ? "base" : "delta";
  }

  /** True when the deltas outgrew the base and no new base is on its way: a delta's barrier should also {@link materialize} one. */
  wantsBase(): boolean {
    return this.materializing === undefined && !this.broken && this.refs.length > 0 && this.deltaSize > this.baseSize;
  }

  /**
   * Serializes `base`, a full snapshot taken at barrier `at` beside that
   * barrier's delta, in the background, and releases it; the first append
   * after that writes it as the new base. A snapshot that fails to serialize
   * (released by a cancelled task) is dropped: a later barrier takes another.
   */
  materialize(at: number, base: StateSnapshot): void {
    const m: Materialization = { at };
    this.materializing = m;
    base
      .serialize()
      .then(
        (bytes) => {
          if (this.materializing === m) m.bytes = bytes;
        },
        () => {
          if (this.materializing === m) this.materializing = undefined;
        },
      )
      .finally(() => base.release());
  }

  /** Continues the chain of a restored checkpoint (the state was restored from exactly these files). */
  adopt(refs: readonly SharedStateRef[]): void {
    this.refs = refs;
    this.baseSize = refs[0]?.size ?? 0;
    this.deltaSize = refs.slice(1).reduce((n, r) => n + r.size, 0);
    this.broken = false;
    this.materializing = undefined;
  }

  /**
   * Writes the file of a snapshot of type `type`, taken at barrier
   * `checkpointId`, after every earlier append finished, and resolves with the
   * chain that ends with it. Before a delta, a materialized base is written
   * with `writeBase` (same checkpoint) and replaces the files up to its
   * barrier. Rejects when a write fails, or for a delta when an earlier write
   * failed.
   */
  append(
    checkpointId: number,
    type: "base" | "delta",
    write: () => Promise<SharedStateRef>,
    writeBase: (bytes: Uint8Array) => Promise<SharedStateRef>,
  ): Promise<readonly SharedStateRef[]> {
    const result = this.tail.then(async () => {
      if (type === "delta" && this.broken) {
        throw new Error("an earlier incremental snapshot of this state failed to write; the next checkpoint writes a full one");
      }
      try {
        if (type === "base") {
          this.materializing = undefined; // this base is newer
          const ref = await write();
          this.refs = [ref];
          this.baseSize = ref.size;
          this.deltaSize = 0;
        } else {
          const m = this.materializing;
          if (m?.bytes !== undefined && m.at < checkpointId) {
            this.materializing = undefined;
            const base = await writeBase(m.bytes);
            const after = this.refs.slice(1).filter((r) => r.checkpointId > m.at);
            this.refs = [base, ...after];
            this.baseSize = base.size;
            this.deltaSize = after.reduce((n, r) => n + r.size, 0);
          }
          const ref = await write();
          this.refs = [...this.refs, ref];
          this.deltaSize += ref.size;
        }
        this.broken = false;
        return this.refs;
      } catch (e) {
        this.broken = true;
        this.materializing = undefined;
        throw e;
      }
    });
    this.tail = result.catch(() => {});
    return result;
  }
}
