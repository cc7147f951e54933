/**
 * One vertex of a job: `/jobs/:jid/vertices/:vid` (its subtasks with their
 * state and IO metrics), `…/backpressure` (from back-pressured, busy and idle
 * time per second), `…/watermarks`, `…/metrics?get=…`, `…/subtasks/metrics`
 * (aggregated over subtasks) and `…/subtasktimes`.
 */
import type { JobClient } from "../../deploy/job-client.ts";
import type { JobVertex } from "../../graph/job-graph.ts";
import { vertexHexId } from "../../graph/vertex-hex-id.ts";
import { vertexName } from "../../graph/vertex-name.ts";
import { jobOf, vertexOf, type RestContext } from "../rest-context.ts";
import { ok, type RestRequest, type Router } from "../router.ts";
import { subtaskStates } from "./execution-states.ts";
import { ioMetrics } from "./io-metrics.ts";
import { jobTimes } from "./job-times.ts";
import { aggregateJson, metricValueText, requestedAggregations, requestedMetrics, requestedSubtasks } from "./metric-values-json.ts";
import { TaskMetricIndex } from "./task-metric-index.ts";
import { taskManagerId, taskManagerPath } from "./task-managers.ts";

/** Flink's levels of a back-pressure ratio. */
function backPressureLevel(ratio: number): "ok" | "low" | "high" {
  return ratio <= 0.1 ? "ok" : ratio <= 0.5 ? "low" : "high";
}

function subtaskWorker(job: JobClient, vertex: JobVertex, index: number): number {
  return job.getExecutionPlan().tasks.find((t) => t.vertex === vertex && t.subtaskIndex === index)?.worker ?? 0;
}

function vertexDetailsJson(job: JobClient, vertex: JobVertex, now: number): object {
  const hex = vertexHexId(vertex);
  const index = TaskMetricIndex.of(job);
  const states = subtaskStates(job)[job.getJobGraph().vertices.indexOf(vertex)]!;
  const attempt = job.getAttempt();
  const end = jobTimes(job, now).end;
  return {
    id: hex,
    name: vertexName(vertex),
    parallelism: vertex.parallelism,
    maxParallelism: vertex.maxParallelism,
    now,
    subtasks: states.map((status, i) => {
      const worker = subtaskWorker(job, vertex, i);
      return {
        subtask: i,
        status,
        attempt: attempt.number,
        host: "127.0.0.1",
        "start-time": attempt.startTime,
        "end-time": end,
        duration: (end === -1 ? now : end) - attempt.startTime,
        metrics: ioMetrics([index.has(hex, i) ? index.task(hex, i) : undefined], vertex.isSource),
        "taskmanager-id": taskManagerId(job, worker),
        "status-duration": {},
      };
    }),
  };
}

function backPressureJson(job: JobClient, vertex: JobVertex, now: number): object {
  const hex = vertexHexId(vertex);
  const index = TaskMetricIndex.of(job);
  const subtasks = Array.from({ length: vertex.parallelism }, (_, i) => {
    const m = index.task(hex, i);
    const ratio = (m.get("backPressuredTimeMsPerSecond") ?? 0) / 1000;
    return {
      subtask: i,
      "attempt-number": job.getAttempt().number,
      backpressureLevel: backPressureLevel(ratio),
      ratio,
      idleRatio: (m.get("idleTimeMsPerSecond") ?? 0) / 1000,
      busyRatio: (m.get("busyTimeMsPerSecond") ?? 0) / 1000,
    };
  });
  return {
    status: "ok",
    backpressureLevel: backPressureLevel(Math.max(0, ...subtasks.map((s) => s.ratio))),
    "end-timestamp": now,
    subtasks,
  };
}

/** `<subtask>.<metric>` ids (task and operator scope) with their values. */
function vertexMetricValues(job: JobClient, vertex: JobVertex, subtasks: readonly number[]): Map<string, number> {
  const hex = vertexHexId(vertex);
  const index = TaskMetricIndex.of(job);
  const out = new Map<string, number>();
  for (const i of subtasks) for (const [name, v] of index.all(hex, i)) out.set(`${i}.${name}`, v);
  return out;
}

function metricsJson(job: JobClient, vertex: JobVertex, request: RestRequest): object {
  const values = vertexMetricValues(job, vertex, Array.from({ length: vertex.parallelism }, (_, i) => i));
  const get = requestedMetrics(request.query);
  if (get === undefined) return [...values.keys()].map((id) => ({ id }));
  return get.filter((id) => values.has(id)).map((id) => ({ id, value: metricValueText(values.get(id)!) }));
}

function subtaskMetricsJson(job: JobClient, vertex: JobVertex, request: RestRequest): object {
  const subtasks = requestedSubtasks(request.query, vertex.parallelism);
  const aggs = requestedAggregations(request.query);
  const hex = vertexHexId(vertex);
  const index = TaskMetricIndex.of(job);
  const byName = new Map<string, number[]>();
  for (const i of subtasks) {
    for (const [name, v] of index.all(hex, i)) {
      let list = byName.get(name);
      if (!list) byName.set(name, (list = []));
      list.push(v);
    }
  }
  const get = requestedMetrics(request.query);
  if (get === undefined) return [...byName.keys()].map((id) => ({ id }));
  return get.filter((id) => byName.has(id)).map((id) => aggregateJson(id, byName.get(id)!, aggs));
}

function subtaskTimesJson(job: JobClient, vertex: JobVertex, now: number): object {
  const attempt = job.getAttempt();
  const timestamps = job.getStatusTimestamps();
  return {
    id: vertexHexId(vertex),
    name: vertexName(vertex),
    now,
    subtasks: Array.from({ length: vertex.parallelism }, (_, i) => ({
      subtask: i,
      host: taskManagerPath(job, subtaskWorker(job, vertex, i)),
      duration: now - attempt.startTime,
      timestamps: {
        CREATED: timestamps.CREATED ?? attempt.startTime,
        DEPLOYING: attempt.startTime,
        INITIALIZING: attempt.startTime,
        RUNNING: timestamps.RUNNING ?? attempt.startTime,
      },
    })),
  };
}

/** Adds the vertex routes to `router`. */
export function vertexRoutes(router: Router, context: RestContext): void {
  const on =
    (answer: (job: JobClient, vertex: JobVertex, request: RestRequest) => object) =>
    (request: RestRequest) => {
      const job = jobOf(context, request.params["jid"]!);
      return ok(answer(job, vertexOf(job, request.params["vid"]!), request));
    };
  router
    .get("/jobs/:jid/vertices/:vid", on((job, v) => vertexDetailsJson(job, v, context.now())))
    .get("/jobs/:jid/vertices/:vid/backpressure", on((job, v) => backPressureJson(job, v, context.now())))
    .get(
      "/jobs/:jid/vertices/:vid/watermarks",
      on((job, v) => {
        const index = TaskMetricIndex.of(job);
        const hex = vertexHexId(v);
        return Array.from({ length: v.parallelism }, (_, i) => i)
          .filter((i) => index.task(hex, i).has("currentInputWatermark"))
          .map((i) => ({ id: `${i}.currentInputWatermark`, value: metricValueText(index.task(hex, i).get("currentInputWatermark")!) }));
      }),
    )
    .get("/jobs/:jid/vertices/:vid/metrics", on(metricsJson))
    .get("/jobs/:jid/vertices/:vid/subtasks/metrics", on(subtaskMetricsJson))
    .get("/jobs/:jid/vertices/:vid/subtasktimes", on((job, v) => subtaskTimesJson(job, v, context.now())));
}
