/**
 * What the job of the bench's `cluster` section (bench/jobs/cluster-job.ts, a module that runs its job when
 * imported) leaves in its output folder, for bench/cluster.ts to read: `marks-<subtask>` (the instant, ms since
 * the epoch, of every `MARK_EVERY`-th record of the subtask, one a line) and `sink-<subtask>.json`
 * (a {@link ClusterSinkReport}).
 */

/** The marker notes the instant of every this many records of its subtask. */
export const MARK_EVERY = 4_096;

/** The jobs of the section. */
export type ClusterJobKind = "keyed-count" | "q5";

/** What a sink subtask writes at the end of input. */
export interface ClusterSinkReport {
  readonly rows: number;
  /** Sum (mod 2^32) of the rows' digests. */
  readonly digest: number;
}
