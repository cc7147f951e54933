/**
 * The job's records in and out: what its sources read and what its sinks wrote,
 * summed over subtasks. A chain that holds both a source and a sink counts each
 * at its own end (a filter between them makes them differ).
 */
import type { JobGraph } from "../../graph/job-graph.ts";
import { SINK_RECORDS_METRIC } from "../operators/sink-operator.ts";
import type { TaskMetrics } from "../task/stream-task.ts";

/** Records read by the sources (`in`) and written by the sinks (`out`). */
export interface RecordCounts {
  readonly in: number;
  readonly out: number;
}

/** The counts of `metrics` (the tasks of one attempt of `graph`). */
export function recordCounts(graph: JobGraph, metrics: Readonly<Record<string, TaskMetrics>>): RecordCounts {
  const sinks = graph.vertices.flatMap((v) => v.nodes).filter((n) => n.type === "sink").map((n) => n.uid);
  let recordsIn = 0;
  let recordsOut = 0;
  for (const m of Object.values(metrics)) {
    if (m.isSource) recordsIn += m.recordsIn;
    for (const uid of sinks) recordsOut += m.operators[uid]?.[SINK_RECORDS_METRIC] ?? 0;
  }
  return { in: recordsIn, out: recordsOut };
}
