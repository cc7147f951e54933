/**
 * Flink's StatsSummaryDto of a list of numbers: min, max, average and
 * percentiles (0 everywhere for an empty list, as Flink answers).
 */
import { percentile } from "../../checkpoint/coordinator/index.ts";

export interface StatsSummaryJson {
  readonly min: number;
  readonly max: number;
  readonly avg: number;
  readonly p50: number;
  readonly p90: number;
  readonly p95: number;
  readonly p99: number;
  readonly p999: number;
}

/**
 * @example
 * ```ts
 * statsSummary([10, 20, 30]); // { min: 10, max: 30, avg: 20, p50: 20, … }
 * ```
 */
export function statsSummary(values: readonly number[]): StatsSummaryJson {
  if (values.length === 0) return { min: 0, max: 0, avg: 0, p50: 0, p90: 0, p95: 0, p99: 0, p999: 0 };
  const p = (q: number) => percentile(values, q) ?? 0;
  return {
    min: Math.min(...values),
    max: Math.max(...values),
    avg: Math.round(values.reduce((a, b) => a + b, 0) / values.length),
    p50: p(50),
    p90: p(90),
    p95: p(95),
    p99: p(99),
    p999: p(99.9),
  };
}
