/**
 * Watermark alignment on the job master's side (Flink's FLIP-182): the source
 * subtasks of an alignment group report their watermarks, and the job master
 * announces the group's two lowest to every task manager whenever they change.
 * It knows each group's subtasks from the start (from the job's plan): one
 * that has not reported yet is at -Infinity, so the others wait for it (a
 * worker thread or task manager that starts late, a restore) instead of
 * running ahead before it is heard of.
 * Each source subtask then reads only while its own watermark is at most its
 * allowed drift ahead of the lowest of the *other* subtasks (see
 * `task/source-alignment.ts`): the subtask that holds the lowest is never held
 * back by its own report, which is older than its watermark (one alone in its
 * group never pauses). A subtask that reached the end of its input leaves its
 * group, so a bounded source that finished first holds nobody back.
 */

import type { GroupLowest } from "../task/source-alignment.ts";

/**
 * @example
 * ```ts
 * const alignment = new WatermarkAlignment(new Map([["bids", ["src#0", "src#1"]]]));
 * alignment.report("bids", "src#0", 5_000); // { lowest: -Infinity, lowestTask: "src#1", second: 5000 }
 * alignment.report("bids", "src#1", 2_000); // { lowest: 2000, lowestTask: "src#1", second: 5000 }
 * alignment.leave("src#1");                 // [["bids", { lowest: 5000, lowestTask: "src#0", second: Infinity }]]
 * ```
 */
export class WatermarkAlignment {
  /** Per group: each reporting subtask's last watermark, and what was last announced. */
  private readonly groups = new Map<string, { readonly watermarks: Map<string, number>; last: GroupLowest | undefined }>();

  /** @param members the source subtasks (task ids) of each alignment group */
  constructor(members: ReadonlyMap<string, readonly string[]> = new Map()) {
    for (const [group, tasks] of members) this.groups.set(group, { watermarks: new Map(tasks.map((t) => [t, Number.NEGATIVE_INFINITY])), last: undefined });
  }

  /** Subtask `taskId` of `group` is at `watermark`: returns the group's lowest watermarks if they changed. */
  report(group: string, taskId: string, watermark: number): GroupLowest | undefined {
    let g = this.groups.get(group);
    if (g === undefined) this.groups.set(group, (g = { watermarks: new Map(), last: undefined }));
    g.watermarks.set(taskId, watermark);
    return this.changed(g);
  }

  /** Subtask `taskId` has no more input: it leaves its groups; returns each group whose lowest watermarks changed. */
  leave(taskId: string): [group: string, lowest: GroupLowest][] {
    const changed: [string, GroupLowest][] = [];
    for (const [group, g] of this.groups) {
      if (!g.watermarks.delete(taskId)) continue;
      const lowest = this.changed(g);
      if (lowest !== undefined) changed.push([group, lowest]);
    }
    return changed;
  }

  private changed(g: { readonly watermarks: Map<string, number>; last: GroupLowest | undefined }): GroupLowest | undefined {
    let lowest = Number.POSITIVE_INFINITY;
    let lowestTask = "";
    let second = Number.POSITIVE_INFINITY;
    for (const [task, w] of g.watermarks) {
      if (lowestTask === "" || w < lowest) {
        second = lowest;
        lowest = w;
        lowestTask = task;
      } else if (w < second) second = w;
    }
    const last = g.last;
    if (last !== undefined && last.lowest === lowest && last.lowestTask === lowestTask && last.second === second) return undefined;
    return (g.last = { lowest, lowestTask, second });
  }
}
