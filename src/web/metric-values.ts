/**
 * Reading the metric answers of the REST API: Flink sends a list of
 * `{id, value}` (the value a string; ids of a vertex's metrics are
 * `<subtask>.<name>`), or of `{id, min, max, avg, sum}` when aggregated over
 * subtasks. Some servers wrap the list as `{"metrics": [...]}`.
 *
 * @example
 * ```ts
 * lowestValue([{ id: "0.currentInputWatermark", value: "1000" }, { id: "1.currentInputWatermark", value: "900" }], "currentInputWatermark"); // 900
 * ```
 */
import type { AggregatedMetric, Metric } from "./rest-types.ts";

/** The list inside a metrics answer (a bare list, or `{metrics: [...]}`). */
export function metricList<T extends Metric | AggregatedMetric>(body: unknown): readonly T[] {
  if (Array.isArray(body)) return body as T[];
  const wrapped = (body as { metrics?: unknown } | null)?.metrics;
  return Array.isArray(wrapped) ? (wrapped as T[]) : [];
}

/** The values of metric `name` over the subtasks (ids `name` or `<n>.name`), as numbers. */
export function metricValues(list: readonly Metric[], name: string): number[] {
  return list
    .filter((m) => m.id === name || m.id.endsWith(`.${name}`))
    .map((m) => Number(m.value))
    .filter((v) => Number.isFinite(v));
}

/** The lowest value of metric `name` over the subtasks, undefined when none has it. */
export function lowestValue(list: readonly Metric[], name: string): number | undefined {
  const values = metricValues(list, name);
  return values.length === 0 ? undefined : Math.min(...values);
}

/** The aggregate `agg` of metric `name` in an aggregated answer. */
export function aggregate(list: readonly AggregatedMetric[], name: string, agg: "min" | "max" | "avg" | "sum"): number | undefined {
  const v = list.find((m) => m.id === name)?.[agg];
  return typeof v === "number" && Number.isFinite(v) ? v : undefined;
}
