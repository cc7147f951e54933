/**
 * The high-availability services of a cluster on etcd (Flink's
 * `HighAvailabilityServices`), made from the configuration: one etcd client
 * and the key space `/weir/<cluster-id>/`, handing out leader elections,
 * leader retrieval and the fenced stores of a leader.
 */
import { ConfigurationError } from "../../config/configuration-error.ts";
import type { Configuration } from "../../config/configuration.ts";
import { HA_CLUSTER_ID, HA_ETCD_ENDPOINTS, HA_ETCD_LEASE_TTL, HA_STORAGE_DIR, HA_TYPE } from "../../config/options/high-availability-options.ts";
import { type Clock, systemClock } from "../../util/clock.ts";
import type { Logger } from "../../util/logger.ts";
import { CheckpointIdCounter } from "./checkpoint-id-counter.ts";
import { EtcdCompletedCheckpointStore } from "./completed-checkpoint-store.ts";
import { connectEtcd, type EtcdClient } from "./etcd-client.ts";
import { HaKeys } from "./ha-keys.ts";
import { EtcdJobGraphStore } from "./job-graph-store.ts";
import { LeaderElection, type LeaderElectionOptions } from "./leader-election.ts";
import { currentLeader, type LeaderInfo, type LeaderWatch, watchLeader } from "./leader-retrieval.ts";
import type { Leadership } from "./leadership.ts";

/** The `high-availability.*` settings of an etcd cluster. */
export interface HaSettings {
  readonly endpoints: readonly string[];
  readonly clusterId: string;
  readonly storageDir: string;
  readonly leaseTtlMs: number;
}

/**
 * The etcd settings of `conf`, or null when `high-availability.type` is none.
 *
 * @throws {ConfigurationError} when the type is etcd and the endpoints or the storage directory are missing.
 * @example
 * ```ts
 * const settings = haSettings(Configuration.fromMap({
 *   "high-availability.type": "etcd",
 *   "high-availability.etcd.endpoints": "http://127.0.0.1:2379",
 *   "high-availability.storageDir": "/shared/weir/ha",
 * })); // { endpoints: ["http://127.0.0.1:2379"], clusterId: "default", storageDir: "/shared/weir/ha", leaseTtlMs: 15000 }
 * ```
 */
export function haSettings(conf: Configuration): HaSettings | null {
  if (conf.get(HA_TYPE) === "none") return null;
  const endpoints = conf.get(HA_ETCD_ENDPOINTS);
  if (endpoints === undefined) throw new ConfigurationError(HA_ETCD_ENDPOINTS.key, `high-availability.type etcd needs '${HA_ETCD_ENDPOINTS.key}' (the etcd client URLs)`);
  const storageDir = conf.get(HA_STORAGE_DIR);
  if (storageDir === undefined) throw new ConfigurationError(HA_STORAGE_DIR.key, `high-availability.type etcd needs '${HA_STORAGE_DIR.key}' (a directory every job manager reaches)`);
  return {
    endpoints: endpoints.split(",").map((u) => u.trim()),
    clusterId: conf.get(HA_CLUSTER_ID),
    storageDir,
    leaseTtlMs: conf.get(HA_ETCD_LEASE_TTL),
  };
}

/** What a contender says when it enters an election (the rest comes from the services). */
export type ContenderOptions = Pick<LeaderElectionOptions, "component" | "address" | "contenderId" | "onLeadershipGranted" | "onLeadershipLost">;

/**
 * A cluster's services on etcd. Requests to etcd fail after one lease TTL.
 *
 * @example
 * ```ts
 * const ha = await EtcdHaServices.connect(haSettings(conf)!);
 * const election = ha.leaderElection({
 *   component: "jobmanager", address: { rpcAddress: "10.0.0.5:6123", restAddress: "http://10.0.0.5:8081" },
 *   onLeadershipGranted: async (leadership) => {
 *     for (const job of await ha.jobGraphStore(leadership).list()) recover(job, leadership);
 *   },
 *   onLeadershipLost: () => suspendAllJobs(),
 * });
 * election.start();
 * ```
 */
export class EtcdHaServices {
  readonly keys: HaKeys;

  private constructor(
    /** The etcd client (for tests and tools; the services' methods cover what a cluster needs). */
    readonly client: EtcdClient,
    readonly settings: HaSettings,
    private readonly clock: Clock,
    private readonly logger: Logger | undefined,
  ) {
    this.keys = new HaKeys(settings.clusterId);
  }

  /** Services on the etcd of `settings`; `clock` decides lease keep-alives and step-down deadlines (default: the system clock). */
  static async connect(settings: HaSettings, options: { clock?: Clock; logger?: Logger } = {}): Promise<EtcdHaServices> {
    const client = await connectEtcd(settings.endpoints, settings.leaseTtlMs);
    return new EtcdHaServices(client, settings, options.clock ?? systemClock, options.logger);
  }

  /** A contender for the leadership of `options.component`; call `start()` on it. */
  leaderElection(options: ContenderOptions): LeaderElection {
    return new LeaderElection({ ...options, client: this.client, keys: this.keys, leaseTtlMs: this.settings.leaseTtlMs, clock: this.clock, logger: this.logger });
  }

  /** The current leader of `component`, or null. */
  currentLeader(component: string): Promise<LeaderInfo | null> {
    return currentLeader(this.client, this.keys, component);
  }

  /** Calls `listener` with the leader of `component` now and at every change. */
  watchLeader(component: string, listener: (leader: LeaderInfo | null) => void): Promise<LeaderWatch> {
    return watchLeader(this.client, this.keys, component, listener);
  }

  /** The checkpoint id counter of job `jobId`, written under `leadership`. */
  checkpointIdCounter(jobId: string, leadership: Leadership): CheckpointIdCounter {
    return new CheckpointIdCounter(this.client, this.keys, jobId, leadership);
  }

  /** The completed checkpoints of job `jobId` (the newest `retained`), written under `leadership`. */
  completedCheckpointStore(jobId: string, leadership: Leadership, retained: number): EtcdCompletedCheckpointStore {
    return new EtcdCompletedCheckpointStore(this.client, this.keys, jobId, leadership, retained);
  }

  /** The submitted jobs, written under `leadership`. */
  jobGraphStore(leadership: Leadership): EtcdJobGraphStore {
    return new EtcdJobGraphStore(this.client, this.keys, leadership);
  }

  /** Closes the client (stop elections first: a leader's `stop()` revokes its lease). */
  close(): void {
    this.client.close();
  }
}
