/**
 * Flink's IOMetricsInfo of a subtask or a vertex (the sum of its subtasks):
 * records and bytes read and written, from the task-scope metrics. A source
 * reads no records from another task: its `read-records` are 0, as in Flink.
 * Weir keeps busy, idle and back-pressured time per second, not accumulated:
 * those accumulated times are 0.
 */
import type { MetricValues } from "./task-metric-index.ts";

/** Flink's IOMetricsInfo. */
export interface IoMetricsJson {
  readonly "read-bytes": number;
  readonly "read-bytes-complete": boolean;
  readonly "write-bytes": number;
  readonly "write-bytes-complete": boolean;
  readonly "read-records": number;
  readonly "read-records-complete": boolean;
  readonly "write-records": number;
  readonly "write-records-complete": boolean;
  readonly "accumulated-backpressured-time": number;
  readonly "accumulated-idle-time": number;
  readonly "accumulated-busy-time": number;
}

/** The IO metrics summed over `subtasks` (each one's task-scope values; undefined: not reported yet). `source`: the vertex reads a source. */
export function ioMetrics(subtasks: readonly (MetricValues | undefined)[], source: boolean): IoMetricsJson {
  const sum = (name: string) => subtasks.reduce((n, m) => n + (m?.get(name) ?? 0), 0);
  const complete = subtasks.every((m) => m !== undefined);
  return {
    "read-bytes": source ? 0 : sum("numBytesIn"),
    "read-bytes-complete": complete,
    "write-bytes": sum("numBytesOut"),
    "write-bytes-complete": complete,
    "read-records": source ? 0 : sum("numRecordsIn"),
    "read-records-complete": complete,
    "write-records": sum("numRecordsOut"),
    "write-records-complete": complete,
    "accumulated-backpressured-time": 0,
    "accumulated-idle-time": 0,
    "accumulated-busy-time": 0,
  };
}
