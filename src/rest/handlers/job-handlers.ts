/**
 * The jobs: `/jobs`, `/jobs/overview`, `/jobs/:jid` (details with vertices,
 * status timestamps and plan), `/jobs/:jid/config`, `/jobs/:jid/exceptions`,
 * `/jobs/:jid/metrics` and `PATCH /jobs/:jid?mode=cancel`.
 */
import { hideSensitiveValues } from "../../config/sensitive-values.ts";
import type { JobClient } from "../../deploy/job-client.ts";
import { vertexHexId } from "../../graph/vertex-hex-id.ts";
import { jobOf, type RestContext } from "../rest-context.ts";
import { RestError } from "../rest-error.ts";
import { ok, type Router } from "../router.ts";
import { countStates, subtaskStates, vertexState, type ExecutionState } from "./execution-states.ts";
import { ioMetrics } from "./io-metrics.ts";
import { jobPlanJson } from "./job-plan-json.ts";
import { jobTimes } from "./job-times.ts";
import { vertexName } from "../../graph/vertex-name.ts";
import { TaskMetricIndex } from "./task-metric-index.ts";
import { requestedMetrics } from "./metric-values-json.ts";
import { taskManagerId, taskManagerPath } from "./task-managers.ts";

/** Flink's JobDetails (an entry of `/jobs/overview`). */
export function jobOverviewJson(job: JobClient, now: number): object {
  const times = jobTimes(job, now);
  return {
    jid: job.getJobId(),
    name: job.jobName,
    state: job.getJobStatus(),
    "start-time": times.start,
    "end-time": times.end,
    duration: times.duration,
    "last-modification": times.lastModification,
    tasks: taskCounts(subtaskStates(job).flat()),
  };
}

/** Flink's `tasks` of a job overview: `total` and each state in lower case. */
function taskCounts(states: readonly ExecutionState[]): Record<string, number> {
  const out: Record<string, number> = { total: states.length };
  for (const [state, n] of Object.entries(countStates(states))) out[state.toLowerCase()] = n;
  return out;
}

function jobDetailsJson(job: JobClient, now: number): object {
  const times = jobTimes(job, now);
  const metrics = TaskMetricIndex.of(job);
  const attempt = job.getAttempt();
  const graph = job.getJobGraph();
  const states = subtaskStates(job);
  const vertices = graph.vertices.map((v, i) => {
    const state = vertexState(states[i]!);
    const ended = state === "FINISHED" || state === "CANCELED" || state === "FAILED";
    const end = ended ? (times.end === -1 ? now : times.end) : -1;
    const hex = vertexHexId(v);
    return {
      id: hex,
      name: vertexName(v),
      maxParallelism: v.maxParallelism,
      parallelism: v.parallelism,
      status: state,
      "start-time": attempt.startTime,
      "end-time": end,
      duration: (end === -1 ? now : end) - attempt.startTime,
      tasks: countStates(states[i]!),
      metrics: ioMetrics(Array.from({ length: v.parallelism }, (_, s) => (metrics.has(hex, s) ? metrics.task(hex, s) : undefined)), v.isSource),
    };
  });
  const timestamps: Record<string, number> = {};
  for (const s of ["INITIALIZING", "CREATED", "RUNNING", "FAILING", "FAILED", "CANCELLING", "CANCELED", "FINISHED", "RESTARTING", "SUSPENDED", "RECONCILING"])
    timestamps[s] = job.getStatusTimestamps()[s as keyof ReturnType<JobClient["getStatusTimestamps"]>] ?? 0;
  timestamps["INITIALIZING"] = times.start;
  return {
    jid: job.getJobId(),
    name: job.jobName,
    isStoppable: job.getJobStatus() === "RUNNING",
    state: job.getJobStatus(),
    "start-time": times.start,
    "end-time": times.end,
    duration: times.duration,
    maxParallelism: Math.max(...graph.vertices.map((v) => v.maxParallelism)),
    now,
    timestamps,
    vertices,
    "status-counts": countStates(states.map((s) => vertexState(s))),
    plan: jobPlanJson(job),
    // Weir's: what a job on a cluster waits for (task slots) before its tasks are deployed
    ...(job.getWaitingFor() === undefined ? {} : { "waiting-for": job.getWaitingFor() }),
  };
}

function jobConfigJson(job: JobClient, context: RestContext): object {
  const graph = job.getJobGraph();
  const configuration = hideSensitiveValues({ ...context.configuration(), ...job.getConfiguration() });
  return {
    jid: job.getJobId(),
    name: job.jobName,
    "execution-config": {
      "execution-mode": "PIPELINED",
      "restart-strategy": configuration["restart-strategy.type"] ?? "configured by the job",
      "job-parallelism": Math.max(...graph.vertices.map((v) => v.parallelism)),
      "object-reuse-mode": graph.vertices.some((v) => v.objectReuse),
      "user-config": { ...configuration },
    },
  };
}

/** Flink's JobExceptionsInfoWithHistory: the latest failure (root exception) and every failed attempt kept. */
function exceptionsJson(job: JobClient, maxExceptions: number): object {
  const failures = job.getFailureHistory();
  const plan = job.getExecutionPlan();
  const entries = failures
    .slice()
    .reverse()
    .map((f) => {
      const task = f.taskId === undefined ? undefined : plan.tasks.find((t) => t.taskId === f.taskId);
      return {
        exceptionName: f.error.name,
        stacktrace: f.error.stack ?? `${f.error.name}: ${f.error.message}`,
        timestamp: f.timestamp,
        ...(task && {
          taskName: `${vertexName(task.vertex)} (${task.subtaskIndex + 1}/${task.vertex.parallelism})`,
          location: taskManagerPath(job, task.worker),
          taskManagerId: taskManagerId(job, task.worker),
        }),
        failureLabels: {},
        concurrentExceptions: [],
      };
    });
  const latest = entries[0];
  return {
    ...(latest && { "root-exception": latest.stacktrace, timestamp: latest.timestamp }),
    "all-exceptions": [],
    truncated: false,
    exceptionHistory: { entries: entries.slice(0, maxExceptions), truncated: entries.length > maxExceptions },
  };
}

/**
 * Flink's job metrics (`GET /jobs/:jid/metrics`: the names without `?get`, `[{"id", "value"}]` with it): the
 * job's `numRecordsIn` (read by its sources) and `numRecordsOut` (written by its sinks) in the current attempt,
 * as a local run's summary counts them.
 */
function jobMetricsJson(job: JobClient, get: readonly string[] | undefined): object {
  const counts = job.getRecordCounts();
  const values = new Map([["numRecordsIn", counts.in], ["numRecordsOut", counts.out]]);
  if (get === undefined) return [...values.keys()].map((id) => ({ id }));
  return get.filter((id) => values.has(id)).map((id) => ({ id, value: String(values.get(id)) }));
}

/** Adds the job routes to `router`. */
export function jobRoutes(router: Router, context: RestContext): void {
  router
    .get("/jobs", () => ok({ jobs: context.jobs().map((j) => ({ id: j.getJobId(), status: j.getJobStatus() })) }))
    .get("/jobs/overview", () => ok({ jobs: context.jobs().map((j) => jobOverviewJson(j, context.now())) }))
    .get("/jobs/:jid", ({ params }) => ok(jobDetailsJson(jobOf(context, params["jid"]!), context.now())))
    .get("/jobs/:jid/config", ({ params }) => ok(jobConfigJson(jobOf(context, params["jid"]!), context)))
    .get("/jobs/:jid/exceptions", ({ params, query }) => {
      const max = query.get("maxExceptions");
      if (max !== null && !/^\d+$/.test(max)) throw new RestError(400, `maxExceptions must be a whole number ≥ 0, got '${max}'`);
      return ok(exceptionsJson(jobOf(context, params["jid"]!), max === null ? 16 : Number(max)));
    })
    .get("/jobs/:jid/metrics", ({ params, query }) => ok(jobMetricsJson(jobOf(context, params["jid"]!), requestedMetrics(query))))
    .patch("/jobs/:jid", ({ params, query }) => {
      const job = jobOf(context, params["jid"]!);
      const mode = (query.get("mode") ?? "cancel").toLowerCase();
      if (mode !== "cancel") throw new RestError(400, `mode '${mode}' is not supported: use mode=cancel, or POST /jobs/:jid/stop to stop with a savepoint`);
      const status = job.getJobStatus();
      if (status === "FINISHED" || status === "FAILED" || status === "CANCELED") throw new RestError(409, `Job ${job.getJobId()} is ${status}: nothing to cancel`);
      void job.cancel();
      return { status: 202, body: {} };
    });
}
