/**
 * A job manager under high availability (`high-availability.type: etcd`): it
 * contends for the leadership of "jobmanager"; as leader it stores every
 * submitted job in the job graph store before running it, recovers the
 * stored jobs when it is granted the leadership (each from its latest
 * checkpoint committed in etcd), and removes a job's entries when the job
 * ends for good. When the leadership is lost it stops acting at once
 * (`JobManager.setLeading(false)`) and deletes nothing: the next leader
 * recovers the jobs. (docs/high-availability.md, "Use by a job manager".)
 */
import { Configuration } from "../config/configuration.ts";
import { NUM_RETAINED_CHECKPOINTS } from "../config/options/checkpointing-options.ts";
import type { JobClient } from "../deploy/job-client.ts";
import { newJobId } from "../deploy/job-id.ts";
import { getLogger } from "../util/logger.ts";
import { etcdJobHa } from "./etcd-job-ha.ts";
import type { EtcdHaServices } from "./ha/ha-services.ts";
import type { SubmittedJob } from "./ha/job-graph-store.ts";
import type { LeaderAddress, LeaderElection } from "./ha/leader-election.ts";
import type { LeaderInfo } from "./ha/leader-retrieval.ts";
import type { Leadership } from "./ha/leadership.ts";
import type { ClusterProgram, JobManager } from "./job-manager.ts";

/** A job to submit: its bundle, arguments and configuration as the job graph store keeps them. */
export type JobSubmission = Pick<SubmittedJob, "jarId" | "jarName" | "programArgs" | "configuration">;

/** Refused while this job manager does not lead. */
export class NotLeaderError extends Error {
  override readonly name = "NotLeaderError";
}

/**
 * @example
 * ```ts
 * const leading = new JobManagerLeadership(jm, ha, { rpcAddress: "10.0.0.5:6123", restAddress: "http://10.0.0.5:8081" }, programOf);
 * leading.start();
 * const jobId = await leading.submit({ jarId, programArgs: [], configuration: {} }); // stored, then run
 * await leading.stop();
 * ```
 */
export class JobManagerLeadership {
  private readonly election: LeaderElection;
  private current: Leadership | undefined;
  /** The look-up of the leader in etcd in flight, if any. */
  private lookup: Promise<LeaderInfo | null> | undefined;
  private readonly log = getLogger().child({ component: "jobmanager" });

  constructor(
    private readonly jm: JobManager,
    private readonly ha: EtcdHaServices,
    address: LeaderAddress,
    /** What runs a stored job: its program (the bundle in `high-availability.storageDir`). */
    private readonly programOf: (job: JobSubmission) => Promise<ClusterProgram>,
  ) {
    jm.setLeading(false, "not elected yet");
    this.election = ha.leaderElection({
      component: "jobmanager",
      address,
      onLeadershipGranted: (leadership) => {
        this.current = leadership;
        this.jm.setLeading(true, "elected");
        void this.recover(leadership);
      },
      onLeadershipLost: (leadership, reason) => {
        if (this.current === leadership) this.current = undefined;
        this.jm.setLeading(false, `the leadership was lost (${reason})`);
      },
    });
  }

  /** Whether this job manager leads now. */
  get leading(): boolean {
    return this.current?.active === true;
  }

  /**
   * Where this job manager's REST API answers from now (Flink: every job manager's REST endpoint answers through
   * the leader): "self" while it leads; else the REST address the leader published in etcd; "electing" while none
   * leads (nor when the leader key still names this job manager, which no longer leads). Concurrent calls share
   * one look-up in etcd.
   */
  restLeader(): Promise<"self" | "electing" | { readonly forwardTo: string }> {
    if (this.leading) return Promise.resolve("self");
    this.lookup ??= this.ha.currentLeader("jobmanager").finally(() => (this.lookup = undefined));
    return this.lookup.then((leader) => (leader === null || leader.contenderId === this.election.contenderId ? "electing" : { forwardTo: leader.restAddress }));
  }

  start(): void {
    this.election.start();
  }

  /** Stops contending; a leader revokes its lease, so a standby takes over at once (its jobs go on there). */
  async stop(): Promise<void> {
    await this.election.stop();
  }

  /**
   * Stores the job in the job graph store, then runs it; resolves with its id.
   *
   * @throws {NotLeaderError} when this job manager does not lead.
   */
  async submit(job: JobSubmission): Promise<string> {
    const leadership = this.current;
    if (!leadership?.active) throw new NotLeaderError("this job manager no longer leads (the leadership is changing): submit again");
    const jobId = newJobId();
    await this.ha.jobGraphStore(leadership).put({ ...job, jobId, submittedAt: Date.now() });
    try {
      await this.run(leadership, { ...job, jobId, submittedAt: Date.now() });
    } catch (e) {
      await this.ha.jobGraphStore(leadership).remove(jobId).catch(() => {});
      throw e;
    }
    return jobId;
  }

  /** Runs every stored job again under the new `leadership`, each from its latest committed checkpoint. */
  private async recover(leadership: Leadership): Promise<void> {
    let jobs: SubmittedJob[];
    try {
      jobs = await this.ha.jobGraphStore(leadership).list();
    } catch (e) {
      leadership.lose(`the submitted jobs could not be read: ${String(e)}`);
      return;
    }
    if (jobs.length > 0) this.log.info(`recovering ${jobs.length} job${jobs.length === 1 ? "" : "s"} as the new leader (epoch ${leadership.epoch})`);
    for (const job of jobs) {
      if (!leadership.active) return;
      await this.run(leadership, job).catch((e: unknown) => this.log.error({ jobId: job.jobId }, `job ${job.jobId} could not be recovered: ${String(e)}`));
    }
  }

  private async run(leadership: Leadership, job: SubmittedJob): Promise<JobClient> {
    const program = await this.programOf(job);
    const retained = Configuration.fromMap(program.configuration).get(NUM_RETAINED_CHECKPOINTS);
    const client = await this.jm.submit({ ...program, jobId: job.jobId, ha: (jobId) => etcdJobHa(this.ha, leadership, jobId, retained) });
    // the leadership ended while the job started: it is suspended like the others (unless a new term began)
    if (!leadership.active && this.current === undefined) this.jm.setLeading(false, "the leadership was lost while the job started");
    void client.getJobExecutionResult().then(
      () => this.ended(leadership, client),
      () => this.ended(leadership, client),
    );
    return client;
  }

  /** The job ended: for good when this leader still leads (finished, failed or cancelled), its entries go. */
  private async ended(leadership: Leadership, client: JobClient): Promise<void> {
    if (!leadership.active) return; // suspended: the next leader recovers it
    const jobId = client.getJobId();
    try {
      await this.ha.completedCheckpointStore(jobId, leadership, 1).removeAll();
      await this.ha.checkpointIdCounter(jobId, leadership).remove();
      await this.ha.jobGraphStore(leadership).remove(jobId);
    } catch (e) {
      this.log.warn({ jobId }, `the entries of ended job ${jobId} stay in etcd: ${String(e)}`);
    }
  }
}
