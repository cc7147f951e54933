/**
 * The SQL client's view of the jobs of other processes (`SHOW JOBS`, `STOP
 * JOB`): this machine's job registry and each job's REST API, as `weir list`,
 * `weir stop` and `weir cancel` use them.
 */
import type { OtherJobs } from "../sql-client/other-jobs.ts";
import { findJob, isRunning, JobNotFoundError, listJobs, type JobAddress } from "./job-lookup.ts";
import { resolveLocation } from "../checkpoint/storage/checkpoint-location.ts";

/** How long `STOP JOB` without a savepoint waits for the cancelled job to end. */
const END_TIMEOUT_MS = 60_000;

/**
 * The jobs found through the registry at `address.home` (default: the user's), other than those of this process.
 *
 * @example
 * ```ts
 * new SqlSession(options, savepointDir, output, registryJobs());
 * ```
 */
export function registryJobs(address: JobAddress = {}): OtherJobs {
  const notOurs = (pid: number | undefined) => pid !== process.pid;
  return {
    list: async () =>
      (await listJobs(address)).filter((j) => isRunning(j) && notOurs(j.entry?.pid)).map((j) => ({ jobId: j.jobId, name: j.name, status: j.state, startTime: j.startTime })),
    stop: async (id, o) => {
      const job = await findJob(id, address).catch((e: Error) => {
        throw e instanceof JobNotFoundError ? new Error(`No job '${id}' in this session, and ${e.message}; SHOW JOBS lists them`) : e;
      });
      if (!o.savepoint) {
        await job.rest.cancel(job.jobId);
        await job.rest.awaitEnd(job.jobId, END_TIMEOUT_MS);
        return { jobId: job.jobId };
      }
      const dir = o.directory === undefined ? undefined : resolveLocation(o.directory);
      return { jobId: job.jobId, savepointPath: await job.rest.awaitSavepoint(job.jobId, await job.rest.triggerStop(job.jobId, dir, o.drain)) };
    },
  };
}
