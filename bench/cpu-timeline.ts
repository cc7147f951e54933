/**
 * The CPU time of this process (every thread: workers, the main thread, V8's
 * helper threads) over time, sampled while a run goes on, so that the CPU
 * spent within a run's steady window (bench/steady-rate.ts) can be read off
 * afterwards. CPU time per record hardly changes when other processes share
 * the machine, unlike wall time.
 */
import { performance } from "node:perf_hooks";

/** One sample: an instant (ms since the epoch) and the process's CPU time so far (ms, user + system). */
export type CpuSample = readonly [at: number, cpuMs: number];

const SAMPLE_INTERVAL_MS = 10;

/** This process's CPU time so far (ms, user + system). */
function ownCpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

/**
 * Samples a CPU time (by default this process's) every `intervalMs` until `stop()`; a reading of undefined
 * (a process that ended) takes no sample.
 */
export class CpuTimeline {
  private readonly taken: CpuSample[] = [];
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly read: () => number | undefined = ownCpuMs,
    intervalMs = SAMPLE_INTERVAL_MS,
  ) {
    this.sample();
    this.timer = setInterval(() => this.sample(), intervalMs);
  }

  /** The samples so far, in time order. */
  get samples(): readonly CpuSample[] {
    return this.taken;
  }

  /** Takes a last sample and stops. */
  stop(): void {
    clearInterval(this.timer);
    this.sample();
  }

  private sample(): void {
    const at = performance.timeOrigin + performance.now();
    const ms = this.read();
    if (ms !== undefined) this.taken.push([at, ms]);
  }
}

/**
 * CPU milliseconds spent between the instants `from` and `to`, interpolated
 * linearly between the samples around each.
 *
 * @throws RangeError when the samples do not cover `from`..`to`
 * @example
 * ```ts
 * cpuBetween([[0, 0], [10, 20], [20, 30]], 5, 15); // 15: 10 → 20 by 5 ms, 20 → 30 by 5 ms
 * ```
 */
export function cpuBetween(samples: readonly CpuSample[], from: number, to: number): number {
  return cpuAt(samples, to) - cpuAt(samples, from);
}

function cpuAt(samples: readonly CpuSample[], at: number): number {
  for (let i = 1; i < samples.length; i++) {
    const [t1, c1] = samples[i]!;
    if (t1 < at) continue;
    const [t0, c0] = samples[i - 1]!;
    if (at < t0) break;
    return t1 === t0 ? c1 : c0 + ((c1 - c0) * (at - t0)) / (t1 - t0);
  }
  throw new RangeError(`cpuBetween: no samples around ${at} (they cover ${samples[0]?.[0]} to ${samples.at(-1)?.[0]})`);
}
