/** Answers about jobs: `/jobs`, `/jobs/overview`, `/jobs/:jid`, its config and its exceptions. */
import { closed, double, flag, hexId, int, list, long, map, oneOfText, text, type Schema } from "./shape.ts";

/** A job's state (Flink's JobStatus). */
export const jobState = oneOfText(
  "INITIALIZING", "CREATED", "RUNNING", "FAILING", "FAILED", "CANCELLING", "CANCELED", "FINISHED", "RESTARTING", "SUSPENDED", "RECONCILING",
);

/** A task's state (Flink's ExecutionState). */
export const taskState = oneOfText(
  "CREATED", "SCHEDULED", "DEPLOYING", "RUNNING", "FINISHED", "CANCELING", "CANCELED", "FAILED", "RECONCILING", "INITIALIZING",
);

/** Records and bytes in and out of a vertex or a subtask, and its busy / idle / back-pressured time. */
export const ioMetrics: Schema = closed({
  "read-bytes": long,
  "read-bytes-complete": flag,
  "write-bytes": long,
  "write-bytes-complete": flag,
  "read-records": long,
  "read-records-complete": flag,
  "write-records": long,
  "write-records-complete": flag,
  "accumulated-backpressured-time": long,
  "accumulated-idle-time": long,
  "accumulated-busy-time": double,
});

/** `GET /jobs`: the ids and states of the jobs. */
export const jobIds: Schema = closed({ jobs: list(closed({ id: hexId, status: jobState })) });

/** `GET /jobs/overview`: one summary per job. */
export const jobsOverview: Schema = closed({
  jobs: list(
    closed({
      jid: hexId,
      name: text,
      state: jobState,
      "start-time": long,
      "end-time": long,
      duration: long,
      "last-modification": long,
      tasks: map(int),
    }),
  ),
});

/** `GET /jobs/:jid`: the job, its vertices with their states and I/O, the times of its states, its plan. */
export const jobDetails: Schema = closed(
  {
    jid: hexId,
    name: text,
    isStoppable: flag,
    state: jobState,
    "start-time": long,
    "end-time": long,
    duration: long,
    maxParallelism: long,
    now: long,
    timestamps: map(long),
    vertices: list(
      closed({
        id: hexId,
        name: text,
        maxParallelism: int,
        parallelism: int,
        status: taskState,
        "start-time": long,
        "end-time": long,
        duration: long,
        tasks: map(int),
        metrics: ioMetrics,
      }),
    ),
    "status-counts": map(int),
    plan: { type: "object" },
  },
);

/** `GET /jobs/:jid/config`: the job's execution configuration. */
export const jobConfig: Schema = closed(
  {
    jid: hexId,
    name: text,
    "execution-config": closed(
      {
        "execution-mode": text,
        "restart-strategy": text,
        "job-parallelism": int,
        "object-reuse-mode": flag,
        "user-config": map(text),
      },
    ),
  },
);

const failureLabels = map(text);

const exceptionEntry = closed(
  {
    exceptionName: text,
    stacktrace: text,
    timestamp: long,
    taskName: text,
    location: text,
    taskManagerId: text,
    failureLabels,
  },
  ["taskName", "location", "taskManagerId"],
);

/** `GET /jobs/:jid/exceptions`: the failures of the job, newest first. */
export const jobExceptions: Schema = closed(
  {
    "root-exception": text,
    timestamp: long,
    "all-exceptions": list(
      closed({ exception: text, task: text, location: text, timestamp: long, taskManagerId: text }, ["task", "location", "taskManagerId"]),
    ),
    truncated: flag,
    exceptionHistory: closed({
      entries: list(closed({ ...exceptionEntry["properties"] as Record<string, Schema>, concurrentExceptions: list(exceptionEntry) }, ["taskName", "location", "taskManagerId"])),
      truncated: flag,
    }),
  },
  ["root-exception", "timestamp"],
);
