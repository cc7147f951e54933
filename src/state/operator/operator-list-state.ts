/** The list behind an operator (non-keyed) list state handle. */

import type { ListState } from "../state-handles.ts";

/** How a list state is redistributed when the parallelism changes. */
export type OperatorStateMode = "split" | "union";

/**
 * Operator list state: one list per subtask, held as a plain array (operator
 * snapshots copy it synchronously, so no copy-on-write is needed).
 */
export class OperatorListState<T> implements ListState<T> {
  /** The elements, in order. Replaced, never shared with callers. */
  elements: T[] = [];

  constructor(
    readonly name: string,
    readonly mode: OperatorStateMode,
  ) {}

  get(): T[] {
    return this.elements.slice();
  }
  add(v: T): void {
    this.elements.push(v);
  }
  addAll(vs: T[]): void {
    for (const v of vs) this.elements.push(v);
  }
  update(vs: T[]): void {
    this.elements = vs.slice();
  }
  clear(): void {
    this.elements = [];
  }
}
