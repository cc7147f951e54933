/**
 * The jobs of other processes on this machine (other `weir run` / `weir sql`
 * runs), as the SQL client's `SHOW JOBS` lists them and `STOP JOB` stops
 * them: a port that the command line fills in with the job registry and each
 * job's REST API (`src/cli/registry-jobs.ts`), so the SQL client itself
 * needs neither.
 */

/** A running job of another process, as `SHOW JOBS` shows it. */
export interface OtherJob {
  readonly jobId: string;
  readonly name: string;
  /** Flink's job status (RUNNING, RESTARTING, …). */
  readonly status: string;
  /** Epoch ms. */
  readonly startTime: number;
}

/**
 * @example
 * ```ts
 * const others: OtherJobs = registryJobs();
 * await others.list(); // [{ jobId: "3f2a…", name: "sums", status: "RUNNING", startTime: 1796… }]
 * await others.stop("3f2a", { savepoint: true, drain: false }); // { jobId: "3f2a…", savepointPath: "/…/savepoint-3f2a91-…" }
 * ```
 */
export interface OtherJobs {
  /** The running jobs of other processes. */
  list(): Promise<OtherJob[]>;
  /**
   * Stops the job `id` (or a unique prefix of at least 4 hex digits): with a savepoint into `directory` (the
   * job's own default when undefined), else cancels it; resolves once it stopped. Rejects with an error that
   * says what went wrong (no such job, server not reachable, the savepoint's failure cause).
   */
  stop(id: string, o: { savepoint: boolean; drain: boolean; directory?: string }): Promise<{ jobId: string; savepointPath?: string }>;
}
