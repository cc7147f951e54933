/** Answers about one vertex of a job: details, back pressure, metrics, watermarks, subtask times, flame graph. */
import { ioMetrics, taskState } from "./jobs.ts";
import { closed, double, hexId, int, list, long, map, oneOfText, text, type Schema } from "./shape.ts";

const subtaskAttempt: Schema = closed(
  {
    subtask: int,
    status: taskState,
    attempt: int,
    host: text,
    "start-time": long,
    "end-time": long,
    duration: long,
    metrics: ioMetrics,
    "taskmanager-id": text,
    "status-duration": map(long),
    "other-concurrent-attempts": list({ type: "object" }),
  },
  ["other-concurrent-attempts"],
);

/** `GET /jobs/:jid/vertices/:vid`: the vertex and each of its subtasks. */
export const vertexDetails: Schema = closed(
  {
    id: hexId,
    name: text,
    maxParallelism: int,
    parallelism: int,
    now: long,
    subtasks: list(subtaskAttempt),
    aggregated: closed({ metrics: map(map(long)), "status-duration": map(map(long)) }),
  },
  ["aggregated"],
);

const pressure = oneOfText("ok", "low", "high");

/** `GET /jobs/:jid/vertices/:vid/backpressure`: the share of time each subtask was back-pressured, busy, idle. */
export const vertexBackPressure: Schema = closed(
  {
    status: oneOfText("deprecated", "ok"),
    backpressureLevel: pressure,
    "end-timestamp": long,
    subtasks: list(
      closed(
        {
          subtask: int,
          "attempt-number": int,
          backpressureLevel: pressure,
          ratio: double,
          idleRatio: double,
          busyRatio: double,
          "other-concurrent-attempts": list({ type: "object" }),
        },
        ["attempt-number", "other-concurrent-attempts"],
      ),
    ),
  },
  ["backpressureLevel", "end-timestamp", "subtasks"],
);

/**
 * `GET .../metrics` and `.../watermarks`: a bare array of metrics, each `{id}` when listing the names,
 * `{id, value}` (value as a string) when asked for values.
 */
export const metricList: Schema = list(closed({ id: text, value: text }, ["value"]));

/** `GET .../subtasks/metrics`: per metric, the aggregates over the subtasks that were asked for. */
export const aggregatedMetrics: Schema = list(closed({ id: text, min: double, max: double, avg: double, sum: double, skew: double }, ["min", "max", "avg", "sum", "skew"]));

/** `GET .../subtasktimes`: when each subtask entered each state. */
export const subtaskTimes: Schema = closed({
  id: hexId,
  name: text,
  now: long,
  subtasks: list(closed({ subtask: int, host: text, duration: long, timestamps: map(long) })),
});

/** A frame of a flame graph and the frames it calls. */
const frame: Schema = closed({ name: text, value: int, children: list({ $ref: "#/definitions/frame" }) }, ["children"]);

/** `GET .../flamegraph`: the sampled call tree, or no data when none was taken. */
export const flameGraph: Schema = {
  definitions: { frame },
  ...closed({ endTimestamp: long, data: { $ref: "#/definitions/frame" } }, ["data"]),
};
