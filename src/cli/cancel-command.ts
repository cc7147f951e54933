/**
 * `weir cancel <jobId> [-m host:port]`: cancels a running job through its
 * REST API (`PATCH /jobs/:jid?mode=cancel`, Flink's `flink cancel`) and
 * waits until it ended. No savepoint: `weir stop` takes one.
 */
import { getLogger } from "../util/logger.ts";
import { parseJobCommandArgs } from "./job-command-args.ts";
import { findJob } from "./job-lookup.ts";

/** How long `weir cancel` waits for the job to end after the server accepted the cancel. */
const END_TIMEOUT_MS = 60_000;

/**
 * Runs `weir cancel`; resolves with the exit code.
 *
 * @example
 * ```ts
 * await runCancelCommand(["3f2a"]); // "Cancelled job 3f2a… (sums)."
 * ```
 */
export async function runCancelCommand(args: string[]): Promise<number> {
  const { positionals, address } = parseJobCommandArgs("cancel", args, {}, [1, 1], "a job id (weir list shows them)");
  const job = await findJob(positionals[0]!, address);
  getLogger().info(`cancelling job ${job.jobId} (${job.name}) at ${job.rest.url}`);
  await job.rest.cancel(job.jobId);
  const state = await job.rest.awaitEnd(job.jobId, END_TIMEOUT_MS);
  process.stdout.write(state === "CANCELED" || state === "ENDED" ? `Cancelled job ${job.jobId}.\n` : `Job ${job.jobId} ended before the cancel: ${state}.\n`);
  return 0;
}
