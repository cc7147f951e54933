/**
 * Flink's task cancellation watchdog for worker threads: once a stop was
 * asked for, a worker thread whose event loop has not turned for the timeout
 * runs user code that will not return (an endless loop), which no cancel can
 * reach. The watchdog then hands the names of those tasks to `onStuck` (the
 * CLI logs them and ends the process, which terminates the worker threads).
 * A slow savepoint or a slow cancel is not stuck: its threads keep turning.
 *
 * @example
 * ```ts
 * const watchdog = watchStoppingJob(client, 30_000, systemClock, (tasks) => {
 *   console.error(`${tasks.join(", ")} did not stop`);
 *   process.exit(1);
 * });
 * // … when the job ended
 * watchdog.stop();
 * ```
 */
import type { JobClient } from "../deploy/job-client.ts";
import type { Clock, TimerHandle } from "../util/clock.ts";

/** How often the worker threads' heartbeats are looked at. */
const CHECK_MS = 250;

/** Starts watching `client`'s worker threads, from now (the stop request). */
export function watchStoppingJob(
  client: Pick<JobClient, "getBlockedTasks">,
  timeoutMs: number,
  clock: Clock,
  onStuck: (tasks: string[]) => void,
): { stop(): void } {
  const since = clock.now();
  let timer: TimerHandle | undefined;
  const check = () => {
    if (clock.now() - since >= timeoutMs) {
      const stuck = client.getBlockedTasks(timeoutMs);
      if (stuck.length > 0) return onStuck(stuck);
    }
    timer = clock.setTimeout(check, Math.min(CHECK_MS, timeoutMs));
  };
  timer = clock.setTimeout(check, Math.min(CHECK_MS, timeoutMs));
  return { stop: () => timer?.cancel() };
}
