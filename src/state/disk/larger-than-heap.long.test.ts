/**
 * State larger than the heap: a process whose V8 heap is limited to 48 MB
 * keeps 5× that much keyed state in a disk backend (with the default-sized
 * cache scaled down), checkpoints it (a full snapshot) and restores it into
 * another disk backend, reading the values back.
 */
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { tempDirs } from "../../../test/support/temp-dirs.ts";

const dirs = tempDirs("weir-disk-big-");
const HEAP_MB = 48;

describe("disk backend state larger than the heap", () => {
  it(`keeps, snapshots and restores ${HEAP_MB * 5} MB of state in a process with a ${HEAP_MB} MB heap`, () => {
    const child = spawnSync(
      process.execPath,
      [`--max-old-space-size=${HEAP_MB}`, "--import", "tsx", "test/fixtures/disk-state-larger-than-heap.ts", dirs(), String(HEAP_MB * 5)],
      { encoding: "utf8", timeout: 240_000 },
    );
    expect(child.status, child.stderr).toBe(0);
    const { blobBytes, storeBytes, maxHeap } = JSON.parse(child.stdout.trim()) as { blobBytes: number; storeBytes: number; maxHeap: number };
    expect(blobBytes).toBeGreaterThanOrEqual(HEAP_MB * 5 * 1e6);
    expect(storeBytes).toBeGreaterThanOrEqual(HEAP_MB * 5 * 1e6);
    expect(maxHeap).toBeLessThan(HEAP_MB * 1024 * 1024);
  }, 300_000);
});
