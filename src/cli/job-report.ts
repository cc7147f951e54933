/**
 * What `weir run` says about a job while it runs and when it ends: the terminal
 * progress line, the periodic progress log line (when standard error is not a
 * terminal) and the final summary line, from snapshots of the job client.
 */
import type { JobClient } from "../deploy/job-client.ts";
import type { JobStatus } from "../runtime/execution/job-master.ts";

/** The job at one moment. Records and checkpoints are those of the current (or last) attempt. */
export interface JobSnapshot {
  /** The job's status; a job on a cluster may report Flink's others (INITIALIZING, CANCELLING, SUSPENDED). */
  readonly status: JobStatus | (string & {});
  /** Records read by the sources. */
  readonly recordsIn: number;
  /** Records written by the sinks. */
  readonly recordsOut: number;
  readonly checkpoints: number;
  readonly lastCheckpoint?: { readonly id: number; readonly durationMs: number };
  readonly restarts: number;
  /** When it was taken (`performance.now()`). */
  readonly at: number;
}

/** How a run ended. */
export type RunOutcome = "finished" | "stopped" | "failed" | "cancelled";

export function snapshotOf(client: JobClient, at = performance.now()): JobSnapshot {
  const counts = client.getRecordCounts();
  const stats = client.getCheckpointStats();
  const lc = stats?.lastCompleted;
  return {
    status: client.getJobStatus(),
    recordsIn: counts.in,
    recordsOut: counts.out,
    checkpoints: stats?.counts.completed ?? 0,
    lastCheckpoint: lc && { id: lc.checkpointId, durationMs: lc.durationMs },
    restarts: client.getRestartCount(),
    at,
  };
}

/** The terminal line: `[tiny] RUNNING  in 1.2k/s  out 1.1k/s  checkpoint 3 (12 ms)  restarts 0`. */
export function progressLineText(jobName: string, prev: JobSnapshot, cur: JobSnapshot): string {
  const { inRate, outRate } = rates(prev, cur);
  return `[${jobName}] ${cur.status}  in ${formatRate(inRate)}/s  out ${formatRate(outRate)}/s  ${checkpointText(cur)}  restarts ${cur.restarts}`;
}

/** A progress line for logs: totals and rates since `prev`. */
export function progressLogText(prev: JobSnapshot, cur: JobSnapshot): string {
  const { inRate, outRate } = rates(prev, cur);
  return (
    `progress: ${cur.status}, ${cur.recordsIn} records in (${formatRate(inRate)}/s), ${cur.recordsOut} out (${formatRate(outRate)}/s), ` +
    `${checkpointText(cur)}, ${plural(cur.restarts, "restart")}`
  );
}

/** Structured fields of a snapshot (JSON logs). */
export function snapshotFields(s: JobSnapshot): Record<string, unknown> {
  return {
    status: s.status,
    recordsIn: s.recordsIn,
    recordsOut: s.recordsOut,
    checkpoints: s.checkpoints,
    lastCheckpoint: s.lastCheckpoint?.id,
    restarts: s.restarts,
  };
}

/**
 * The last line of a run that started a job:
 * `job 'tiny' finished in 1.2 s: 100 records in, 50 out, 1 checkpoint, 0 restarts; exit 0`.
 */
export function summaryText(jobName: string, outcome: RunOutcome, exitCode: number, durationMs: number, s: JobSnapshot): string {
  const took = formatDuration(durationMs);
  const what = {
    finished: `finished in ${took}`,
    stopped: `stopped with a savepoint after ${took}`,
    failed: `failed after ${took}`,
    cancelled: `was cancelled after ${took}`,
  }[outcome];
  const lastAttempt = s.restarts > 0 ? " (records and checkpoints of the last attempt)" : "";
  return (
    `job '${jobName}' ${what}: ${s.recordsIn} records in, ${s.recordsOut} out, ${plural(s.checkpoints, "checkpoint")}, ` +
    `${plural(s.restarts, "restart")}${lastAttempt}; exit ${exitCode}`
  );
}

function rates(prev: JobSnapshot, cur: JobSnapshot): { inRate: number; outRate: number } {
  const dt = Math.max(1e-3, (cur.at - prev.at) / 1000);
  // a restart resets the counts: no negative rates
  return { inRate: Math.max(0, cur.recordsIn - prev.recordsIn) / dt, outRate: Math.max(0, cur.recordsOut - prev.recordsOut) / dt };
}

function checkpointText(s: JobSnapshot): string {
  return s.lastCheckpoint ? `checkpoint ${s.lastCheckpoint.id} (${s.lastCheckpoint.durationMs} ms)` : "no checkpoint yet";
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

export function formatRate(n: number): string {
  if (n >= 1e6) return `${(n / 1e6).toFixed(1)}M`;
  if (n >= 1e3) return `${(n / 1e3).toFixed(1)}k`;
  return n.toFixed(0);
}

/** `0.4 s`, `12.3 s`, `3 min 12 s`, `2 h 05 min`. */
export function formatDuration(ms: number): string {
  const s = ms / 1000;
  if (s < 60) return `${s.toFixed(1)} s`;
  const total = Math.round(s);
  if (total < 3600) return `${Math.floor(total / 60)} min ${total % 60} s`;
  return `${Math.floor(total / 3600)} h ${String(Math.floor((total % 3600) / 60)).padStart(2, "0")} min`;
}
