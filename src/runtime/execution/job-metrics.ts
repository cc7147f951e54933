/**
 * The job-scope metrics of the job master, with Flink's names (checkpoints,
 * restarts, uptime), and the correction of a stuck thread's task metrics: a
 * task stuck in user code blocks its thread, which then posts nothing; the
 * main thread knows from the shared activity memory that it is 100 % busy.
 */
import type { CheckpointStats } from "../../checkpoint/coordinator/index.ts";
import type { MetricScope, MetricSnapshot } from "../../metrics/metric-snapshot.ts";

/** What the job master knows when metrics are asked for. */
export interface JobMetricInputs {
  readonly stats: CheckpointStats | null;
  readonly restarts: number;
  /** Duration of the last restart, or of the one going on (ms). */
  readonly restartingMs: number;
  /** Ms since the job last became RUNNING; -1 once it ended, 0 before it ran. */
  readonly uptimeMs: number;
}

/**
 * @example
 * ```ts
 * jobMetrics({ jobId, jobName: "orders" }, { stats, restarts: 0, restartingMs: 0, uptimeMs: 1200 });
 * // [{ name: "numberOfCompletedCheckpoints", kind: "gauge", value: 3, … }, …]
 * ```
 */
export function jobMetrics(scope: MetricScope, o: JobMetricInputs): MetricSnapshot[] {
  const last = o.stats?.lastCompleted;
  const gauge = (name: string, value: number): MetricSnapshot => ({ scope, name, kind: "gauge", value });
  return [
    gauge("numberOfCompletedCheckpoints", o.stats?.counts.completed ?? 0),
    gauge("numberOfFailedCheckpoints", o.stats?.counts.failed ?? 0),
    gauge("numberOfInProgressCheckpoints", o.stats?.counts.inProgress ?? 0),
    gauge("totalNumberOfCheckpoints", o.stats?.counts.triggered ?? 0),
    // Flink reports -1 before the first completed checkpoint
    gauge("lastCheckpointDuration", last ? last.durationMs : -1),
    // as in Flink: the bytes the last checkpoint wrote, and all it references (incremental checkpoints share files)
    gauge("lastCheckpointSize", last ? last.checkpointedSize : -1),
    gauge("lastCheckpointFullSize", last ? last.stateSize : -1),
    gauge("numRestarts", o.restarts),
    gauge("restartingTime", o.restartingMs),
    gauge("uptime", o.uptimeMs),
  ];
}

/** How long a thread's event loop must not have turned for its active task to count as stuck. */
export const STUCK_AFTER_MS = 1_000;

/**
 * `snapshots` with the task of `scope` shown 100 % busy (its thread is stuck in it); its busy,
 * idle and backpressured times are added when the thread got stuck before it reported any.
 */
export function markStuck(snapshots: readonly MetricSnapshot[], scope: MetricScope): MetricSnapshot[] {
  const forced = new Map([
    ["busyTimeMsPerSecond", 1000],
    ["idleTimeMsPerSecond", 0],
    ["backPressuredTimeMsPerSecond", 0],
  ]);
  const out = snapshots.map((s) => {
    if (s.scope.vertexId !== scope.vertexId || s.scope.subtaskIndex !== scope.subtaskIndex || s.scope.operatorId !== undefined) return s;
    const value = forced.get(s.name);
    if (value === undefined) return s;
    forced.delete(s.name);
    return { ...s, value };
  });
  for (const [name, value] of forced) out.push({ scope, name, kind: name === "busyTimeMsPerSecond" ? "gauge" : "meter", value });
  return out;
}
