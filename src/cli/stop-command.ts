/**
 * `weir stop <jobId> [--savepoint-path DIR] [--drain] [-m host:port]`: stops
 * a running job with a savepoint through its REST API (Flink's `flink stop`):
 * the sinks commit, the job ends, and the savepoint's path is printed.
 * `--drain` ends event time first (every event-time window and timer fires),
 * for a job that ends for good.
 */
import { resolve } from "node:path";
import { getLogger } from "../util/logger.ts";
import { parseJobCommandArgs } from "./job-command-args.ts";
import { findJob } from "./job-lookup.ts";

/**
 * Runs `weir stop`; resolves with the exit code. The path goes to standard output, alone on its line.
 *
 * @example
 * ```ts
 * await runStopCommand(["3f2a", "--savepoint-path", "savepoints"]);
 * ```
 */
export async function runStopCommand(args: string[]): Promise<number> {
  const { values, positionals, address } = parseJobCommandArgs(
    "stop",
    args,
    { "savepoint-path": { type: "string", short: "p" }, drain: { type: "boolean", short: "d" } },
    [1, 1],
    "a job id (weir list shows them)",
  );
  const job = await findJob(positionals[0]!, address);
  const given = values["savepoint-path"] as string | undefined;
  const dir = given === undefined ? undefined : resolve(given);
  getLogger().info(`stopping job ${job.jobId} (${job.name}) with a savepoint${dir ? ` in ${dir}` : ""}${values["drain"] === true ? ", draining it first" : ""}`);
  const path = await job.rest.awaitSavepoint(job.jobId, await job.rest.triggerStop(job.jobId, dir, values["drain"] === true));
  getLogger().info(`job ${job.jobId} stopped with a savepoint (resume with --from-savepoint ${path})`);
  process.stdout.write(path + "\n");
  return 0;
}
