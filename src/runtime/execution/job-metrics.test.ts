import { describe, expect, it } from "vitest";
import type { MetricSnapshot } from "../../metrics/metric-snapshot.ts";
import { jobMetrics, markStuck } from "./job-metrics.ts";

const job = { jobId: "0123456789abcdef0123456789abcdef", jobName: "orders" };
const taskScope = (subtaskIndex: number) => ({ ...job, vertexId: "aa".repeat(16), taskName: "Source: in -> Map", subtaskIndex, taskManagerId: "worker-0" });

describe("job-scope metrics", () => {
  it("checkpoint counts, the last checkpoint, restarts and uptime with Flink's names; -1 before the first checkpoint", () => {
    const values = (m: MetricSnapshot[]) => Object.fromEntries(m.map((s) => [s.name, s.value]));
    expect(values(jobMetrics(job, { stats: null, restarts: 0, restartingMs: 0, uptimeMs: 0 }))).toEqual({
      numberOfCompletedCheckpoints: 0,
      numberOfFailedCheckpoints: 0,
      numberOfInProgressCheckpoints: 0,
      totalNumberOfCheckpoints: 0,
      lastCheckpointDuration: -1,
      lastCheckpointSize: -1,
      lastCheckpointFullSize: -1,
      numRestarts: 0,
      restartingTime: 0,
      uptime: 0,
    });
    const stats = {
      counts: { triggered: 5, completed: 3, failed: 1, aborted: 0, inProgress: 1 },
      consecutiveFailures: 0,
      lastCompleted: { checkpointId: 4, savepoint: false, triggeredAt: 0, completedAt: 30, durationMs: 30, stateSize: 4096, checkpointedSize: 2048, maxAlignmentMs: 0, maxSyncMs: 1, maxAsyncMs: 2, acks: [], subtasks: 1 },
      history: { completed: [], failed: [] },
      pending: [],
    };
    const m = jobMetrics(job, { stats, restarts: 2, restartingMs: 150, uptimeMs: 9000 });
    expect(values(m)).toMatchObject({ numberOfCompletedCheckpoints: 3, numberOfFailedCheckpoints: 1, numberOfInProgressCheckpoints: 1, lastCheckpointDuration: 30, lastCheckpointSize: 2048, lastCheckpointFullSize: 4096, numRestarts: 2, restartingTime: 150, uptime: 9000 });
    expect(m.every((s) => s.scope === job && s.kind === "gauge")).toBe(true);
  });

  it("a stuck task is 100 % busy: its reported times are replaced, or added when it never reported", () => {
    const reported: MetricSnapshot[] = [
      { scope: taskScope(0), name: "busyTimeMsPerSecond", kind: "gauge", value: 20 },
      { scope: taskScope(0), name: "idleTimeMsPerSecond", kind: "meter", value: 980 },
      { scope: taskScope(1), name: "idleTimeMsPerSecond", kind: "meter", value: 990 },
    ];
    const m = markStuck(reported, taskScope(0));
    expect(m.map((s) => [s.scope.subtaskIndex, s.name, s.value])).toEqual([
      [0, "busyTimeMsPerSecond", 1000],
      [0, "idleTimeMsPerSecond", 0],
      [1, "idleTimeMsPerSecond", 990],
      [0, "backPressuredTimeMsPerSecond", 0],
    ]);
    expect(markStuck([], taskScope(1)).map((s) => [s.name, s.value])).toEqual([
      ["busyTimeMsPerSecond", 1000],
      ["idleTimeMsPerSecond", 0],
      ["backPressuredTimeMsPerSecond", 0],
    ]);
  });
});
