/**
 * State scoped to a key and a window (Flink's namespaced state), for triggers
 * and for `ProcessWindowFunction`'s `windowState()`: one MapState per key whose
 * entries are `windowId|stateName`. Handles refer to the window currently set
 * with {@link WindowScopedState.setWindow}, as Flink's namespaced state does.
 */
import type { HeapKeyedStateBackend, MapState, ReducingState, ReducingStateDescriptor, ValueState, ValueStateDescriptor } from "../../state/index.ts";
import { MapStateDescriptor } from "../../state/index.ts";
import type { WindowStateStore } from "./trigger.ts";

export class WindowScopedState implements WindowStateStore {
  private readonly map: MapState<string, unknown>;
  private wid = "";

  /** @param name the keyed state holding it (unique in the operator) */
  constructor(backend: HeapKeyedStateBackend, name: string) {
    this.map = backend.getMapState(new MapStateDescriptor<string, unknown>(name));
  }

  /** Sets the window the handles refer to. */
  setWindow(wid: string): void {
    this.wid = wid;
  }

  getPartitionedState<T>(d: ValueStateDescriptor<T>): ValueState<T> {
    const entry = () => `${this.wid}|${d.name}`;
    return {
      value: () => (this.map.get(entry()) as T | undefined) ?? d.defaultValue,
      update: (v) => (v === undefined ? this.map.remove(entry()) : this.map.put(entry(), v)),
      clear: () => this.map.remove(entry()),
    };
  }

  getReducingState<T>(d: ReducingStateDescriptor<T>): ReducingState<T> {
    const entry = () => `${this.wid}|${d.name}`;
    return {
      get: () => this.map.get(entry()) as T | undefined,
      add: (v) => {
        const cur = this.map.get(entry()) as T | undefined;
        this.map.put(entry(), cur === undefined ? v : d.reduce(cur, v));
      },
      clear: () => this.map.remove(entry()),
    };
  }

  /** Folds the reducing state `d` of the `sources` windows into the current window's (and removes theirs). */
  mergeReducing<T>(d: ReducingStateDescriptor<T>, sources: readonly string[]): void {
    const target = this.getReducingState(d);
    for (const s of sources) {
      const entry = `${s}|${d.name}`;
      const v = this.map.get(entry) as T | undefined;
      if (v === undefined) continue;
      target.add(v);
      this.map.remove(entry);
    }
  }

  /** Removes every state of window `wid` of the current key. */
  clearWindow(wid: string): void {
    const prefix = `${wid}|`;
    const doomed = [...this.map.keys()].filter((k) => k.startsWith(prefix));
    for (const k of doomed) this.map.remove(k);
  }
}
