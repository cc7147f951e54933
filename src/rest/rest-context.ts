/**
 * What every handler reads: the jobs of this process, its configuration, and
 * the savepoint operations triggered through the API. Plus the lookups of a
 * job and a vertex by their ids, which answer 404 when there is none.
 */
import type { JobClient } from "../deploy/job-client.ts";
import type { JobVertex } from "../graph/job-graph.ts";
import { vertexHexId } from "../graph/vertex-hex-id.ts";
import { RestError } from "./rest-error.ts";
import type { SavepointOperations } from "./savepoint-operations.ts";

export interface RestContext {
  /** Every job this process started, running or ended, oldest first. */
  jobs(): readonly JobClient[];
  /** The configuration (Flink keys), as shown by `/jobs/:jid/config` and used for defaults (`state.savepoints.dir`). */
  configuration(): Readonly<Record<string, string>>;
  readonly operations: SavepointOperations;
  /** Epoch ms now. */
  now(): number;
  /** A cluster's task managers (a `weir jobmanager`); absent: the worker threads of this process's jobs are its task managers. */
  taskManagers?(): readonly ClusterTaskManagerView[];
}

/** A registered task manager of a cluster, as `/overview` and `/taskmanagers` show it. */
export interface ClusterTaskManagerView {
  /** Its resource id: 32 hex digits. */
  readonly id: string;
  readonly host: string;
  readonly pid: number;
  readonly slots: number;
  readonly freeSlots: number;
  /** Epoch ms of its last heartbeat. */
  readonly lastHeartbeat: number;
  /** What it reported of its host (bytes, cores). */
  readonly hardware: { readonly cpuCores: number; readonly physicalMemory: number; readonly freeMemory: number };
}

/** The job with id `jid`; a 404 when there is none, a 400 when `jid` is not 32 hex digits. */
export function jobOf(context: RestContext, jid: string): JobClient {
  if (!/^[0-9a-f]{32}$/.test(jid)) throw new RestError(400, `'${jid}' is not a job id: 32 hexadecimal digits expected`);
  const job = context.jobs().find((j) => j.getJobId() === jid);
  if (!job) throw new RestError(404, `Job ${jid} not found`);
  return job;
}

/** The vertex `vid` of `job`; a 404 when it has none. */
export function vertexOf(job: JobClient, vid: string): JobVertex {
  const vertex = job.getJobGraph().vertices.find((v) => vertexHexId(v) === vid);
  if (!vertex) throw new RestError(404, `Vertex ${vid} not found in job ${job.getJobId()}`);
  return vertex;
}
