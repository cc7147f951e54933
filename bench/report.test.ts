import { describe, expect, it } from "vitest";
import type { CheckpointStats } from "../src/index.ts";
import {
  checkpointFigures,
  fileRunFigures,
  formatReport,
  median,
  recoveryFigures,
  reportJson,
  scalingFigures,
  throughput,
  type BenchReport,
  type RunFigures,
  type ScalingRound,
} from "./report.ts";

function statsWith(completed: { durationMs: number; maxAlignmentMs: number }[]): CheckpointStats {
  const entries = completed.map((c, i) => ({
    checkpointId: i + 1,
    savepoint: false,
    triggeredAt: i * 1000,
    completedAt: i * 1000 + c.durationMs,
    durationMs: c.durationMs,
    stateSize: 2048,
    checkpointedSize: 1024,
    maxAlignmentMs: c.maxAlignmentMs,
    maxSyncMs: 1,
    maxAsyncMs: 2,
    acks: [],
    subtasks: 1,
  }));
  return {
    counts: { triggered: entries.length + 1, completed: entries.length, failed: 1, aborted: 0, inProgress: 0 },
    consecutiveFailures: 0,
    ...(entries.length > 0 ? { lastCompleted: entries[entries.length - 1]! } : {}),
    history: { completed: entries, failed: [] },
    pending: [],
  };
}

describe("throughput", () => {
  it("divides the records by the time left after the start-up", () => {
    expect(throughput(10_000_000, 2_300, 300)).toBe(5_000_000);
    expect(throughput(1_000, 500)).toBe(2_000);
  });

  it("refuses a run not longer than its start-up", () => {
    expect(() => throughput(1_000, 300, 300)).toThrow(/not more than its start-up/);
  });
});

describe("fileRunFigures", () => {
  it("gives input megabytes (10^6 bytes) and records per second of the run", () => {
    const f = fileRunFigures("file, no checkpoints", 0, 2_000_000, 250e6, 5_000, 0);
    expect(f.megabytesPerSecond).toBe(50);
    expect(f.recordsPerSecond).toBe(400_000);
    expect(f).toMatchObject({ label: "file, no checkpoints", records: 2_000_000, inputBytes: 250e6, elapsedMs: 5_000 });
  });
});

describe("recoveryFigures", () => {
  it("splits kill → first record into process start and restore", () => {
    const r = recoveryFigures({ stateBytes: 1e7, checkpointBytes: 1.05e7, killedAt: 1_000, moduleAt: 1_600, firstRecordAt: 1_900 });
    expect(r).toEqual({ stateBytes: 1e7, checkpointBytes: 1.05e7, processStartMs: 600, restoreMs: 300, killToFirstRecordMs: 900 });
  });

  it("refuses instants out of order", () => {
    expect(() => recoveryFigures({ stateBytes: 1, checkpointBytes: 1, killedAt: 2_000, moduleAt: 1_600, firstRecordAt: 1_900 })).toThrow(/out of order/);
  });
});

describe("checkpointFigures", () => {
  it("takes p50 and p99 of the durations and of the alignments of the completed checkpoints", () => {
    const f = checkpointFigures(
      statsWith([
        { durationMs: 100, maxAlignmentMs: 5 },
        { durationMs: 300, maxAlignmentMs: 1 },
        { durationMs: 200, maxAlignmentMs: 9 },
        { durationMs: 400, maxAlignmentMs: 3 },
      ]),
    );
    expect(f).toEqual({
      completed: 4,
      failed: 1,
      durationP50Ms: 200,
      durationP99Ms: 400,
      alignmentP50Ms: 3,
      alignmentP99Ms: 9,
      stateBytes: 2048,
      checkpointedBytes: 1024,
    });
  });

  it("has no percentiles without checkpoints", () => {
    expect(checkpointFigures(null)).toEqual({
      completed: 0,
      failed: 0,
      durationP50Ms: undefined,
      durationP99Ms: undefined,
      alignmentP50Ms: undefined,
      alignmentP99Ms: undefined,
      stateBytes: undefined,
      checkpointedBytes: undefined,
    });
  });
});

/** A scaling round at `load` with the steady records/s and CPU ns per record of 1 and 2 workers (whole-run records/s: 0.8 of the steady). */
function round(load: number, one: number, two: number, cpuOne: number, cpuTwo: number): ScalingRound {
  const run = (workers: number, steady: number, cpu: number): RunFigures => ({
    label: `${workers} worker(s), no checkpoints`,
    keys: 10_000,
    workers,
    checkpointIntervalMs: 0,
    records: 20e6,
    elapsedMs: 5000,
    startupMs: 300,
    recordsPerSecond: 0.8 * steady,
    checkpointsCompleted: 0,
    steadyRecordsPerSecond: steady,
    cpuNsPerRecord: cpu,
    loadAverage: load,
    otherCores: workers === 2 ? load / 2 : 0,
  });
  return { oneWorker: run(1, one, cpuOne), twoWorkers: run(2, two, cpuTwo) };
}

describe("scalingFigures", () => {
  it("compares 2 workers with 1 worker within each round and takes the median over the rounds", () => {
    const f = scalingFigures([round(0.1, 5e6, 9e6, 200, 210), round(0.2, 5e6, 8e6, 200, 220), round(0.3, 4e6, 8e6, 200, 200)]);
    expect(f.steadyRatios).toEqual([1.8, 1.6, 2]);
    expect(f.steadyRatio).toBe(1.8);
    expect(f.cpuRatio).toBe(1.05);
    expect(f.wholeRunRatio).toBe(1.8);
  });

  it("refuses no rounds, or a run without a steady state", () => {
    expect(() => scalingFigures([])).toThrow(RangeError);
    const r = round(0.1, 5e6, 9e6, 200, 210);
    expect(() => scalingFigures([{ ...r, twoWorkers: { ...r.twoWorkers, steadyRecordsPerSecond: undefined } }])).toThrow(/had no steady state/);
  });

  it("median: the middle value, or the mean of the two middle ones", () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });
});

describe("formatReport and reportJson", () => {
  const report: BenchReport = {
    date: "2026-01-02T03:04:05.000Z",
    machine: { cpuModel: "Test CPU", cores: 2, nproc: 2, loadAverage: 0.25, node: "v20.0.0", platform: "linux", memoryGiB: 8 },
    parallelism: 4,
    runs: [
      { label: "in-process, no checkpoints", keys: 10_000, workers: 0, checkpointIntervalMs: 0, records: 20e6, elapsedMs: 4000, startupMs: 0, recordsPerSecond: 5e6, checkpointsCompleted: 0 },
      { label: "1 worker, exactly-once 1 s", keys: 1_000_000, workers: 1, checkpointIntervalMs: 1000, records: 20e6, elapsedMs: 5300, startupMs: 300, recordsPerSecond: 4e6, checkpointsCompleted: 4, steadyRecordsPerSecond: 4.5e6, cpuNsPerRecord: 251.4, loadAverage: 0.31, otherCores: 0.05 },
    ],
    scaling: [round(0.1, 5e6, 9e6, 200, 210), round(0.2, 5e6, 8e6, 200, 220), round(0.3, 4e6, 8e6, 200, 200)],
    fileParallelism: 2,
    fileRuns: [fileRunFigures("file, exactly-once 1 s", 1000, 2_500_000, 300e6, 4_000, 3)],
    eventTimeParallelism: 4,
    eventTimeRuns: [
      { label: "window, exactly-once 1 s", job: "sliding window", checkpointIntervalMs: 1000, events: 80_000, elapsedMs: 4_000, eventsPerSecond: 20_000, outputs: 370_000, checkpointsCompleted: 3 },
      { label: "join, no checkpoints", job: "interval join", checkpointIntervalMs: 0, events: 2_400_000, elapsedMs: 4_000, eventsPerSecond: 600_000, outputs: 1_200_000, checkpointsCompleted: 1 },
    ],
    objectStateParallelism: 4,
    objectStateRuns: [
      { label: "object 10k keys, no checkpoints", keys: 10_000, checkpointIntervalMs: 0, records: 4_000_000, elapsedMs: 4_000, recordsPerSecond: 1e6, checkpointsCompleted: 1 },
      { label: "object 1M keys, exactly-once 1 s", keys: 1_000_000, checkpointIntervalMs: 1000, records: 2_000_000, elapsedMs: 5_000, recordsPerSecond: 400_000, checkpointsCompleted: 3 },
    ],
    asyncIo: { capacity: 100, latencyMs: 1, handLoopRecordsPerSecond: 70_000 },
    asyncIoRuns: [{ label: "async unordered, exactly-once 1 s", outputMode: "unordered", checkpointIntervalMs: 1000, records: 200_000, elapsedMs: 4_000, recordsPerSecond: 50_000, checkpointsCompleted: 4 }],
    nexmark: null,
    state: null,
    startup: null,
    cluster: null,
    kafka: null,
    postgres: null,
    recovery: [recoveryFigures({ stateBytes: 100 * 2 ** 20, checkpointBytes: 101 * 2 ** 20, killedAt: 0, moduleAt: 550, firstRecordAt: 1_700 })],
    ratios: { "exactly-once / none": 0.8 },
    checkpoints: { "1 worker, exactly-once 1 s": checkpointFigures(statsWith([{ durationMs: 120.4, maxAlignmentMs: 7 }])) },
  };

  it("prints the machine, one row per run, the checkpoint percentiles and the ratios", () => {
    const text = formatReport(report);
    expect(text).toContain("Test CPU, 2 cores (nproc 2), 8 GiB, linux, node v20.0.0; load average 0.25 at the start");
    expect(text).toMatch(/1 worker, exactly-once 1 s\s+1\.00 M\s+20\.00 M\s+5\.30 s\s+300 ms\s+4\.00 M\s+4\s+4\.50 M\s+251 ns\s+0\.31\s+0\.05$/m);
    expect(text).toMatch(/in-process, no checkpoints\s+10,000\s+20\.00 M\s+4\.00 s\s+-\s+5\.00 M\s+off\s+-\s+-\s+-\s+-$/m);
    expect(text).toMatch(/^1\s+0\.10\s+0\.05\s+5\.00 M\s+9\.00 M\s+1\.800\s+200 ns\s+210 ns\s+1\.050\s+1\.800$/m);
    expect(text).toContain("median: steady 1.800, CPU per record 1.050, whole run 1.800");
    expect(text).toMatch(/1 worker, exactly-once 1 s\s+1\s+1\s+120 ms\s+120 ms\s+7 ms\s+7 ms\s+2 KiB/);
    expect(text).toMatch(/exactly-once \/ none\s+0\.800/);
    expect(text).toMatch(/file, exactly-once 1 s\s+2\.50 M\s+300 MB\s+4\.00 s\s+75\.0\s+625,000\s+3/);
    expect(text).toContain("event-time jobs, in-process, parallelism 4");
    expect(text).toMatch(/window, exactly-once 1 s\s+80,000\s+4\.00 s\s+20,000\s+370,000\s+3/);
    expect(text).toMatch(/join, no checkpoints\s+2\.40 M\s+4\.00 s\s+600,000\s+1\.20 M\s+off/);
    expect(text).toMatch(/100 MiB\s+101\.0 MiB\s+550 ms\s+1150 ms\s+1700 ms/);
    expect(text).toContain("object state, in-process, parallelism 4:");
    expect(text).toMatch(/object 10k keys, no checkpoints\s+10,000\s+4\.00 M\s+4\.00 s\s+1\.00 M\s+off/);
    expect(text).toMatch(/object 1M keys, exactly-once 1 s\s+1\.00 M\s+2\.00 M\s+5\.00 s\s+400,000\s+3/);
    expect(text).toContain("async I/O, in-process, parallelism 1, capacity 100, a service answering after 1 ms (ceiling: 100,000 records/s):");
    expect(text).toContain("the same requests in a hand loop without the engine (Node's timers): 70,000 requests/s");
    expect(text).toMatch(/async unordered, exactly-once 1 s\s+200,000\s+4\.00 s\s+50,000\s+4/);
  });

  it("prints only the sections that ran, and states of 10 MiB and more in MiB", () => {
    const text = formatReport({
      ...report,
      runs: [],
      scaling: [],
      fileRuns: [],
      eventTimeRuns: [],
      asyncIoRuns: [],
      recovery: [],
      ratios: {},
      checkpoints: { "object 1M keys, exactly-once 1 s": { ...checkpointFigures(statsWith([{ durationMs: 1_500, maxAlignmentMs: 40 }])), stateBytes: 27.5 * 2 ** 20 } },
    });
    expect(text).not.toContain("ValueState running count");
    expect(text).not.toContain("scaling:");
    expect(text).not.toContain("file job");
    expect(text).not.toContain("event-time jobs");
    expect(text).not.toContain("recovery:");
    expect(text).not.toContain("async I/O, in-process");
    expect(text).not.toMatch(/^ratio\s+value/m);
    expect(text).toContain("object state, in-process, parallelism 4:");
    expect(text).toMatch(/object 1M keys, exactly-once 1 s\s+1\s+1\s+1500 ms\s+1500 ms\s+40 ms\s+40 ms\s+27\.5 MiB/);
  });

  it("gives one JSON line that parses back to the same figures, rounded to 3 decimals", () => {
    const line = reportJson({ ...report, ratios: { r: 0.123456 } });
    expect(line).not.toContain("\n");
    const parsed = JSON.parse(line) as BenchReport;
    expect(parsed.ratios.r).toBe(0.123);
    expect(parsed.runs[1]!.recordsPerSecond).toBe(4e6);
    expect(parsed.checkpoints["1 worker, exactly-once 1 s"]!.durationP50Ms).toBe(120.4);
    expect(parsed.objectStateRuns[1]).toEqual(report.objectStateRuns[1]);
  });
});
