/**
 * The time this thread spent in garbage-collection pauses while a run went
 * on, from the `gc` entries of a `PerformanceObserver` (every pause of the
 * thread's isolate: scavenges, mark-compact finalization; not the work V8's
 * helper threads do concurrently). Cheap enough to stay on in every measured
 * in-process run; the bench reports it as a share of the run's wall time.
 */
import { PerformanceObserver, performance } from "node:perf_hooks";

/** Node delivers `gc` entries from a timer after the pause: this long after the run, the last ones have arrived. */
const SETTLE_MS = 20;

/**
 * Runs `run` and sums the GC pauses of this thread that started during it.
 *
 * @example
 * ```ts
 * const { result, gcMs } = await measureGcTime(() => client.getJobExecutionResult());
 * console.log(`GC ${(gcMs / elapsedMs * 100).toFixed(1)} %`);
 * ```
 */
export async function measureGcTime<T>(run: () => Promise<T>): Promise<{ result: T; gcMs: number }> {
  let gcMs = 0;
  let from = Number.POSITIVE_INFINITY;
  let to = Number.POSITIVE_INFINITY;
  const observer = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) if (e.startTime >= from && e.startTime < to) gcMs += e.duration;
  });
  observer.observe({ entryTypes: ["gc"] });
  try {
    from = performance.now();
    const result = await run();
    to = performance.now();
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    return { result, gcMs };
  } finally {
    observer.disconnect();
  }
}

/**
 * GC pauses as a share of a run's wall time (0–1), or undefined when they were not measured.
 *
 * @example
 * ```ts
 * gcShare(150, 1_000); // 0.15
 * ```
 */
export function gcShare(gcMs: number | undefined, elapsedMs: number): number | undefined {
  return gcMs === undefined || !(elapsedMs > 0) ? undefined : gcMs / elapsedMs;
}
