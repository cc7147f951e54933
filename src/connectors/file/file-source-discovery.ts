/**
 * Which newly listed files a reader takes. Pure: the listing comes in, the
 * decision and the updated buckets come out.
 */

import { bucketOf, newFileSplit, type DiscoverySplit, type FileSplit } from "./file-source-split.ts";

/** What one listing of the input path means for a reader's buckets. */
export interface DiscoveryPlan {
  /** Files to read, in listing order (sorted). */
  readonly newSplits: FileSplit[];
  /** The buckets with `known` updated and `scanned` set. */
  readonly buckets: DiscoverySplit[];
}

/**
 * Takes, from `listed` (sorted paths), the files that fall into one of the
 * reader's `buckets` and that the bucket has not taken before. Each bucket's
 * `known` set becomes the files it has taken that are still listed, so the
 * state does not grow with files deleted after being read.
 *
 * @example
 * ```ts
 * const plan = planDiscovery(["in/a", "in/b"], [{ kind: "discovery", bucket: 0, buckets: 1, known: ["in/a"], scanned: true }]);
 * plan.newSplits.map((s) => s.path); // ["in/b"]
 * ```
 */
export function planDiscovery(listed: readonly string[], buckets: readonly DiscoverySplit[]): DiscoveryPlan {
  const next = buckets.map((b) => ({ split: b, before: new Set(b.known), known: [] as string[] }));
  const newSplits: FileSplit[] = [];
  for (const path of listed) {
    for (const n of next) {
      if (bucketOf(path, n.split.buckets) !== n.split.bucket) continue;
      n.known.push(path);
      if (!n.before.has(path)) newSplits.push(newFileSplit(path));
      break;
    }
  }
  return {
    newSplits,
    buckets: next.map((n) => ({ ...n.split, known: n.known, scanned: true })),
  };
}
