/**
 * Where the high-availability services keep what they keep in etcd: every key
 * of a cluster is under `/weir/<cluster-id>/` (docs/high-availability.md, "Keys").
 */

/** Names that are one segment of a key: no `/`, nothing empty. */
const SEGMENT = /^[A-Za-z0-9._-]+$/;

/** Checkpoint ids are written with this many digits, so the keys' order is the ids' order. */
const ID_DIGITS = 16;

/**
 * The keys of one cluster, relative to nothing (absolute etcd keys).
 *
 * @example
 * ```ts
 * const keys = new HaKeys("default");
 * keys.leader("jobmanager");               // "/weir/default/leader/jobmanager"
 * keys.checkpoint("3f…e1", 7);             // "/weir/default/jobs/3f…e1/checkpoints/0000000000000007"
 * ```
 */
export class HaKeys {
  /** `/weir/<cluster-id>/`. */
  readonly root: string;

  constructor(clusterId: string) {
    this.root = `/weir/${segment(clusterId, "cluster id")}/`;
  }

  /** The leader key of `component` (e.g. "jobmanager"): its value is the leader's address, its create revision the leader's epoch. */
  leader(component: string): string {
    return `${this.root}leader/${segment(component, "component")}`;
  }

  /** The prefix of every submitted job. */
  jobGraphs(): string {
    return `${this.root}jobgraphs/`;
  }

  /** One submitted job. */
  jobGraph(jobId: string): string {
    return `${this.jobGraphs()}${segment(jobId, "job id")}`;
  }

  /** Everything of one job: its checkpoint id counter and completed checkpoints. */
  job(jobId: string): string {
    return `${this.root}jobs/${segment(jobId, "job id")}/`;
  }

  /** The next checkpoint id of a job. */
  checkpointCounter(jobId: string): string {
    return `${this.job(jobId)}checkpoint-counter`;
  }

  /** The prefix of a job's completed checkpoints. */
  checkpoints(jobId: string): string {
    return `${this.job(jobId)}checkpoints/`;
  }

  /** One completed checkpoint's handle. */
  checkpoint(jobId: string, checkpointId: number): string {
    if (!Number.isSafeInteger(checkpointId) || checkpointId < 1) throw new RangeError(`a checkpoint id is a whole number ≥ 1, not ${checkpointId}`);
    return `${this.checkpoints(jobId)}${String(checkpointId).padStart(ID_DIGITS, "0")}`;
  }
}

function segment(name: string, what: string): string {
  if (!SEGMENT.test(name)) throw new RangeError(`a ${what} in etcd keys is letters, digits, '.', '_' or '-', not '${name}'`);
  return name;
}
