/**
 * A job's metric snapshots by subtask: the task-scope values of each
 * subtask of each vertex, by metric name, and the operator-scope ones.
 */
import type { JobClient } from "../../deploy/job-client.ts";
import type { MetricSnapshot } from "../../metrics/metric-snapshot.ts";

/** Metric values by name. */
export type MetricValues = ReadonlyMap<string, number>;

/**
 * @example
 * ```ts
 * const index = TaskMetricIndex.of(job);
 * index.task(vertexHexId(vertex), 0).get("numRecordsIn"); // 1200
 * ```
 */
export class TaskMetricIndex {
  private readonly tasks = new Map<string, Map<string, number>>();
  private readonly operators = new Map<string, Map<string, number>>();

  constructor(snapshots: readonly MetricSnapshot[]) {
    for (const s of snapshots) {
      const { vertexId, subtaskIndex, operatorId } = s.scope;
      if (vertexId === undefined || subtaskIndex === undefined) continue;
      const key = operatorId === undefined ? `${vertexId}#${subtaskIndex}` : `${vertexId}#${subtaskIndex}#${operatorId}`;
      const into = operatorId === undefined ? this.tasks : this.operators;
      let values = into.get(key);
      if (!values) into.set(key, (values = new Map()));
      values.set(operatorId === undefined ? s.name : `${s.scope.operatorName ?? operatorId}.${s.name}`, s.value);
    }
  }

  /** The index of `job`'s latest metrics. */
  static of(job: JobClient): TaskMetricIndex {
    return new TaskMetricIndex(job.getMetrics());
  }

  /** Task-scope values of subtask `index` of vertex `vertexHex` (empty before the subtask reported any). */
  task(vertexHex: string, index: number): MetricValues {
    return this.tasks.get(`${vertexHex}#${index}`) ?? new Map();
  }

  /** True when subtask `index` of `vertexHex` reported metrics. */
  has(vertexHex: string, index: number): boolean {
    return this.tasks.has(`${vertexHex}#${index}`);
  }

  /** Task- and operator-scope values of the subtask (operator ones as `<operator name>.<metric>`). */
  all(vertexHex: string, index: number): MetricValues {
    const out = new Map(this.task(vertexHex, index));
    for (const [key, values] of this.operators) {
      if (!key.startsWith(`${vertexHex}#${index}#`)) continue;
      for (const [name, v] of values) out.set(name, v);
    }
    return out;
  }
}
