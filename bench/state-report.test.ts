import { describe, expect, it } from "vitest";
import type { CompletedCheckpoint, OperatorSubtaskState } from "../src/checkpoint/types.ts";
import type { CheckpointStats } from "../src/index.ts";
import {
  bytesLabel,
  checkpointCostFigures,
  checkpointTotalBytes,
  checkpointWrittenBytes,
  formatState,
  stateRatios,
  type CheckpointCostFigures,
  type StateFigures,
} from "./state-report.ts";

/** A checkpoint whose keyed subtask has a private handle of `privateBytes` and the chain `chain` ([written by, size]). */
function checkpoint(id: number, privateBytes: number, chain: readonly (readonly [number, number])[] | undefined): CompletedCheckpoint {
  const keyed: OperatorSubtaskState = {
    operatorUid: "rewrite-payload",
    subtaskIndex: 0,
    parallelism: 1,
    maxParallelism: 128,
    keyGroupRange: [0, 127],
    handle: { kind: "file", path: "rewrite-payload-0", size: privateBytes, crc: 0 },
    ...(chain ? { shared: chain.map(([by, size]) => ({ path: `../shared/f-${by}`, size, crc: 0, checkpointId: by })) } : {}),
  };
  const source: OperatorSubtaskState = { operatorUid: "churn", subtaskIndex: 0, parallelism: 1, maxParallelism: 128, handle: { kind: "inline", data: new Uint8Array(10), size: 10, crc: 0 } };
  return { version: 1, jobName: "j", checkpointId: id, timestamp: 0, completedAt: 1, savepoint: false, graphFingerprint: "g", states: [source, keyed] };
}

function stats(durations: readonly (readonly [id: number, ms: number])[]): CheckpointStats {
  const completed = durations.map(([checkpointId, durationMs]) => ({
    checkpointId,
    savepoint: false,
    triggeredAt: checkpointId * 1000,
    completedAt: checkpointId * 1000 + durationMs,
    durationMs,
    stateSize: 1,
    checkpointedSize: 1,
    maxAlignmentMs: 0,
    maxSyncMs: 0,
    maxAsyncMs: 0,
    acks: [],
    subtasks: 1,
  }));
  return { counts: { triggered: completed.length, completed: completed.length, failed: 0, aborted: 0, inProgress: 0 }, consecutiveFailures: 0, history: { completed, failed: [] }, pending: [] };
}

describe("checkpointWrittenBytes and checkpointTotalBytes", () => {
  it("counts a full checkpoint's private files both ways", () => {
    const full = checkpoint(4, 1_000_000, undefined);
    expect(checkpointWrittenBytes(full)).toBe(1_000_010);
    expect(checkpointTotalBytes(full)).toBe(1_000_010);
  });

  it("counts only the chain files the checkpoint itself wrote as written, every one as total", () => {
    const delta = checkpoint(7, 97, [[2, 1_000_000], [5, 10_000], [7, 12_000]]);
    expect(checkpointWrittenBytes(delta)).toBe(10 + 97 + 12_000);
    expect(checkpointTotalBytes(delta)).toBe(10 + 97 + 1_000_000 + 10_000 + 12_000);
  });
});

describe("checkpointCostFigures", () => {
  const metadata = new Map([2, 3, 4, 5, 6, 8].map((id) => [id, checkpoint(id, 100, [[1, 1_000_000], ...Array.from({ length: id - 1 }, (_, i) => [i + 2, 1_000 * (i + 2)] as const)])]));
  const run = {
    backend: "heap" as const,
    incremental: true,
    stateBytes: 1e6,
    keys: 977,
    fillMs: 1_500,
    elapsedMs: 9_000,
    firstSteadyCheckpoint: 3,
    steadyCheckpoints: 5,
    metadata,
    // 9 is the job's final checkpoint (after the steady ones); 7 has no metadata
    stats: stats([[1, 900], [2, 800], [3, 40], [4, 60], [5, 50], [6, 70], [7, 10], [8, 30], [9, 5]]),
  };

  it("takes the medians over the steady checkpoints that have statistics and metadata", () => {
    const f = checkpointCostFigures(run);
    expect(f.checkpoints).toBe(4); // 3, 4, 5, 6 (7 has no metadata; 8 and 9 are after the steady ones)
    expect(f.durationP50Ms).toBe(55);
    // written: 10 (source) + 100 (private) + the delta of the checkpoint itself (1000 × id)
    expect(f.writtenP50Bytes).toBe(110 + (4_000 + 5_000) / 2);
    expect(f.checkpointBytes).toBe(checkpointTotalBytes(metadata.get(6)!));
    expect(f).toMatchObject({ backend: "heap", incremental: true, stateBytes: 1e6, keys: 977, fillMs: 1_500, elapsedMs: 9_000 });
  });

  it("refuses a run without a steady checkpoint, naming the ids", () => {
    expect(() => checkpointCostFigures({ ...run, firstSteadyCheckpoint: 21 })).toThrow(/no steady checkpoint \(ids 21–25\) of the heap run/);
  });
});

function cost(backend: "heap" | "disk", incremental: boolean, stateBytes: number, writtenP50Bytes: number, durationP50Ms: number): CheckpointCostFigures {
  return { backend, incremental, stateBytes, keys: stateBytes / 1024, checkpoints: 5, durationP50Ms, writtenP50Bytes, checkpointBytes: stateBytes, fillMs: 2_000, elapsedMs: 10_000 };
}

const figures: StateFigures = {
  parallelism: 2,
  checkpointIntervalMs: 1_000,
  churn: 0.01,
  checkpointCost: [cost("heap", false, 1e8, 1e8, 900), cost("heap", true, 1e8, 1.1e6, 90), cost("disk", false, 1e8, 1e8, 1_200), cost("disk", true, 1e8, 2e6, 60), cost("heap", false, 1e9, 1e9, 9_000)],
  throughput: [
    { backend: "heap", keys: 10_000, records: 4e6, elapsedMs: 2_000, recordsPerSecond: 2e6, checkpointsCompleted: 2, checkpointP50Ms: 12, syncP50Ms: 1, syncP99Ms: 3 },
    { backend: "disk", keys: 10_000, records: 4e6, elapsedMs: 8_000, recordsPerSecond: 5e5, checkpointsCompleted: 8, checkpointP50Ms: 30, syncP50Ms: 4, syncP99Ms: 9 },
    { backend: "heap", keys: 1e7, records: 2e7, elapsedMs: 20_000, recordsPerSecond: 1e6, checkpointsCompleted: 15, checkpointP50Ms: undefined, syncP50Ms: undefined, syncP99Ms: undefined },
  ],
  recovery: [
    { backend: "heap", from: "checkpoint storage", stateBytes: 1e9, checkpointBytes: 1.01e9, processStartMs: 600, restoreMs: 9_400, killToFirstRecordMs: 10_000 },
    { backend: "disk", from: "local copy", stateBytes: 1e9, checkpointBytes: 1.02e9, processStartMs: 600, restoreMs: 400, killToFirstRecordMs: 1_000 },
  ],
  skipped: ["checkpoint cost at 5.00 GB: 8.00 GB free in /tmp, 4× the state wanted"],
};

describe("stateRatios", () => {
  it("gives incremental / full per backend and size, disk / heap per key count and per restore, for pairs that both ran", () => {
    const r = stateRatios(figures);
    expect(r["heap 100 MB: incremental / full, bytes written per checkpoint"]).toBeCloseTo(0.011);
    expect(r["heap 100 MB: incremental / full, checkpoint duration"]).toBeCloseTo(0.1);
    expect(r["disk 100 MB: incremental / full, bytes written per checkpoint"]).toBeCloseTo(0.02);
    expect(r["disk 100 MB: incremental / full, checkpoint duration"]).toBeCloseTo(0.05);
    expect(r["keyed count 10,000 keys, exactly-once 1 s: disk / heap records/s"]).toBe(0.25);
    expect(r["restore 1.00 GB: disk from local copy / heap, kill → first record"]).toBe(0.1);
    // 1 GB ran full only; 10 M keys ran on heap only
    expect(Object.keys(r).filter((k) => k.includes("1.00 GB: incremental") || k.includes("10.00 M keys"))).toEqual([]);
    expect(Object.keys(r)).toHaveLength(6);
  });
});

describe("formatState", () => {
  it("prints a row per run of each part and the skipped runs", () => {
    const text = formatState(figures);
    expect(text).toMatch(/100 MB\s+heap, incremental\s+97,656\s+2\.0 s\s+5\s+90 ms\s+1\.1 MB\s+100 MB\s+10\.0 s/);
    expect(text).toMatch(/disk\s+10,000\s+4\.00 M\s+8\.00 s\s+500,000\s+8\s+30 ms\s+4 ms\s+9 ms/);
    expect(text).toMatch(/1\.00 GB\s+disk\s+local copy\s+1\.02 GB\s+600 ms\s+400 ms\s+1000 ms/);
    expect(text).toContain("skipped: checkpoint cost at 5.00 GB: 8.00 GB free in /tmp, 4× the state wanted");
  });
});

describe("bytesLabel", () => {
  it("uses decimal units", () => {
    expect(bytesLabel(512)).toBe("512 B");
    expect(bytesLabel(102_026)).toBe("102 KB");
    expect(bytesLabel(10.07e6)).toBe("10.1 MB");
    expect(bytesLabel(100e6)).toBe("100 MB");
    expect(bytesLabel(1e9)).toBe("1.00 GB");
  });
});
