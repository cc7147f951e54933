/**
 * The CPU time of other processes over time (the sum over a set of process ids, every thread of each, from
 * `/proc/<pid>/stat`), sampled while a run goes on, so that the CPU spent within a run's steady window
 * (bench/steady-rate.ts) can be read off afterwards with `cpuBetween` — as bench/cpu-timeline.ts does for
 * this process. For the processes of a cluster (job manager and task managers) or a `weir run` child. Linux
 * only; the kernel counts CPU time in clock ticks (`getconf CLK_TCK`: 100 per second), so a window of a few
 * seconds over several processes is exact to about a percent.
 */
import { readFileSync } from "node:fs";
import { CpuTimeline } from "./cpu-timeline.ts";

const SAMPLE_INTERVAL_MS = 50;
/** Clock ticks per second of `/proc/<pid>/stat` (Linux's USER_HZ). */
const TICKS_PER_SECOND = 100;

/**
 * User + system CPU time of process `pid` so far, in ms, or undefined when it has ended.
 *
 * @example
 * ```ts
 * processCpuMs(process.pid); // e.g. 1830
 * ```
 */
export function processCpuMs(pid: number): number | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return undefined;
  }
  // fields after the command name (which may hold spaces), from field 3 (state): utime is field 14, stime 15
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
}

/**
 * Samples the summed CPU time of `pids` every few milliseconds until `stop()`; a sample is kept only while
 * every process is alive.
 *
 * @example
 * ```ts
 * const cpu = processCpuTimeline([jobManagerPid, ...taskManagerPids]);
 * // … the run …
 * cpu.stop();
 * cpuBetween(cpu.samples, steady.startAt, steady.endAt); // ms of CPU of all of them in the steady window
 * ```
 */
export function processCpuTimeline(pids: readonly number[]): CpuTimeline {
  return new CpuTimeline(() => {
    let sum = 0;
    for (const pid of pids) {
      const ms = processCpuMs(pid);
      if (ms === undefined) return undefined;
      sum += ms;
    }
    return sum;
  }, SAMPLE_INTERVAL_MS);
}
