/**
 * How many worker threads a job gets: the number asked for, but never more
 * than the job has subtasks (a worker without a subtask would only import the
 * job module and wait) nor more than a few per CPU core (threads beyond that
 * add no throughput, only start-up time and memory: each worker holds its own
 * copy of the job module and its libraries).
 *
 * @example
 * ```ts
 * workerCount(64, 3, 2); // { workers: 3, note: "--workers 64 capped at 3: the job has 3 subtasks" }
 * ```
 */

/** Worker threads allowed per CPU core. */
export const WORKERS_PER_CORE = 2;

/** The workers to start for `requested` workers, `subtasks` subtasks on `cores` cores, and why if fewer. */
export function workerCount(requested: number, subtasks: number, cores: number): { workers: number; note?: string } {
  if (requested <= 0) return { workers: 0 };
  const coreCap = Math.max(1, cores) * WORKERS_PER_CORE;
  const workers = Math.max(1, Math.min(requested, subtasks, coreCap));
  if (workers === requested) return { workers };
  const why =
    workers === subtasks
      ? `the job has ${subtasks} subtask${subtasks === 1 ? "" : "s"}`
      : `${WORKERS_PER_CORE} per CPU core on ${cores} core${cores === 1 ? "" : "s"}`;
  return { workers, note: `--workers ${requested} capped at ${workers}: ${why}` };
}
