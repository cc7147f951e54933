/**
 * The windows of one key in a window operator's state: their namespaces and
 * contents in two parallel arrays (plain data, for snapshots). A key has few
 * windows in flight, so they are searched rather than hashed: numeric
 * namespaces (window starts) are kept in ascending order and found by binary
 * search, which compares numbers without boxing them (a start in milliseconds
 * since the epoch is no small integer, and a Map lookup with it allocates);
 * window ids are searched linearly.
 */
import type { WindowNamespace } from "./window-namespaces.ts";

/** Namespaces and the contents of each window, index for index. */
export type WindowTable<S> = [namespaces: WindowNamespace[], slots: S[]];

/** The index of window `ns` in `table`, or -1. */
export function indexOfWindow<S>(table: WindowTable<S>, ns: WindowNamespace): number {
  return typeof ns === "number" ? indexOfStart(table[0] as number[], ns) : table[0].indexOf(ns);
}

/** The index of the window starting at `start` among `starts` (ascending), or -1: small enough to be inlined, so `start` stays unboxed. */
export function indexOfStart(starts: readonly number[], start: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const x = starts[mid]!;
    if (x === start) return mid;
    if (x < start) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

/** Adds window `ns` (not in `table`), numeric namespaces in ascending order. */
export function insertWindow<S>(table: WindowTable<S>, ns: WindowNamespace, slot: S): void {
  const [namespaces, slots] = table;
  let at = namespaces.length;
  namespaces.push(ns);
  slots.push(slot);
  if (typeof ns !== "number") return;
  for (; at > 0 && (namespaces[at - 1] as number) > ns; at--) {
    // new windows are mostly the latest: rarely moves anything (no splice: it allocates)
    namespaces[at] = namespaces[at - 1]!;
    slots[at] = slots[at - 1]!;
  }
  namespaces[at] = ns;
  slots[at] = slot;
}

/** Removes the window at `index`. */
export function removeWindowAt<S>(table: WindowTable<S>, index: number): void {
  const [namespaces, slots] = table;
  if (index === 0) {
    // the earliest window, the one that usually ends first: no elements moved (V8 trims the array's start)
    namespaces.shift();
    slots.shift();
    return;
  }
  for (let i = index + 1; i < namespaces.length; i++) {
    namespaces[i - 1] = namespaces[i]!;
    slots[i - 1] = slots[i]!;
  }
  namespaces.pop();
  slots.pop();
}
