/**
 * `weir run -m host:port job.ts` and `weir sql -m host:port -f job.sql`
 * (Flink's `flink run -m`): uploads the job's bundle (or the script) to the
 * job manager (`POST /jars/upload`), runs it (`POST /jars/:jarid/run` with the
 * job's arguments, `-p`, `-s`, `--allow-non-restored-state` and the other
 * flags and `-D` options as its configuration), then, attached, follows the
 * job as a local run shows one (progress line, summary line, exit code) and
 * stops it on Ctrl-C / SIGTERM as a local run does; `--detached` prints the
 * job id and returns.
 */
import { resolve } from "node:path";
import type { Configuration } from "../config/configuration.ts";
import { SAVEPOINT_DIRECTORY } from "../config/options/state-options.ts";
import { systemClock } from "../util/clock.ts";
import { getLogger } from "../util/logger.ts";
import { haSettings } from "../cluster/ha/index.ts";
import { ClusterJob, DEFAULT_FOLLOW, JobManagerLostError } from "./cluster-job.ts";
import { leaderRest } from "./leader-rest.ts";
import { WEB_TOKEN_ENV } from "./job-command-args.ts";
import { restAddress } from "./job-lookup.ts";
import { RestClient, RestRequestError, RestUnreachableError, type JobExceptions } from "./rest-client.ts";
import type { JarRunRequest } from "../rest/handlers/jar-handlers.ts";
import { RunReport } from "./run-report.ts";
import { StopRequests } from "./stop-requests.ts";

/** What goes to the cluster. */
export interface ClusterProgram {
  /** How messages name it (`job.ts`, `job.sql`). */
  readonly label: string;
  /** The bytes to upload and their name (`<name>.mjs`, `<name>.sql`); may throw a located error (then nothing is submitted). */
  readonly upload: () => Promise<{ readonly code: Uint8Array; readonly filename: string }>;
  /** The program's arguments (`getJobArgs()`). */
  readonly args: readonly string[];
}

/** The flags of a run on a cluster. */
export interface ClusterFlags {
  /** `-m host:port` (or an `http://` address). */
  readonly jobmanager: string;
  /** The command line's configuration (the flags and `-D`). */
  readonly configuration: Configuration;
  /** `--detached` / `-d`: print the job id and return. */
  readonly detached: boolean;
  /** `--web-token`, else WEIR_WEB_TOKEN: for a job manager that asks for one. */
  readonly token?: string;
}

/** Keys that the run request carries in its own fields, and those of this process only (its REST server), not sent. */
const NOT_SENT = new Set(["execution.savepoint.path", "execution.savepoint.ignore-unclaimed-state", "rest.token"]);

/**
 * The run request of a job with the command line's configuration `c` and arguments `args`.
 *
 * @example
 * ```ts
 * runRequest(commandLineConfiguration({ parallelism: "2", D: ["a.b=c"] }, false), ["in.txt"]);
 * // { programArgsList: ["in.txt"], parallelism: 2, flinkConfiguration: { "parallelism.default": "2", "a.b": "c" } }
 * ```
 */
export function runRequest(c: Configuration, args: readonly string[]): JarRunRequest {
  const map = c.toMap();
  const savepoint = map["execution.savepoint.path"];
  const parallelism = map["parallelism.default"];
  const flinkConfiguration = Object.fromEntries(Object.entries(map).filter(([k]) => !NOT_SENT.has(k)));
  // a savepoint directory of this machine: absolute, for a job manager with another working directory
  if (flinkConfiguration["state.savepoints.dir"] !== undefined) flinkConfiguration["state.savepoints.dir"] = absolute(flinkConfiguration["state.savepoints.dir"]);
  if (flinkConfiguration["state.checkpoints.dir"] !== undefined) flinkConfiguration["state.checkpoints.dir"] = absolute(flinkConfiguration["state.checkpoints.dir"]);
  return {
    programArgsList: [...args],
    ...(parallelism !== undefined && { parallelism: Number(parallelism) }),
    ...(savepoint !== undefined && { savepointPath: absolute(savepoint) }),
    ...(map["execution.savepoint.ignore-unclaimed-state"] === "true" && { allowNonRestoredState: true }),
    flinkConfiguration,
  };
}

/** A local path made absolute (the job manager's working directory is another); a URL (`s3://…`, `file:…`) as it is. */
function absolute(path: string): string {
  return /^[a-z][a-z0-9+.-]*:/i.test(path) ? path : resolve(path);
}

/**
 * Submits `program` to the job manager of `flags` and, attached, follows its job to the end; resolves with the
 * exit code: 0 when the job finished (or stopped with a savepoint), 1 when it failed, was cancelled by someone
 * else, or the job manager was lost; 130 when this client cancelled it (Ctrl-C twice).
 *
 * @example
 * ```ts
 * const code = await runOnCluster({ label: "job.ts", upload: async () => bundleJob(resolve("job.ts")), args: [] },
 *   { jobmanager: "localhost:8081", configuration, detached: false });
 * ```
 */
export async function runOnCluster(program: ClusterProgram, flags: ClusterFlags): Promise<number> {
  const log = getLogger();
  const rest = new RestClient(restAddress(flags.jobmanager), flags.token);
  let job: ClusterJob | undefined;
  let report: RunReport | undefined;
  let savepoint: string | undefined;
  let cancelledHere = false;
  /** The stop with a savepoint in flight: the job may end before its answer arrives with the path. */
  let stopping: Promise<unknown> | undefined;
  const requests = new StopRequests(systemClock);
  const explicitSavepointDir = flags.configuration.contains(SAVEPOINT_DIRECTORY) ? resolve(flags.configuration.get(SAVEPOINT_DIRECTORY)) : undefined;
  const cancel = (j: ClusterJob) => {
    cancelledHere = true;
    j.server.cancel(j.jobId).catch((e: Error) => log.error(`the cancel of job ${j.jobId} failed: ${e.message}`));
  };
  const stop = (signal: NodeJS.Signals) => {
    const request = requests.receive(signal);
    if (request === "duplicate") return;
    // nothing submitted yet (bundling, uploading): nothing to stop
    if (!job) process.exit(130);
    report?.stopProgress();
    if (request === "cancel") {
      log.info(`cancelling job ${job.jobId}`);
      cancel(job);
      return;
    }
    const j = job;
    // the state now, not at the last poll (the job may have started since)
    j.server.jobDetails(j.jobId).then(
      (d) => stopOrCancel(j, d.state),
      () => stopOrCancel(j, j.snapshot().status),
    );
  };
  /** Stops job `j` in state `status` with a savepoint, or cancels it when it is still starting or waits to restart. */
  const stopOrCancel = (j: ClusterJob, status: string) => {
    if (cancelledHere) return; // a second request cancelled it meanwhile
    if (status === "RESTARTING" || status === "CREATED" || status === "INITIALIZING") {
      log.info(`job ${j.jobId} is ${status === "RESTARTING" ? "waiting to restart after a failure" : "still starting"}: cancelling it now, without a savepoint`);
      cancel(j);
      return;
    }
    log.info(`stopping job ${j.jobId} with a savepoint in ${explicitSavepointDir ?? "the job manager's state.savepoints.dir"} (again to cancel)`);
    stopping = j.server
      .triggerStop(j.jobId, explicitSavepointDir, false)
      .then((id) => j.server.awaitSavepoint(j.jobId, id))
      .then(
        (path) => (savepoint = path),
        (e: Error) => {
          log.error(`the savepoint failed (${e.message}); cancelling the job`);
          cancel(j);
        },
      );
  };
  /** After the end, as a local run: the stop's signal delivered again is swallowed, even late; any other signal ends the process. */
  const afterEnd = (signal: NodeJS.Signals) => {
    if (requests.receiveAfterEnd(signal) === "ignore") return;
    process.off("SIGINT", afterEnd);
    process.off("SIGTERM", afterEnd);
    process.kill(process.pid, signal);
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  try {
    const { code, filename } = await program.upload();
    log.info(`uploading ${program.label} (${filename}, ${code.length} bytes) to the job manager at ${rest.url}`);
    const jarId = await rest.uploadJar(code, filename);
    const jobId = await rest.runJar(jarId, runRequest(flags.configuration, program.args));
    if (flags.detached) {
      log.info(`submitted job ${jobId} (${program.label}) to ${rest.url}: weir list -m ${flags.jobmanager} shows it, weir cancel -m ${flags.jobmanager} ${jobId} cancels it`);
      process.stdout.write(`${jobId}\n`);
      return 0;
    }
    log.info(`submitted job ${jobId} (${program.label}) to ${rest.url}; following it (Ctrl-C stops it with a savepoint)`);
    const ha = haSettings(flags.configuration);
    job = new ClusterJob(rest, jobId, program.label, DEFAULT_FOLLOW, ha ? leaderRest(ha, flags.token) : undefined);
    report = new RunReport(job);
    const state = await job.ended;
    await stopping;
    report.stopProgress();
    if (state === "FINISHED") {
      if (savepoint) {
        log.info({ savepoint }, `job '${job.jobName}' stopped with savepoint ${savepoint}`);
        log.info(`resume with -s ${savepoint}`);
      } else report.noteAlreadyFinished();
      report.summary(savepoint ? "stopped" : "finished", 0);
      return 0;
    }
    if (state === "CANCELED") {
      const code = cancelledHere ? 130 : 1;
      if (!cancelledHere) log.error(`job ${jobId} was cancelled (not by this client)`);
      report.summary("cancelled", code);
      return code;
    }
    log.error(`job '${job.jobName}' ${state}: ${rootCause(await job.server.jobExceptions(jobId).catch(() => ({}) as JobExceptions))}`);
    report.summary("failed", 1);
    return 1;
  } catch (e) {
    report?.stopProgress();
    log.error(describeClusterError(e, program.label));
    return 1;
  } finally {
    job?.stopFollowing();
    process.off("SIGINT", stop);
    process.off("SIGTERM", stop);
    process.on("SIGINT", afterEnd);
    process.on("SIGTERM", afterEnd);
  }
}

/** The first line of the job's root exception, or the latest entry of its exception history. */
function rootCause(exceptions: JobExceptions): string {
  const text = exceptions["root-exception"] ?? exceptions.exceptionHistory?.entries?.[0]?.stacktrace;
  if (!text) return "no exception reported";
  const lines = text.split("\n");
  const at = lines.find((l) => /^\s+at /.test(l) && !l.includes("/node_modules/") && !l.includes("node:internal"));
  return at ? `${lines[0]} (${at.trim()})` : lines[0]!;
}

/** One or more lines for an error of a submission. */
function describeClusterError(e: unknown, label: string): string {
  if (e instanceof RestRequestError) {
    const hint = e.status === 401 ? ` (the job manager asks for its token: give it with --web-token or ${WEB_TOKEN_ENV})` : "";
    return `the job manager did not run ${label}: ${e.message}${hint}`;
  }
  if (e instanceof RestUnreachableError || e instanceof JobManagerLostError) return e.message.replace("the job's REST server", "the job manager");
  return e instanceof Error ? e.message : String(e);
}
