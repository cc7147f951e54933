/**
 * The shape in which metrics leave the thread that owns them: one value of one
 * metric, with the scope it belongs to (job → task → subtask → operator).
 * Plain data: snapshots cross threads by structured clone, and the REST API,
 * the Prometheus text and the progress line read them.
 *
 * @example
 * ```ts
 * const s: MetricSnapshot = {
 *   scope: { jobId, jobName: "orders", vertexId, taskName: "Source: orders -> Map", subtaskIndex: 0, taskManagerId: "worker-0" },
 *   name: "numRecordsIn", kind: "counter", value: 1200,
 * };
 * ```
 */

export type MetricKind = "counter" | "gauge" | "meter" | "histogram";

/** Where a metric belongs. Job scope: only the job fields; task scope: + vertex, task and subtask; operator scope: + operator. */
export interface MetricScope {
  readonly jobId: string;
  readonly jobName: string;
  /** The vertex's 32-hex id (`vertexHexId`). */
  readonly vertexId?: string;
  /** The vertex's name as Flink writes it: "Source: numbers -> Map -> Sink: out". */
  readonly taskName?: string;
  /** 0-based. */
  readonly subtaskIndex?: number;
  /** Operator scope only: the operator's 32-hex id (`operatorHexId`). */
  readonly operatorId?: string;
  readonly operatorName?: string;
  /** The thread that runs the task: "worker-0", … or "in-process". */
  readonly taskManagerId?: string;
}

/** Statistics of a histogram's reservoir (Flink's HistogramStatistics). */
export interface HistogramStatistics {
  count: number;
  min: number;
  max: number;
  mean: number;
  stddev: number;
  p50: number;
  p75: number;
  p95: number;
  p98: number;
  p99: number;
  p999: number;
}

/** One value of one metric. A meter's value is its rate per second; a histogram's is its count (statistics beside). */
export interface MetricSnapshot {
  readonly scope: MetricScope;
  readonly name: string;
  readonly kind: MetricKind;
  readonly value: number;
  readonly histogram?: HistogramStatistics;
}

/** Value of a watermark metric before the first watermark: Flink's `Long.MIN_VALUE` (its UI shows "No Watermark"). */
export const NO_WATERMARK_VALUE = -9223372036854775808;

/** The scope level of a snapshot: "job", "task" or "operator". */
export function scopeLevel(scope: MetricScope): "job" | "task" | "operator" {
  if (scope.operatorId !== undefined) return "operator";
  return scope.vertexId !== undefined ? "task" : "job";
}
