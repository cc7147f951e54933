/**
 * The task managers of a job in Flink's terms: each worker thread of
 * `--workers N` is one, or the job's own thread when the tasks run in-process.
 * Their ids are 32 hex digits, stable for a job and a worker.
 */
import { createHash } from "node:crypto";
import { availableParallelism, freemem, totalmem } from "node:os";
import type { JobClient } from "../../deploy/job-client.ts";
import type { ClusterTaskManagerView } from "../rest-context.ts";

/** The 32-hex id of worker `worker` of `job`. */
export function taskManagerId(job: JobClient, worker: number): string {
  return createHash("sha256").update(`weir-taskmanager:${job.getJobId()}:${worker}`).digest("hex").slice(0, 32);
}

/** How the task manager is named: `worker-0` for worker thread 0, `in-process` for the job's own thread (as metric scopes name it). */
export function taskManagerPath(job: JobClient, worker: number): string {
  return job.getWorkerThreadCount() === 0 ? "in-process" : `worker-${worker}`;
}

/** Flink's TaskManagerInfo of every task manager of `job`. */
export function taskManagersJson(job: JobClient): object[] {
  const tasks = job.getExecutionPlan().tasks;
  return Array.from({ length: Math.max(1, job.getWorkerThreadCount()) }, (_, worker) => {
    const slots = tasks.filter((t) => t.worker === worker).length;
    const resource = { cpuCores: 0, taskHeapMemory: 0, taskOffHeapMemory: 0, managedMemory: 0, networkMemory: 0, extendedResources: {} };
    return {
      id: taskManagerId(job, worker),
      path: taskManagerPath(job, worker),
      dataPort: -1,
      jmxPort: -1,
      timeSinceLastHeartbeat: 0,
      slotsNumber: slots,
      freeSlots: 0,
      totalResource: resource,
      freeResource: resource,
      hardware: { cpuCores: availableParallelism(), physicalMemory: totalmem(), freeMemory: freemem(), managedMemory: 0 },
      memoryConfiguration: {},
      blocked: false,
    };
  });
}

/** Flink's TaskManagerInfo of a cluster's task manager process, with the hardware it reported (no managed memory: 0). */
export function clusterTaskManagerJson(tm: ClusterTaskManagerView, now: number): object {
  const resource = { cpuCores: 0, taskHeapMemory: 0, taskOffHeapMemory: 0, managedMemory: 0, networkMemory: 0, extendedResources: {} };
  return {
    id: tm.id,
    path: `weir-taskmanager@${tm.host} (pid ${tm.pid})`,
    dataPort: -1,
    jmxPort: -1,
    timeSinceLastHeartbeat: Math.max(0, now - tm.lastHeartbeat),
    slotsNumber: tm.slots,
    freeSlots: tm.freeSlots,
    totalResource: resource,
    freeResource: resource,
    hardware: { ...tm.hardware, managedMemory: 0 },
    memoryConfiguration: {},
    blocked: false,
  };
}
