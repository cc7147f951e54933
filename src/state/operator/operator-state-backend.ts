/**
 * Operator (non-keyed) state: list states per subtask, split or unioned when
 * the parallelism changes (Flink's `OperatorStateBackend`).
 */

import type { ListStateDescriptor } from "../descriptors.ts";
import { refuseTtl } from "../ttl/refuse-ttl.ts";
import { StateKindMismatchError } from "../errors.ts";
import type { ListState } from "../state-handles.ts";
import type { StateSnapshot } from "../state-snapshot.ts";
import { OperatorListState, type OperatorStateMode } from "./operator-list-state.ts";
import { decodeOperatorSnapshot, encodeOperatorSnapshot } from "./operator-snapshot-format.ts";

const modeName = (m: OperatorStateMode): string => (m === "split" ? "split-list" : "union-list");

/**
 * Operator list states of one operator subtask.
 *
 * @example
 * ```ts
 * const ops = new OperatorStateBackend({ operatorUid: "kafka-source" });
 * const offsets = ops.getListState(new ListStateDescriptor<number>("offsets"));
 * offsets.update([42]);
 * const bytes = await ops.snapshot(1).serialize();
 * const next = new OperatorStateBackend({ operatorUid: "kafka-source" });
 * next.restore(redistributeOperatorState([bytes], 1)[0]!);
 * ```
 */
export class OperatorStateBackend {
  private readonly operatorUid: string;
  private readonly states = new Map<string, OperatorListState<unknown>>();

  constructor(opts: { operatorUid: string }) {
    this.operatorUid = opts.operatorUid;
  }

  private state(name: string, mode: OperatorStateMode): OperatorListState<unknown> {
    const existing = this.states.get(name);
    if (existing !== undefined) {
      if (existing.mode !== mode) throw new StateKindMismatchError(this.operatorUid, name, modeName(existing.mode), modeName(mode));
      return existing;
    }
    const created = new OperatorListState<unknown>(name, mode);
    this.states.set(name, created);
    return created;
  }

  /** A list state split between subtasks on rescale (contiguous parts of the concatenated lists). */
  getListState<T>(d: ListStateDescriptor<T>): ListState<T> {
    refuseTtl(d, `operator list state '${d.name}' in operator '${this.operatorUid}'`);
    return this.state(d.name, "split") as OperatorListState<T>;
  }

  /** A list state of which every subtask gets the union of all subtasks' lists on restore. */
  getUnionListState<T>(d: ListStateDescriptor<T>): ListState<T> {
    refuseTtl(d, `operator union list state '${d.name}' in operator '${this.operatorUid}'`);
    return this.state(d.name, "union") as OperatorListState<T>;
  }

  /**
   * Captures and encodes the lists synchronously (operator state is small), so
   * later writes cannot reach the snapshot. An encoding error surfaces as the
   * rejection of `serialize()`.
   */
  snapshot(checkpointId: number): StateSnapshot {
    let result: Promise<Uint8Array>;
    try {
      const states = [...this.states.values()].map((s) => ({ name: s.name, mode: s.mode, elements: s.elements }));
      result = Promise.resolve(encodeOperatorSnapshot(this.operatorUid, checkpointId, states));
    } catch (e) {
      result = Promise.reject(e instanceof Error ? e : new Error(String(e)));
      result.catch(() => undefined); // rejection is reported through serialize()
    }
    return { serialize: () => result, release: () => undefined };
  }

  /**
   * Restores from the blobs `redistributeOperatorState` assigned to this
   * subtask: their lists are appended to the lists of the same name.
   *
   * @throws StateRestoreError on a corrupt blob
   * @throws StateKindMismatchError when a name was split-list in the blob and union-list here, or vice versa
   */
  restore(blobs: readonly Uint8Array[]): void {
    blobs.forEach((bytes, index) => {
      const decoded = decodeOperatorSnapshot(bytes, index, this.operatorUid);
      for (const s of decoded.states) this.state(s.name, s.mode).addAll(s.elements as unknown[]);
    });
  }
}
