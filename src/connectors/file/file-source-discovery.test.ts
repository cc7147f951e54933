import { describe, expect, it } from "vitest";
import { planDiscovery } from "./file-source-discovery.ts";
import { bucketOf, initialSplits, type DiscoverySplit } from "./file-source-split.ts";

const files = Array.from({ length: 40 }, (_, i) => `in/part-${String(i).padStart(2, "0")}.jsonl`);

describe("planDiscovery", () => {
  it("gives every file to exactly one of the buckets, in listing order", () => {
    const taken = initialSplits(3).map((b) => planDiscovery(files, [b]).newSplits.map((s) => s.path));
    expect(taken.flat().sort()).toEqual(files);
    taken.forEach((paths, i) => expect(paths.every((p) => bucketOf(p, 3) === i)).toBe(true));
    expect(taken.every((t) => t.length > 0)).toBe(true);
  });

  it("does not take a known file again, remembers new ones, and forgets files no longer listed", () => {
    const first = planDiscovery(files.slice(0, 20), initialSplits(1));
    expect(first.newSplits).toHaveLength(20);
    const second = planDiscovery(files.slice(10, 30), first.buckets);
    expect(second.newSplits.map((s) => s.path)).toEqual(files.slice(20, 30));
    expect(second.buckets[0]!.known).toEqual(files.slice(10, 30));
    expect(second.buckets[0]!.scanned).toBe(true);
  });

  it("keeps each bucket's files with whichever reader holds the bucket after a rescale", () => {
    const buckets: DiscoverySplit[] = initialSplits(2).map((b) => planDiscovery(files.slice(0, 30), [b]).buckets[0]!);
    // after scaling 2 -> 1 a reader holds both buckets: nothing old is taken again, only new files
    const merged = planDiscovery(files, buckets);
    expect(merged.newSplits.map((s) => s.path)).toEqual(files.slice(30));
  });
});
