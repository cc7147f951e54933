/** Answers about the cluster: `/config`, `/overview`, `/taskmanagers`. */
import { closed, double, flag, hexId, int, list, long, map, text, type Schema } from "./shape.ts";

/** `GET /config`: what the dashboard needs to know about the server. */
export const dashboardConfig: Schema = closed({
  "refresh-interval": long,
  "timezone-name": text,
  "timezone-offset": int,
  "flink-version": text,
  "flink-revision": text,
  features: closed({ "web-submit": flag, "web-cancel": flag, "web-rescale": flag, "web-history": flag }),
});

/** `GET /overview`: counts of task managers, slots and jobs by state. */
export const clusterOverview: Schema = closed(
  {
    taskmanagers: int,
    "taskmanagers-blocked": int,
    "slots-total": int,
    "slots-available": int,
    "slots-free-and-blocked": int,
    "jobs-running": int,
    "jobs-finished": int,
    "jobs-cancelled": int,
    "jobs-failed": int,
    "flink-version": text,
    "flink-commit": text,
  },
  ["taskmanagers-blocked", "slots-free-and-blocked"],
);

const resources = closed(
  { cpuCores: double, taskHeapMemory: int, taskOffHeapMemory: int, managedMemory: int, networkMemory: int, extendedResources: map(double) },
);

const memoryFields = Object.fromEntries(
  ["frameworkHeap", "taskHeap", "frameworkOffHeap", "taskOffHeap", "networkMemory", "managedMemory", "jvmMetaspace", "jvmOverhead", "totalFlinkMemory", "totalProcessMemory"].map(
    (name) => [name, long],
  ),
);

/** `GET /taskmanagers`: one entry per task manager (a worker thread, or the process itself). */
export const taskManagers: Schema = closed({
  taskmanagers: list(
    closed(
      {
        id: hexId,
        path: text,
        dataPort: int,
        jmxPort: int,
        timeSinceLastHeartbeat: long,
        slotsNumber: int,
        freeSlots: int,
        totalResource: resources,
        freeResource: resources,
        hardware: closed({ cpuCores: int, physicalMemory: long, freeMemory: long, managedMemory: long }),
        // Weir has no JVM memory model to report: Flink's memory fields may be left out
        memoryConfiguration: closed(memoryFields, Object.keys(memoryFields)),
        blocked: flag,
      },
      ["blocked"],
    ),
  ),
});
