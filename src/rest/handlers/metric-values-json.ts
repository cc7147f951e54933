/**
 * Metric values as Flink's metric endpoints answer them: `[{"id", "value"}]`
 * with the value as a string, and aggregates `[{"id", "min", "max", "avg",
 * "sum"}]` over subtasks. (Flink serializes both as a bare JSON array; its
 * generated OpenAPI file shows an object around it.)
 */
import { NO_WATERMARK_VALUE } from "../../metrics/metric-snapshot.ts";
import { RestError } from "../rest-error.ts";

/** A metric value as Flink prints it; `Long.MIN_VALUE` (no watermark yet) exactly. */
export function metricValueText(value: number): string {
  return value === NO_WATERMARK_VALUE ? "-9223372036854775808" : String(value);
}

/** The names of `?get=a,b` (trimmed, non-empty), or undefined when the parameter is absent. */
export function requestedMetrics(query: URLSearchParams): string[] | undefined {
  const get = query.get("get");
  return get === null ? undefined : get.split(",").map((s) => s.trim()).filter((s) => s !== "");
}

const AGGREGATIONS = ["min", "max", "avg", "sum"] as const;
type Aggregation = (typeof AGGREGATIONS)[number];

/** The aggregations of `?agg=min,max` (all four when absent); a 400 for an unknown one. */
export function requestedAggregations(query: URLSearchParams): Aggregation[] {
  const agg = query.get("agg");
  if (agg === null) return [...AGGREGATIONS];
  return agg.split(",").map((s) => {
    const a = s.trim().toLowerCase();
    if (!(AGGREGATIONS as readonly string[]).includes(a)) throw new RestError(400, `unknown aggregation '${s}': use min, max, avg or sum`);
    return a as Aggregation;
  });
}

/** `{"id", "min", …}` of metric `id` over `values` with the aggregations `aggs`. */
export function aggregateJson(id: string, values: readonly number[], aggs: readonly Aggregation[]): Record<string, number | string> {
  const sum = values.reduce((a, b) => a + b, 0);
  const all: Record<Aggregation, number> = { min: Math.min(...values), max: Math.max(...values), avg: sum / values.length, sum };
  const out: Record<string, number | string> = { id };
  for (const a of aggs) out[a] = all[a];
  return out;
}

/** The subtask indexes of `?subtasks=1,3,5-9` below `parallelism` (all when absent); a 400 for a malformed list. */
export function requestedSubtasks(query: URLSearchParams, parallelism: number): number[] {
  const spec = query.get("subtasks");
  const all = Array.from({ length: parallelism }, (_, i) => i);
  if (spec === null || spec.trim() === "") return all;
  const chosen = new Set<number>();
  for (const part of spec.split(",")) {
    const m = /^\s*(\d+)\s*(?:-\s*(\d+)\s*)?$/.exec(part);
    if (!m) throw new RestError(400, `subtasks must be a list of indexes and ranges such as 1,3,5-9, got '${spec}'`);
    const from = Number(m[1]);
    const to = m[2] === undefined ? from : Number(m[2]);
    for (let i = from; i <= to; i++) chosen.add(i);
  }
  return all.filter((i) => chosen.has(i));
}
