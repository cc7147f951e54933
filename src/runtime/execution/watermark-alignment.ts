/**
 * Watermark alignment on the job master's side (Flink's FLIP-182): the source
 * subtasks of an alignment group report their watermarks, and the job master
 * announces the group's lowest to every task manager whenever it changes. Each
 * source subtask then reads only while its own watermark is at most its
 * allowed drift ahead of that lowest one (see `task/source-alignment.ts`).
 * A subtask that reached the end of its input leaves its group, so a bounded
 * source that finished first holds nobody back.
 */

/**
 * @example
 * ```ts
 * const alignment = new WatermarkAlignment();
 * alignment.report("bids", "src#0", 5_000); // 5 000: the group's lowest is new
 * alignment.report("bids", "src#1", 2_000); // 2 000
 * alignment.report("bids", "src#1", 9_000); // 5 000
 * alignment.leave("src#0");                 // [["bids", 9 000]]
 * ```
 */
export class WatermarkAlignment {
  /** Per group: each reporting subtask's last watermark, and the lowest of them last announced. */
  private readonly groups = new Map<string, { readonly watermarks: Map<string, number>; min: number }>();

  /** Subtask `taskId` of `group` is at `watermark`: returns the group's lowest watermark if that changed. */
  report(group: string, taskId: string, watermark: number): number | undefined {
    let g = this.groups.get(group);
    if (g === undefined) this.groups.set(group, (g = { watermarks: new Map(), min: Number.NaN }));
    g.watermarks.set(taskId, watermark);
    return this.lowest(g);
  }

  /** Subtask `taskId` has no more input: it leaves its group; returns each group whose lowest watermark changed. */
  leave(taskId: string): [group: string, minWatermark: number][] {
    const changed: [string, number][] = [];
    for (const [group, g] of this.groups) {
      if (!g.watermarks.delete(taskId)) continue;
      const min = this.lowest(g);
      if (min !== undefined) changed.push([group, min]);
    }
    return changed;
  }

  private lowest(g: { readonly watermarks: Map<string, number>; min: number }): number | undefined {
    let min = Number.POSITIVE_INFINITY;
    for (const w of g.watermarks.values()) if (w < min) min = w;
    if (min === g.min) return undefined;
    g.min = min;
    return min;
  }
}
