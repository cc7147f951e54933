/**
 * The job's records in and out: what its sources read and what its sinks wrote,
 * summed over subtasks, from the tasks' metrics. A chain that holds both a
 * source and a sink counts each at its own end (a filter between them makes
 * them differ).
 */
import type { JobGraph } from "../../graph/job-graph.ts";
import { operatorHexId } from "../../graph/operator-hex-id.ts";
import { vertexHexId } from "../../graph/vertex-hex-id.ts";
import type { MetricSnapshot } from "../../metrics/metric-snapshot.ts";

/** Records read by the sources (`in`) and written by the sinks (`out`). */
export interface RecordCounts {
  readonly in: number;
  readonly out: number;
}

/**
 * The counts in `metrics` (the task and operator metrics of one attempt of `graph`): the
 * `numRecordsIn` of source tasks, and the `numRecordsIn` of sink operators.
 *
 * @example
 * ```ts
 * recordCounts(graph, client.getMetrics()); // { in: 1000, out: 998 }
 * ```
 */
export function recordCounts(graph: JobGraph, metrics: readonly MetricSnapshot[]): RecordCounts {
  const sources = new Set(graph.vertices.filter((v) => v.isSource).map(vertexHexId));
  const sinks = new Set(graph.vertices.flatMap((v) => v.nodes).filter((n) => n.type === "sink").map((n) => operatorHexId(n.uid)));
  let recordsIn = 0;
  let recordsOut = 0;
  for (const m of metrics) {
    if (m.name !== "numRecordsIn") continue;
    const { vertexId, operatorId } = m.scope;
    if (operatorId === undefined) {
      if (vertexId !== undefined && sources.has(vertexId)) recordsIn += m.value;
    } else if (sinks.has(operatorId)) recordsOut += m.value;
  }
  return { in: recordsIn, out: recordsOut };
}
