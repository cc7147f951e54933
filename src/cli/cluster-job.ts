/**
 * A job on a cluster, followed by `weir run -m` through the job manager's REST
 * API: its status, records and checkpoints every second (what the progress
 * line and the summary show), until it ends. A job manager that stops
 * answering (it restarts, or a standby takes over the leadership) is asked
 * again with a growing pause for a while, and the client says so; the job
 * runs on meanwhile.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { getLogger } from "../util/logger.ts";
import type { JobSnapshot } from "./job-report.ts";
import type { ReportedJob } from "./run-report.ts";
import { RestRequestError, RestUnreachableError, TERMINAL_STATES, type JobCheckpoints, type RestClient } from "./rest-client.ts";

/** The job manager did not answer for longer than the reconnect window: the job's outcome is unknown. */
export class JobManagerLostError extends Error {
  override name = "JobManagerLostError";
}

/** How a job is followed. */
export interface FollowSettings {
  /** Pause between two polls of a job manager that answers. */
  readonly pollMs: number;
  /** How long a job manager may not answer before the client gives up. */
  readonly reconnectMs: number;
  /** The first pause after a failed poll; it doubles, up to `maxBackoffMs`. */
  readonly firstBackoffMs: number;
  readonly maxBackoffMs: number;
}

/** One poll a second; a job manager that is away is asked again for up to 2 minutes (a standby's takeover, a restart). */
export const DEFAULT_FOLLOW: FollowSettings = { pollMs: 1_000, reconnectMs: 120_000, firstBackoffMs: 250, maxBackoffMs: 5_000 };

/**
 * @example
 * ```ts
 * const job = new ClusterJob(rest, jobId, "word-count");
 * const final = await job.ended; // "FINISHED", "FAILED", "CANCELED" or "SUSPENDED"
 * ```
 */
export class ClusterJob implements ReportedJob {
  private latest: JobSnapshot;
  private restored: ReturnType<ReportedJob["restoredCheckpoint"]> = null;
  private stopped = false;
  /** Settles with the job's final state; rejects with {@link JobManagerLostError} or an error the server answered. */
  readonly ended: Promise<string>;

  constructor(
    private rest: RestClient,
    readonly jobId: string,
    public jobName: string,
    private readonly settings: FollowSettings = DEFAULT_FOLLOW,
    /** Under high availability: the leading job manager's REST now (asked after each failed poll), or null while none leads. */
    private readonly locateLeader?: () => Promise<RestClient | null>,
  ) {
    this.latest = { status: "CREATED", recordsIn: 0, recordsOut: 0, checkpoints: 0, restarts: 0, at: performance.now() };
    this.ended = this.follow();
  }

  snapshot(): JobSnapshot {
    return this.latest;
  }

  restoredCheckpoint(): ReturnType<ReportedJob["restoredCheckpoint"]> {
    return this.restored;
  }

  /** Stops polling (the process is about to exit); `ended` then never settles. */
  stopFollowing(): void {
    this.stopped = true;
  }

  private async follow(): Promise<string> {
    const log = getLogger();
    let lostSince: number | undefined;
    let backoff = this.settings.firstBackoffMs;
    for (;;) {
      if (this.stopped) return new Promise<string>(() => {});
      let state: string;
      try {
        state = await this.poll();
      } catch (e) {
        const cause = lostCause(e, this.jobId);
        if (cause === undefined) throw e;
        const now = performance.now();
        if (lostSince === undefined) {
          lostSince = now;
          log.warn(`lost the job manager at ${this.rest.url} (${cause}): asking again for up to ${this.settings.reconnectMs / 1000} s; the job runs on meanwhile`);
        } else if (now - lostSince > this.settings.reconnectMs) {
          throw new JobManagerLostError(
            `the job manager at ${this.rest.url} did not answer for ${Math.round((now - lostSince) / 1000)} s (${cause}): job ${this.jobId} may still run (weir list -m shows it)`,
          );
        }
        await sleep(backoff);
        backoff = Math.min(this.settings.maxBackoffMs, backoff * 2);
        await this.relocate();
        continue;
      }
      if (lostSince !== undefined) log.info(`the job manager at ${this.rest.url} answers again after ${((performance.now() - lostSince) / 1000).toFixed(1)} s`);
      lostSince = undefined;
      backoff = this.settings.firstBackoffMs;
      if (TERMINAL_STATES.has(state)) return state;
      await sleep(this.settings.pollMs);
    }
  }

  /** Follows the leader: switches to the REST address of the job manager that leads now, if another one. */
  private async relocate(): Promise<void> {
    const leader = await this.locateLeader?.().catch(() => null);
    if (!leader || leader.url === this.rest.url) return;
    getLogger().info(`the leading job manager is at ${leader.url} now (was ${this.rest.url}): following job ${this.jobId} there`);
    this.rest = leader;
  }

  /** The REST API of the job manager followed now (the leader's, under high availability). */
  get server(): RestClient {
    return this.rest;
  }

  /** Reads the job once; its state. */
  private async poll(): Promise<string> {
    const [details, checkpoints, exceptions, records] = await Promise.all([
      this.rest.jobDetails(this.jobId),
      this.rest.jobCheckpoints(this.jobId),
      this.rest.jobExceptions(this.jobId),
      this.rest.jobMetrics(this.jobId, ["numRecordsIn", "numRecordsOut"]),
    ]);
    this.jobName = details.name || this.jobName;
    const failures = exceptions.exceptionHistory?.entries?.length ?? 0;
    const latest = checkpoints?.latest?.completed ?? undefined;
    const restored = checkpoints?.latest?.restored ?? undefined;
    this.restored = restored ? { checkpointId: restored.id, savepoint: restored.is_savepoint === true, ...(restored.external_path === undefined ? {} : { directory: restored.external_path }) } : null;
    this.latest = {
      status: details.state,
      // read by the sources and written by the sinks, as a local run counts them
      recordsIn: records.get("numRecordsIn") ?? 0,
      recordsOut: records.get("numRecordsOut") ?? 0,
      checkpoints: countCompleted(checkpoints),
      ...(latest && { lastCheckpoint: { id: latest.id, durationMs: latest.end_to_end_duration ?? 0 } }),
      // every failure of the job is one restart, but the last one of a job that failed
      restarts: Math.max(0, failures - (details.state === "FAILED" ? 1 : 0)),
      at: performance.now(),
    };
    return details.state;
  }
}

function countCompleted(checkpoints: JobCheckpoints | undefined): number {
  return checkpoints?.counts?.completed ?? 0;
}

/**
 * Why a poll failed when the job manager may come back (not reachable; a 5xx of a job manager that is starting or
 * not the leader; a 404 of a new leader that has not recovered the job yet); undefined for any other error.
 */
function lostCause(e: unknown, jobId: string): string | undefined {
  if (e instanceof RestUnreachableError) return e.reason;
  if (e instanceof RestRequestError && e.status >= 500) return `HTTP ${e.status}`;
  if (e instanceof RestRequestError && e.status === 404) return `it does not know job ${jobId}`;
  return undefined;
}
