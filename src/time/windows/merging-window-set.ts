/**
 * The session windows of one key and the window holding each one's state
 * (Flink's MergingWindowSet). When windows merge, the merged window keeps the
 * state window of one of them, so state is moved only from the others. The
 * mapping is keyed state (a list of [window id, state window id]).
 */
import type { ValueState } from "../../state/index.ts";
import type { MergingWindowAssigner } from "./window-assigner.ts";
import { windowFromId, type Window } from "./window.ts";

/** Called when windows merged: `mergeResult` replaces `mergedWindows`, whose state windows `mergedStateWindows` go into `stateWindowResult`. */
export type MergeFunction<W> = (mergeResult: W, mergedWindows: W[], stateWindowResult: W, mergedStateWindows: W[]) => void;

export class MergingWindowSet<W extends Window> {
  /** window id → state window id */
  private readonly mapping: Map<string, string>;
  private readonly initial: string;

  /** Loads the current key's windows from `state`. */
  constructor(
    private readonly assigner: MergingWindowAssigner<unknown, W>,
    private readonly state: ValueState<[string, string][]>,
  ) {
    const stored = state.value() ?? [];
    this.mapping = new Map(stored);
    this.initial = JSON.stringify(stored);
  }

  /** The window whose state holds `window`'s contents, or undefined if `window` is not in flight. */
  getStateWindow(window: W): W | undefined {
    const s = this.mapping.get(window.id());
    return s === undefined ? undefined : (windowFromId(s) as W);
  }

  /** Removes a window that was purged and will not be used again. */
  retireWindow(window: W): void {
    if (!this.mapping.delete(window.id())) throw new Error(`window ${String(window)} is not in the in-flight window set`);
  }

  /**
   * Adds `newWindow`, merging it with the windows it overlaps; returns the
   * window it ended up in (itself, or the merge result).
   */
  addWindow(newWindow: W, merge: MergeFunction<W>): W {
    const windows = [...this.mapping.keys()].map((id) => windowFromId(id) as W);
    windows.push(newWindow);
    const results: { result: W; merged: W[] }[] = [];
    this.assigner.mergeWindows(windows, (toBeMerged, result) => results.push({ result, merged: [...toBeMerged] }));
    const newId = newWindow.id();
    let resultWindow = newWindow;
    let mergedNewWindow = false;
    for (const { result, merged } of results) {
      // the new window never had state: take it out (once: an equal window may already be in flight)
      const at = merged.findIndex((w) => w.id() === newId);
      const withoutNew = at < 0 ? merged : [...merged.slice(0, at), ...merged.slice(at + 1)];
      if (at >= 0) {
        mergedNewWindow = true;
        resultWindow = result;
      }
      const stateWindowId = this.mapping.get(withoutNew[0]!.id())!;
      const mergedStateIds: string[] = [];
      for (const w of withoutNew) {
        const s = this.mapping.get(w.id());
        this.mapping.delete(w.id());
        if (s !== undefined && s !== stateWindowId) mergedStateIds.push(s);
      }
      this.mapping.set(result.id(), stateWindowId);
      // merging one existing window into itself without extending it changes nothing
      if (!(withoutNew.length === 1 && withoutNew[0]!.id() === result.id())) {
        merge(result, withoutNew, windowFromId(stateWindowId) as W, mergedStateIds.map((id) => windowFromId(id) as W));
      }
    }
    if (results.length === 0 || (resultWindow === newWindow && !mergedNewWindow)) this.mapping.set(newId, newId);
    return resultWindow;
  }

  /** Writes the mapping back to keyed state if it changed. */
  persist(): void {
    const entries = [...this.mapping.entries()];
    if (JSON.stringify(entries) === this.initial) return;
    this.state.update(entries.length > 0 ? entries : (undefined as unknown as [string, string][]));
  }
}
