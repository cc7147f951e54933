/**
 * One job's checkpoints under a leading job manager with high availability on
 * etcd: the job master's {@link JobHa} made of the job's completed checkpoint
 * store and checkpoint id counter in etcd, both fenced by the leader's epoch
 * (docs/high-availability.md, "Use by a job manager").
 */
import { readSavepoint } from "../checkpoint/savepoint/savepoint.ts";
import type { JobHa } from "../runtime/execution/job-ha.ts";
import { FencingError } from "./ha/fencing-error.ts";
import type { EtcdHaServices } from "./ha/ha-services.ts";
import type { Leadership } from "./ha/leadership.ts";

/**
 * @example
 * ```ts
 * const jobHa = etcdJobHa(ha, leadership, jobId, 1);
 * const restore = await jobHa.latest(); // the newest checkpoint committed in etcd, read from its directory
 * const first = await jobHa.reserve(restore === null ? 1 : restore.checkpointId + 1, 16); // ids first … first + 15
 * ```
 */
export function etcdJobHa(ha: EtcdHaServices, leadership: Leadership, jobId: string, retained: number): JobHa {
  const store = ha.completedCheckpointStore(jobId, leadership, retained);
  const counter = ha.checkpointIdCounter(jobId, leadership);
  return {
    latest: async () => {
      const handle = await store.latest();
      return handle === null ? null : { ...(await readSavepoint(handle.pointer)), savepoint: false };
    },
    // the counter is past every id before it is used: a new leader never numbers a checkpoint an old one may write
    reserve: (from, count) => counter.reserve(count, from),
    commit: async (checkpoint) => {
      if (checkpoint.directory === undefined) throw new Error(`checkpoint ${checkpoint.checkpointId} has no directory: high availability needs a filesystem checkpoint storage`);
      // the handles this subsumes are deleted from storage by the job master's cleanup (committedIds, retainOnly)
      await store.add({ checkpointId: checkpoint.checkpointId, pointer: checkpoint.directory, completedAt: checkpoint.completedAt });
    },
    committedIds: async () => {
      if (!leadership.active) throw new FencingError(leadership.component, leadership.epoch, `list the checkpoints of job ${jobId} to clean up`);
      return (await store.list()).map((h) => h.checkpointId);
    },
  };
}
