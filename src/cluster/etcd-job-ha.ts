/**
 * One job's checkpoints under a leading job manager with high availability on
 * etcd: the job master's {@link JobHa} made of the job's completed checkpoint
 * store and checkpoint id counter in etcd, both fenced by the leader's epoch
 * (docs/high-availability.md, "Use by a job manager").
 */
import { readSavepoint } from "../checkpoint/savepoint/savepoint.ts";
import type { JobHa } from "../runtime/execution/job-ha.ts";
import type { EtcdHaServices } from "./ha/ha-services.ts";
import type { Leadership } from "./ha/leadership.ts";

/**
 * @example
 * ```ts
 * const jobHa = etcdJobHa(ha, leadership, jobId, 1);
 * const restore = await jobHa.latest(); // the newest checkpoint committed in etcd, read from its directory
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
    reserveFrom: (next) => counter.advanceTo(next),
    commit: async (checkpoint) => {
      if (checkpoint.directory === undefined) throw new Error(`checkpoint ${checkpoint.checkpointId} has no directory: high availability needs a filesystem checkpoint storage`);
      // the counter first: a new leader never numbers a checkpoint below one that may be committed
      await counter.advanceTo(checkpoint.checkpointId + 1);
      // the handles this subsumes keep their data: storage's retention is off under high availability (docs/high-availability.md)
      await store.add({ checkpointId: checkpoint.checkpointId, pointer: checkpoint.directory, completedAt: checkpoint.completedAt });
    },
  };
}
