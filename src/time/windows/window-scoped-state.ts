/**
 * State scoped to a key and a window (Flink's namespaced state), for triggers
 * and for `ProcessWindowFunction`'s `windowState()`: one MapState per key whose
 * entries are `namespace|stateName`. Handles refer to the window currently set
 * with {@link WindowScopedState.setWindow}, as Flink's namespaced state does.
 */
import type { KeyedStateBackend, MapState, ReducingState, ReducingStateDescriptor, ValueState, ValueStateDescriptor } from "../../state/index.ts";
import { MapStateDescriptor } from "../../state/index.ts";
import type { WindowStateStore } from "./trigger.ts";
import type { WindowNamespace } from "./window-namespaces.ts";
import { refuseTtl } from "../../state/ttl/refuse-ttl.ts";

export class WindowScopedState implements WindowStateStore {
  private readonly map: MapState<string, unknown>;
  private ns: WindowNamespace = "";
  /** Handles by state name (one per name, whatever the window). */
  private readonly handles = new Map<string, ValueState<unknown> | ReducingState<unknown>>();
  /** False while no state of this store can exist: nothing to clear. */
  private used: boolean;

  /** @param name the keyed state holding it (unique in the operator) */
  constructor(
    backend: KeyedStateBackend,
    private readonly name: string,
  ) {
    this.map = backend.getMapState(new MapStateDescriptor<string, unknown>(name));
    this.used = !backend.entriesOf(name).next().done; // restored state
  }

  /** Sets the window the handles refer to. */
  setWindow(ns: WindowNamespace): void {
    this.ns = ns;
  }

  getPartitionedState<T>(d: ValueStateDescriptor<T>): ValueState<T> {
    refuseTtl(d, `window state '${d.name}' (in '${this.name}')`);
    const existing = this.handles.get(d.name);
    if (existing !== undefined) return existing as ValueState<T>;
    this.used = true;
    const entry = () => `${this.ns}|${d.name}`;
    const handle: ValueState<T> = {
      value: () => (this.map.get(entry()) as T | undefined) ?? d.defaultValue,
      update: (v) => (v === undefined ? this.map.remove(entry()) : this.map.put(entry(), v)),
      clear: () => this.map.remove(entry()),
    };
    this.handles.set(d.name, handle as ValueState<unknown>);
    return handle;
  }

  getReducingState<T>(d: ReducingStateDescriptor<T>): ReducingState<T> {
    refuseTtl(d, `window state '${d.name}' (in '${this.name}')`);
    const existing = this.handles.get(d.name);
    if (existing !== undefined) return existing as ReducingState<T>;
    this.used = true;
    const entry = () => `${this.ns}|${d.name}`;
    const handle: ReducingState<T> = {
      get: () => this.map.get(entry()) as T | undefined,
      add: (v) => {
        const cur = this.map.get(entry()) as T | undefined;
        this.map.put(entry(), cur === undefined ? v : d.reduce(cur, v));
      },
      clear: () => this.map.remove(entry()),
    };
    this.handles.set(d.name, handle as ReducingState<unknown>);
    return handle;
  }

  /** Folds the reducing state `d` of the `sources` windows into the current window's (and removes theirs). */
  mergeReducing<T>(d: ReducingStateDescriptor<T>, sources: readonly WindowNamespace[]): void {
    const target = this.getReducingState(d);
    for (const s of sources) {
      const entry = `${s}|${d.name}`;
      const v = this.map.get(entry) as T | undefined;
      if (v === undefined) continue;
      target.add(v);
      this.map.remove(entry);
    }
  }

  /** Removes every state of window `ns` of the current key. */
  clearWindow(ns: WindowNamespace): void {
    if (!this.used || this.map.isEmpty()) return;
    const prefix = `${ns}|`;
    const doomed = [...this.map.keys()].filter((k) => k.startsWith(prefix));
    for (const k of doomed) this.map.remove(k);
  }
}
