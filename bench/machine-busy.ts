/**
 * How much CPU other processes used while a run went on: the machine's busy
 * time (every CPU, from `/proc/stat`) minus this process's CPU time, over the
 * run's wall time, in cores. Unlike the load average (a one-minute mean that
 * lags), it tells whether a run was disturbed. Linux only: undefined elsewhere.
 */
import { readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";

/** A reading at the start of a run. */
export interface BusyMark {
  readonly at: number;
  /** Busy ms of all CPUs since boot (undefined without `/proc/stat`). */
  readonly machineMs: number | undefined;
  /** CPU ms of this process. */
  readonly ownMs: number;
}

/** Reads the counters now. */
export function busyMark(): BusyMark {
  const u = process.cpuUsage();
  return { at: performance.now(), machineMs: machineBusyMs(), ownMs: (u.user + u.system) / 1000 };
}

/**
 * Cores that other processes kept busy since `start`, on average (0 on an otherwise idle machine).
 *
 * @example
 * ```ts
 * const start = busyMark();
 * await run();
 * otherCores(start); // e.g. 1.2: other processes used 1.2 cores meanwhile
 * ```
 */
export function otherCores(start: BusyMark, end: BusyMark = busyMark()): number | undefined {
  if (start.machineMs === undefined || end.machineMs === undefined || !(end.at > start.at)) return undefined;
  return Math.max(0, end.machineMs - start.machineMs - (end.ownMs - start.ownMs)) / (end.at - start.at);
}

/** Busy ms of all CPUs since boot: the first line of /proc/stat without idle and iowait, in ticks of 10 ms. */
function machineBusyMs(): number | undefined {
  let line: string;
  try {
    line = readFileSync("/proc/stat", "utf8").split("\n", 1)[0]!;
  } catch {
    return undefined;
  }
  const ticks = line.trim().split(/\s+/).slice(1).map(Number);
  const total = ticks.reduce((a, b) => a + b, 0);
  return (total - ticks[3]! - (ticks[4] ?? 0)) * 10;
}
