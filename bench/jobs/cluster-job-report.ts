/**
 * What the job of the bench's `cluster` section (bench/jobs/cluster-job.ts, a module that runs its job when
 * imported) leaves in its output folder, for bench/cluster.ts to read: `marks-<subtask>` (bench/jobs/source-marks.ts) and `sink-<subtask>.json`
 * (a {@link ClusterSinkReport}).
 */

/** The jobs of the section. */
export type ClusterJobKind = "keyed-count" | "q5";

/** What a sink subtask writes at the end of input. */
export interface ClusterSinkReport {
  readonly rows: number;
  /** Sum (mod 2^32) of the rows' digests. */
  readonly digest: number;
}
