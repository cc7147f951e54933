/**
 * The broadcast state of an operator (Flink's `BroadcastState`): one map per
 * descriptor given to `broadcast(...)`, the same on every parallel subtask
 * because every subtask applies the same broadcast records. It is checkpointed
 * as operator union list state of `[subtask, state, key, value]` entries, so on
 * restore (at any parallelism) every subtask gets all subtasks' copies and
 * keeps one of them: the copy of the lowest old subtask.
 */
import type { BroadcastState, ReadOnlyBroadcastState } from "../../core/broadcast-process-function.ts";
import { ListStateDescriptor, type ListState, type MapStateDescriptor, type OperatorStateBackend } from "../../state/index.ts";
import { refuseTtl } from "../../state/ttl/refuse-ttl.ts";

/** One entry of the checkpointed broadcast state: written by `subtask`, of the state named `state`. */
export type BroadcastEntry = [subtask: number, state: string, key: unknown, value: unknown];

/** A broadcast state was asked for that the broadcast stream does not declare. */
export class UnknownBroadcastStateError extends Error {
  override name = "UnknownBroadcastStateError";
  constructor(operatorUid: string, stateName: string, declared: readonly string[]) {
    super(
      `operator '${operatorUid}': no broadcast state '${stateName}'; ` +
        `declare its MapStateDescriptor in broadcast(...) (declared: ${declared.map((d) => `'${d}'`).join(", ") || "none"})`,
    );
  }
}

/** Name of the union list state holding the broadcast state. */
const UNION_STATE = "_broadcast-state";

/**
 * The maps to restore from a union of every old subtask's entries: those
 * written by the lowest subtask present (all copies are equal; taking one
 * avoids duplicates and keeps a map deleted on every copy deleted).
 */
export function pickBroadcastCopy(entries: readonly BroadcastEntry[]): Map<string, Map<unknown, unknown>> {
  let owner = Number.POSITIVE_INFINITY;
  for (const [subtask] of entries) if (subtask < owner) owner = subtask;
  const maps = new Map<string, Map<unknown, unknown>>();
  for (const [subtask, state, key, value] of entries) {
    if (subtask !== owner) continue;
    let m = maps.get(state);
    if (!m) maps.set(state, (m = new Map()));
    m.set(key, value);
  }
  return maps;
}

/** The broadcast states of one operator subtask. */
export class BroadcastStateStore {
  private readonly maps = new Map<string, Map<unknown, unknown>>();
  private readonly union: ListState<BroadcastEntry>;

  /** Restores the maps from the operator state when it was restored. */
  constructor(
    private readonly operatorUid: string,
    private readonly subtaskIndex: number,
    operatorState: OperatorStateBackend,
    descriptors: readonly MapStateDescriptor<unknown, unknown>[],
  ) {
    this.union = operatorState.getUnionListState(new ListStateDescriptor<BroadcastEntry>(UNION_STATE));
    const restored = pickBroadcastCopy(this.union.get());
    for (const d of descriptors) {
      refuseTtl(d, `broadcast state '${d.name}' in operator '${operatorUid}'`);
      this.maps.set(d.name, restored.get(d.name) ?? new Map());
    }
  }

  /** The writable state of `descriptor` (for the broadcast side). */
  writable<K, V>(descriptor: MapStateDescriptor<K, V>): BroadcastState<K, V> {
    const m = this.map(descriptor.name) as Map<K, V>;
    return {
      ...readOnly(m),
      put: (k, v) => void m.set(k, v),
      putAll: (entries) => {
        for (const [k, v] of entries) m.set(k, v);
      },
      remove: (k) => void m.delete(k),
      clear: () => m.clear(),
    };
  }

  /** The read-only view of `descriptor` (for the other side). */
  readOnly<K, V>(descriptor: MapStateDescriptor<K, V>): ReadOnlyBroadcastState<K, V> {
    return readOnly(this.map(descriptor.name) as Map<K, V>);
  }

  /** Writes the maps into the union list state (call from the operator's `snapshotState`). */
  snapshot(): void {
    const entries: BroadcastEntry[] = [];
    for (const [state, m] of this.maps) for (const [k, v] of m) entries.push([this.subtaskIndex, state, k, v]);
    this.union.update(entries);
  }

  private map(name: string): Map<unknown, unknown> {
    const m = this.maps.get(name);
    if (!m) throw new UnknownBroadcastStateError(this.operatorUid, name, [...this.maps.keys()]);
    return m;
  }
}

function readOnly<K, V>(m: Map<K, V>): ReadOnlyBroadcastState<K, V> {
  return {
    get: (k) => m.get(k),
    contains: (k) => m.has(k),
    entries: () => m.entries(),
    keys: () => m.keys(),
    values: () => m.values(),
    isEmpty: () => m.size === 0,
  };
}
