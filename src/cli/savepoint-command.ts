/**
 * `weir savepoint <jobId> [DIR] [-m host:port]`: takes a savepoint of a
 * running job through its REST API (Flink's `flink savepoint`) while the job
 * goes on, and prints its path. DIR is relative to where the command runs;
 * without it the job's own savepoint directory (`--savepoint-dir` of its
 * `weir run`, or `state.savepoints.dir`).
 */
import { getLogger } from "../util/logger.ts";
import { parseJobCommandArgs } from "./job-command-args.ts";
import { findJob } from "./job-lookup.ts";
import { resolveLocation } from "../checkpoint/storage/checkpoint-location.ts";

/**
 * Runs `weir savepoint`; resolves with the exit code. The path goes to standard output, alone on its line.
 *
 * @example
 * ```ts
 * await runSavepointCommand(["3f2a", "savepoints"]); // prints /home/me/savepoints/savepoint-3f2a91-…
 * ```
 */
export async function runSavepointCommand(args: string[]): Promise<number> {
  const { positionals, address } = parseJobCommandArgs("savepoint", args, {}, [1, 2], "a job id (weir list shows them)");
  const job = await findJob(positionals[0]!, address);
  const dir = positionals[1] === undefined ? undefined : resolveLocation(positionals[1]);
  getLogger().info(`triggering a savepoint of job ${job.jobId} (${job.name})${dir ? ` into ${dir}` : ""}`);
  const path = await job.rest.awaitSavepoint(job.jobId, await job.rest.triggerSavepoint(job.jobId, dir));
  getLogger().info(`savepoint completed; the job goes on (resume a run from it with --from-savepoint ${path})`);
  process.stdout.write(path + "\n");
  return 0;
}
