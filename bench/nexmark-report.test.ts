import { describe, expect, it } from "vitest";
import type { CheckpointStats } from "../src/index.ts";
import { formatNexmark, latencyFigures, nexmarkRatios, nexmarkRunFigures, nexmarkTargets, type NexmarkFigures, type NexmarkRunFigures, type NexmarkSqlFigures } from "./nexmark-report.ts";

const stats: CheckpointStats = {
  counts: { triggered: 2, completed: 2, failed: 0, aborted: 0, inProgress: 0 },
  consecutiveFailures: 0,
  lastCompleted: { checkpointId: 2, savepoint: false, triggeredAt: 1000, completedAt: 1300, durationMs: 300, stateSize: 4096, checkpointedSize: 4096, maxAlignmentMs: 20, maxSyncMs: 1, maxAsyncMs: 2, acks: [], subtasks: 1 },
  history: {
    completed: [
      { checkpointId: 1, savepoint: false, triggeredAt: 0, completedAt: 100, durationMs: 100, stateSize: 4096, checkpointedSize: 4096, maxAlignmentMs: 10, maxSyncMs: 1, maxAsyncMs: 2, acks: [], subtasks: 1 },
      { checkpointId: 2, savepoint: false, triggeredAt: 1000, completedAt: 1300, durationMs: 300, stateSize: 4096, checkpointedSize: 4096, maxAlignmentMs: 20, maxSyncMs: 1, maxAsyncMs: 2, acks: [], subtasks: 1 },
    ],
    failed: [],
  },
  pending: [],
};

function run(
  runner: NexmarkRunFigures["runner"],
  workers: number,
  checkpointIntervalMs: number,
  elapsedMs: number,
  label = `${runner} ${workers}`,
  gcMs?: number,
  steadyEventsPerSecond?: number,
): NexmarkRunFigures {
  return nexmarkRunFigures({ query: "q5", label, runner, workers, checkpointIntervalMs, events: 1_000_000, elapsedMs, startupMs: workers > 0 ? 500 : 0, rows: 42, checkpoints: checkpointIntervalMs > 0 ? stats : null, gcMs, steadyEventsPerSecond });
}

/** The runs of q5 of one section: fused 4 M/s, DataStream in-process 1 M/s (none) and 0.5 M/s (exactly-once), 1 worker 0.5 M/s, 2 workers 1 M/s, RxJS 2 M/s, SQL twin 0.4 M/s (exactly-once) and 0.5 M/s (none). */
function q5Runs(): NexmarkRunFigures[] {
  return [
    run("fused", 0, 0, 250, "fused loop"),
    run("engine", 0, 0, 1_000, "in-process, no checkpoints", 50),
    run("engine", 0, 1_000, 2_000, "in-process, exactly-once 1 s", 100),
    run("engine", 1, 1_000, 2_500, "1 worker, exactly-once 1 s"),
    run("engine", 2, 1_000, 1_500, "2 workers, exactly-once 1 s"),
    run("rx", 0, 0, 500, "RxJS"),
    run("sql-twin", 0, 0, 2_000, "SQL twin, in-process, no checkpoints", 300),
    run("sql-twin", 0, 1_000, 2_500, "SQL twin, in-process, exactly-once 1 s", 250),
  ];
}

const q5Published: NexmarkSqlFigures = { query: "q5", run: run("sql-connector", 0, 1_000, 4_000, "SQL connector", 800), flinkPerCore: 22_140, overDataStream: 0.5 };

describe("nexmarkRunFigures", () => {
  it("gives events/s after the start-up, per thread doing the work, and the checkpoints of checkpointed runs", () => {
    const twoWorkers = run("engine", 2, 1_000, 2_500);
    expect(twoWorkers).toMatchObject({ cores: 2, eventsPerSecond: 500_000, eventsPerSecondPerCore: 250_000, checkpointsCompleted: 2 });
    expect(twoWorkers.checkpoints).toMatchObject({ durationP50Ms: 100, durationP99Ms: 300, stateBytes: 4096 });
    expect(run("fused", 0, 0, 500)).toMatchObject({ cores: 1, eventsPerSecond: 2_000_000, eventsPerSecondPerCore: 2_000_000, checkpoints: null, gcShare: undefined });
  });

  it("gives the GC share of the run's wall time where GC was measured", () => {
    expect(run("sql-twin", 0, 1_000, 2_000, "twin", 300).gcShare).toBe(0.15);
  });
});

describe("latencyFigures", () => {
  it("takes nearest-rank percentiles and the maximum", () => {
    const l = latencyFigures("q0", "in-process", 100_000, 200_000, Array.from({ length: 200 }, (_, i) => 200 - i));
    expect(l).toEqual({ query: "q0", label: "in-process", rate: 100_000, events: 200_000, rows: 200, p50Ms: 100, p99Ms: 198, maxMs: 200 });
    expect(latencyFigures("q0", "x", 1, 1, []).p99Ms).toBeUndefined();
  });
});

describe("nexmarkRatios", () => {
  it("compares the engine in-process exactly-once with the fused loop, RxJS, no checkpoints, and 2 with 1 worker", () => {
    const runs = [run("fused", 0, 0, 250), run("engine", 0, 0, 2_000), run("engine", 0, 1_000, 4_000), run("engine", 1, 1_000, 2_500), run("engine", 2, 1_000, 1_500), run("rx", 0, 0, 500)];
    expect(nexmarkRatios(runs)).toEqual([
      { query: "q5", engineOverFused: 0.0625, rxOverFused: 0.5, engineOverRx: 0.125, exactlyOnceOverNone: 0.5, twoWorkersOverOne: 2, twinOverEngine: undefined, twinExactlyOnceOverNone: undefined, publishedOverEngine: undefined },
    ]);
    expect(nexmarkRatios([run("fused", 0, 0, 250), run("engine", 0, 1_000, 500)])[0]).toMatchObject({ engineOverFused: 0.5, rxOverFused: undefined, twoWorkersOverOne: undefined });
  });

  it("compares 2 workers with 1 in the steady state where the runs measured it", () => {
    const runs = [run("engine", 1, 1_000, 2_500, "1 worker", undefined, 800_000), run("engine", 2, 1_000, 1_500, "2 workers", undefined, 1_200_000)];
    expect(nexmarkRatios(runs)[0]!.twoWorkersOverOne).toBeCloseTo(1.5, 10);
  });

  it("compares the SQL twin and the published SQL with the engine in-process, exactly-once", () => {
    expect(nexmarkRatios(q5Runs(), [q5Published])[0]).toMatchObject({ engineOverFused: 0.125, twinOverEngine: 0.8, twinExactlyOnceOverNone: 0.8, publishedOverEngine: 0.5 });
  });
});

describe("nexmarkTargets", () => {
  it("marks each figure of the second performance round met or not met against its target, and unknown without its runs", () => {
    const runs = q5Runs();
    const sql = [q5Published, { query: "q6", refused: "no" }];
    const targets = nexmarkTargets(runs, nexmarkRatios(runs, sql), sql);
    const of = (figure: string) => targets.find((t) => t.figure.startsWith(figure));
    expect(of("SQL twin / DataStream")).toEqual({ figure: "SQL twin / DataStream, in-process, exactly-once 1 s", query: "q5", value: 0.8, min: 0.8, met: true });
    expect(of("published SQL / DataStream")).toMatchObject({ value: 0.5, met: true });
    expect(of("DataStream in-process, exactly-once 1 s / fused")).toMatchObject({ value: 0.125, min: 0.5, met: false });
    expect(of("DataStream 2 workers / 1 worker")).toMatchObject({ value: 2, min: 1.7, met: true });
    expect(of("DataStream in-process, exactly-once 1 s / no checkpoints")).toMatchObject({ value: 0.5, min: 0.95, met: false });
    expect(of("SQL twin in-process, exactly-once 1 s / no")).toMatchObject({ value: 0.8, met: false });
    expect(of("GC share of the SQL twin")).toMatchObject({ value: 0.1, max: 0.15, met: true });
    expect(of("GC share of the published SQL")).toMatchObject({ query: "q5", value: 0.2, max: 0.15, met: false });
    expect(targets).toHaveLength(8);
    const partial = [run("engine", 0, 1_000, 500)];
    expect(nexmarkTargets(partial, nexmarkRatios(partial), []).find((t) => t.figure.startsWith("DataStream in-process, exactly-once 1 s / fused"))).toMatchObject({ value: undefined, met: undefined });
  });
});

describe("formatNexmark", () => {
  it("prints the runs, their checkpoints, the latencies and the ratios", () => {
    const runs = [run("fused", 0, 0, 250, "fused loop"), run("engine", 0, 1_000, 1_000, "in-process, exactly-once 1 s"), run("engine", 2, 1_000, 1_500, "2 workers, exactly-once 1 s", undefined, 1_250_000)];
    const sql = [
      { query: "q5", run: run("sql-connector", 0, 1_000, 2_000, "SQL connector", 300), flinkPerCore: 22_140, overDataStream: 0.5 },
      { query: "q6", refused: "line 12, column 11: Column 'rownum' not found in any table" },
    ];
    const f: NexmarkFigures = {
      parallelism: 2,
      outOfOrdernessMs: 4_000,
      queries: [{ name: "q5", description: "hot items" }],
      runs,
      latency: [latencyFigures("q0", "in-process, exactly-once 1 s", 250_000, 500_000, [1.25, 2, 35])],
      ratios: nexmarkRatios(runs, sql),
      sql,
      targets: nexmarkTargets(runs, nexmarkRatios(runs, sql), sql),
    };
    const text = formatNexmark(f);
    expect(text).toContain("parallelism 2");
    expect(text).toContain("  q5: hot items");
    expect(text).toMatch(/q5 fused loop\s+1\.00 M\s+0\.25 s\s+-\s+4\.00 M\s+4\.00 M\s+-\s+42\s+-\s+-\n/);
    expect(text).toMatch(/q5 2 workers, exactly-once 1 s\s+1\.00 M\s+1\.50 s\s+500 ms\s+1\.00 M\s+500,000\s+1\.25 M\s+42\s+2/);
    expect(text).toMatch(/q5 2 workers, exactly-once 1 s\s+2\s+0\s+100 ms\s+300 ms\s+20 ms\s+4 KiB/);
    expect(text).toMatch(/q0 in-process, exactly-once 1 s\s+250,000\/s\s+500,000\s+3\s+2\.0 ms\s+35 ms\s+35 ms/);
    expect(text).toMatch(/q5\s+0\.250\s+-\s+-\s+-\s+-\s+-\s+-\s+0\.500\n/);
    expect(text).toMatch(/q5\s+1\.00 M\s+2\.00 s\s+500,000\s+22,140\s+0\.500\s+42\s+2\s+15\.0 %/);
    expect(text).toMatch(/q6\s+-\s+refused\s+-\s+-\s+-\s+-\s+-\s+-/);
    // side by side: fused, RxJS, DS none, DS EO, 1 worker, 2 workers, twin EO, twin none, published
    // (2 workers: the steady state)
    expect(text).toMatch(/q5\s+4\.00 M\s+-\s+-\s+1\.00 M\s+-\s+1\.25 M\s+-\s+-\s+500,000\n/);
    expect(text).toMatch(/DataStream in-process, exactly-once 1 s \/ fused loop\s+q5\s+0\.250\s+>= 0\.5\s+NOT met/);
    expect(text).toMatch(/published SQL \/ DataStream, in-process, exactly-once 1 s\s+q5\s+0\.500\s+>= 0\.5\s+met/);
    expect(text).toMatch(/GC share of the published SQL, exactly-once 1 s\s+q5\s+15\.0 %\s+<= 15\.0 %\s+met/);
    expect(text).toMatch(/DataStream 2 workers \/ 1 worker, exactly-once 1 s\s+q5\s+-\s+>= 1\.7\s+-/);
    expect(text).toContain("  q6 refused: line 12, column 11: Column 'rownum' not found in any table");
  });
});
