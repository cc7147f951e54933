/**
 * Finding jobs for `weir list/cancel/stop/savepoint` and the SQL client: the
 * jobs of this machine through the job registry and each job's REST server,
 * or the jobs of one REST server given with `-m host:port`; a job named by
 * its id or a unique prefix of it (at least 4 hex digits).
 */
import { readJobRegistry, weirHome, type RegistryEntry } from "../deploy/job-registry.ts";
import { RestClient, RestUnreachableError, TERMINAL_STATES, type JobOverview } from "./rest-client.ts";
import { CliUsageError } from "./cli-usage-error.ts";

/** Where the jobs are: this machine's registry, or one REST server (`-m`); and the token for servers that ask for one. */
export interface JobAddress {
  /** `-m host:port` (or a `http://` address): a REST server instead of the registry. */
  readonly jobmanager?: string;
  /** `--web-token` or `WEIR_WEB_TOKEN`: for servers that ask for a token (a registry entry brings its own). */
  readonly token?: string;
  /** The registry's home (`weirHome()` by default). */
  readonly home?: string;
}

/** A job as `weir list` shows it. */
export interface ListedJob {
  readonly jobId: string;
  readonly name: string;
  /** Flink's job status; "STALE" for a registry entry whose process died; "UNREACHABLE" when its server does not answer. */
  readonly state: string;
  /** Epoch ms. */
  readonly startTime: number;
  readonly webUrl: string;
  /** The registry entry, when the job was found through the registry. */
  readonly entry?: RegistryEntry;
}

/** A job to act on: its full id and name, and a client of its REST server. */
export interface FoundJob {
  readonly jobId: string;
  readonly name: string;
  readonly rest: RestClient;
}

/** No job matches the given id (the message lists the running ones); or the prefix matches several. */
export class JobNotFoundError extends Error {
  override name = "JobNotFoundError";
}

/**
 * The base address of a `-m` value: `host:port`, or a `http(s)://` address.
 *
 * @example
 * ```ts
 * restAddress("localhost:8081"); // "http://localhost:8081"
 * ```
 */
export function restAddress(jobmanager: string): string {
  if (/^https?:\/\//.test(jobmanager)) return jobmanager.replace(/\/+$/, "");
  if (!/^[^\s/:]+:\d+$/.test(jobmanager) && !/^\[[0-9a-f:]+\]:\d+$/i.test(jobmanager)) throw new CliUsageError(`-m expects host:port, got '${jobmanager}'`);
  return `http://${jobmanager}`;
}

/**
 * Whether a listed job runs (or starts, restarts, is being cancelled): not ended, not a stale entry.
 *
 * @example
 * ```ts
 * const running = (await listJobs({})).filter(isRunning);
 * ```
 */
export function isRunning(job: ListedJob): boolean {
  return !TERMINAL_STATES.has(job.state) && job.state !== "STALE";
}

/**
 * The jobs of this machine (or of the `-m` server): running ones, the ended jobs their servers still know,
 * and the stale registry entries (state STALE); entries of another host (a shared `WEIR_HOME`) are left out. A server that does not answer lists its registered jobs as
 * UNREACHABLE (a process busy or stopping); oldest first.
 *
 * @example
 * ```ts
 * for (const job of (await listJobs({})).filter(isRunning)) console.log(job.jobId, job.state);
 * ```
 */
export async function listJobs(address: JobAddress): Promise<ListedJob[]> {
  if (address.jobmanager !== undefined) {
    const rest = new RestClient(restAddress(address.jobmanager), address.token);
    return (await rest.jobsOverview()).map((j) => listed(j, rest.url)).sort(byStart);
  }
  const entries = await readJobRegistry(address.home ?? weirHome());
  const jobs: ListedJob[] = [];
  const servers = new Map<string, RegistryEntry[]>();
  for (const e of entries) {
    if (e.liveness === "other-host") continue; // a home shared with another machine: its 127.0.0.1 is not ours
    if (e.liveness === "dead") jobs.push({ jobId: e.jobId, name: e.name, state: "STALE", startTime: e.startTime, webUrl: e.webUrl, entry: e });
    else servers.set(e.webUrl, [...(servers.get(e.webUrl) ?? []), e]);
  }
  await Promise.all(
    [...servers].map(async ([url, registered]) => {
      let overview: JobOverview[];
      try {
        overview = await new RestClient(url, registered[0]!.token ?? address.token).jobsOverview();
      } catch (e) {
        if (!(e instanceof RestUnreachableError)) throw e;
        for (const r of registered) jobs.push({ jobId: r.jobId, name: r.name, state: "UNREACHABLE", startTime: r.startTime, webUrl: url, entry: r });
        return;
      }
      for (const r of registered) {
        const j = overview.find((o) => o.jid === r.jobId);
        jobs.push(j ? { ...listed(j, url), entry: r } : { jobId: r.jobId, name: r.name, state: "UNKNOWN", startTime: r.startTime, webUrl: url, entry: r });
      }
      // ended jobs of the same process (an SQL client session's earlier INSERTs), no longer registered
      for (const j of overview) if (!registered.some((r) => r.jobId === j.jid)) jobs.push(listed(j, url));
    }),
  );
  return jobs.sort(byStart);
}

/**
 * The job `id` (its full id or a unique prefix of at least 4 hex digits) among the running jobs of this
 * machine (or of the `-m` server), with a client of its REST server.
 *
 * @throws JobNotFoundError when no running job matches (the message lists the running ones), when several
 *   do, or when only a stale registry entry does
 * @example
 * ```ts
 * const job = await findJob("3f2a", {});
 * await job.rest.cancel(job.jobId);
 * ```
 */
export async function findJob(id: string, address: JobAddress): Promise<FoundJob> {
  const prefix = jobIdPrefix(id);
  const jobs = await listJobs(address);
  const matches = jobs.filter((j) => j.jobId.startsWith(prefix));
  const running = matches.filter(isRunning);
  if (running.length === 1) {
    const j = running[0]!;
    return { jobId: j.jobId, name: j.name, rest: new RestClient(j.webUrl, j.entry?.token ?? address.token) };
  }
  const where = address.jobmanager === undefined ? "on this machine" : `at ${restAddress(address.jobmanager)}`;
  if (running.length > 1) throw new JobNotFoundError(`job id '${id}' matches ${running.length} jobs ${where}: ${running.map(describe).join(", ")}; give more of the id`);
  const ended = matches.find((j) => j.state === "STALE") ?? matches[0];
  if (ended?.state === "STALE") {
    throw new JobNotFoundError(
      `job ${ended.jobId} (${ended.name}) is not running: its process (pid ${ended.entry!.pid}) ended without removing its registry entry (weir list --all shows and removes stale entries)`,
    );
  }
  if (ended) throw new JobNotFoundError(`job ${ended.jobId} (${ended.name}) is not running: ${ended.state}`);
  const others = jobs.filter(isRunning);
  throw new JobNotFoundError(
    others.length === 0 ? `no job '${id}': no job runs ${where}` : `no job '${id}' runs ${where}; running: ${others.map(describe).join(", ")}`,
  );
}

/** A job id or prefix as given, lowercase; a usage error when it is not 4 to 32 hex digits. */
export function jobIdPrefix(id: string): string {
  if (!/^[0-9a-f]{4,32}$/i.test(id)) throw new CliUsageError(`a job id is 32 hex digits (a unique prefix of 4 or more will do), got '${id}'`);
  return id.toLowerCase();
}

function listed(j: JobOverview, webUrl: string): ListedJob {
  return { jobId: j.jid, name: j.name, state: j.state, startTime: j["start-time"], webUrl };
}

function describe(j: ListedJob): string {
  return `${j.jobId} (${j.name})`;
}

function byStart(a: ListedJob, b: ListedJob): number {
  return a.startTime - b.startTime;
}
