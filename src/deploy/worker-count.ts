/**
 * How many worker threads a job gets: the number asked for, but never more
 * than a few per CPU core (threads beyond that add no throughput, only
 * start-up time and memory: each worker holds its own copy of the job module
 * and its libraries), nor more than the plan gives subtasks to (a worker
 * without a subtask would only import the job module and wait).
 *
 * @example
 * ```ts
 * // a job of 3 subtasks, each on its own worker when there are enough
 * workerCount(64, (w) => Math.min(w, 3), 3, 2); // { workers: 3, note: "--workers 64 capped at 3: the job has 3 subtasks" }
 * ```
 */

/** Worker threads allowed per CPU core. */
export const WORKERS_PER_CORE = 2;

/**
 * The workers to start for `requested` workers on `cores` cores, and why if fewer.
 *
 * @param busyWorkers how many of `w` workers the execution plan gives at least one subtask
 * @param subtasks the job's number of subtasks
 */
export function workerCount(requested: number, busyWorkers: (w: number) => number, subtasks: number, cores: number): { workers: number; note?: string } {
  if (requested <= 0) return { workers: 0 };
  const coreCap = Math.max(1, cores) * WORKERS_PER_CORE;
  let workers = Math.max(1, Math.min(requested, coreCap));
  for (let busy = busyWorkers(workers); busy < workers; busy = busyWorkers(workers)) workers = Math.max(1, busy);
  if (workers === requested) return { workers };
  const why =
    workers === coreCap && requested > coreCap
      ? `${WORKERS_PER_CORE} per CPU core on ${cores} core${cores === 1 ? "" : "s"}`
      : workers === subtasks
        ? `the job has ${subtasks} subtask${subtasks === 1 ? "" : "s"}`
        : `the job's ${subtasks} subtasks keep only ${workers} workers busy (forward edges keep a pipeline on one worker)`;
  return { workers, note: `--workers ${requested} capped at ${workers}: ${why}` };
}
