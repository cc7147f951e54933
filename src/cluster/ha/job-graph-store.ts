/**
 * The jobs submitted to a cluster, in etcd (Flink's `JobGraphStore`): what a
 * standby job manager needs to run them again once it leads — the job's id,
 * the bundle it runs (its jar id: the bundle's content address, the bundle
 * itself in `high-availability.storageDir`), its arguments and configuration.
 * A job is put when submitted and removed when it reaches a globally terminal
 * state (finished, cancelled, failed).
 */
import type { IKeyValue } from "etcd3";
import type { EtcdClient } from "./etcd-client.ts";
import type { HaKeys } from "./ha-keys.ts";
import type { Leadership } from "./leadership.ts";

/** A submitted job as it is recovered. */
export interface SubmittedJob {
  /** 32 hex digits (Flink's job id). */
  readonly jobId: string;
  /** The bundle: `<sha256>.mjs` or `<sha256>.sql`, as `POST /jars/upload` named it. */
  readonly jarId: string;
  /** The name the bundle was uploaded with (`job.sql`): a SQL script's job is named after it. Absent: not known. */
  readonly jarName?: string;
  /** `programArgsList` of the run request. */
  readonly programArgs: readonly string[];
  /** The job's configuration as text (`flinkConfiguration` of the run request, with its parallelism and savepoint settings). */
  readonly configuration: Readonly<Record<string, string>>;
  /** When it was submitted (milliseconds since the epoch). */
  readonly submittedAt: number;
}

/**
 * The submitted jobs of one cluster; writes are fenced by `leadership`.
 *
 * @example
 * ```ts
 * const jobs = new EtcdJobGraphStore(client, keys, leadership);
 * await jobs.put({ jobId, jarId: "9f…2a.mjs", programArgs: ["--rate", "10"], configuration: { "parallelism.default": "2" }, submittedAt: Date.now() });
 * for (const job of await jobs.list()) await run(job); // a new leader recovers them
 * await jobs.remove(jobId);                            // when it finished
 * ```
 */
export class EtcdJobGraphStore {
  constructor(
    private readonly client: EtcdClient,
    private readonly keys: HaKeys,
    private readonly leadership: Leadership,
  ) {}

  /**
   * Stores (or replaces) `job`.
   *
   * @throws {FencingError} when the leadership is over: the job was not stored.
   */
  async put(job: SubmittedJob): Promise<void> {
    await this.leadership.commit({ operation: `put job ${job.jobId}`, then: [this.client.put(this.keys.jobGraph(job.jobId)).value(JSON.stringify(job))] });
  }

  /**
   * Removes job `jobId` (nothing when it is not there).
   *
   * @throws {FencingError} when the leadership is over.
   */
  async remove(jobId: string): Promise<void> {
    await this.leadership.commit({ operation: `remove job ${jobId}`, then: [this.client.delete().key(this.keys.jobGraph(jobId))] });
  }

  /** Job `jobId`, or null. */
  async get(jobId: string): Promise<SubmittedJob | null> {
    const res = await this.client.get(this.keys.jobGraph(jobId)).exec();
    const kv = res.kvs[0];
    return kv === undefined ? null : jobOf(kv);
  }

  /** Every stored job, oldest submission first. */
  async list(): Promise<SubmittedJob[]> {
    const res = await this.client.getAll().prefix(this.keys.jobGraphs()).exec();
    return res.kvs.map(jobOf).sort((a, b) => a.submittedAt - b.submittedAt || a.jobId.localeCompare(b.jobId));
  }
}

function jobOf(kv: IKeyValue): SubmittedJob {
  const { jobId, jarId, jarName, programArgs, configuration, submittedAt } = JSON.parse(kv.value.toString("utf8")) as SubmittedJob;
  return { jobId, jarId, ...(jarName !== undefined && { jarName }), programArgs, configuration, submittedAt };
}
