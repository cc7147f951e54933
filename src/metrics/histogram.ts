/**
 * A distribution of values over the last `reservoirSize` updates (Flink's
 * DescriptiveStatisticsHistogram): a ring of samples; statistics (min, max,
 * mean, standard deviation, quantiles) are computed when asked, not per update.
 *
 * @example
 * ```ts
 * const latency = group.histogram("latencyMs");
 * latency.update(12);
 * latency.getStatistics().p99;
 * ```
 */
import type { HistogramStatistics } from "./metric-snapshot.ts";

/** Default number of samples kept (Flink's examples use 500). */
export const DEFAULT_RESERVOIR_SIZE = 500;

export class Histogram {
  private readonly samples: Float64Array;
  private count = 0;

  constructor(readonly reservoirSize = DEFAULT_RESERVOIR_SIZE) {
    if (!Number.isInteger(reservoirSize) || reservoirSize < 1) throw new RangeError(`histogram reservoir size must be a whole number ≥ 1, got ${reservoirSize}`);
    this.samples = new Float64Array(reservoirSize);
  }

  update(value: number): void {
    this.samples[this.count % this.reservoirSize] = value;
    this.count++;
  }

  /** Updates so far (all of them, not only those in the reservoir). */
  getCount(): number {
    return this.count;
  }

  /** Statistics of the values in the reservoir (all 0 before the first update). */
  getStatistics(): HistogramStatistics {
    const n = Math.min(this.count, this.reservoirSize);
    const sorted = this.samples.slice(0, n).sort();
    let sum = 0;
    for (const v of sorted) sum += v;
    const mean = n > 0 ? sum / n : 0;
    let sq = 0;
    for (const v of sorted) sq += (v - mean) ** 2;
    const q = (p: number) => quantile(sorted, p);
    return {
      count: this.count,
      min: n > 0 ? sorted[0]! : 0,
      max: n > 0 ? sorted[n - 1]! : 0,
      mean,
      stddev: n > 1 ? Math.sqrt(sq / (n - 1)) : 0,
      p50: q(0.5),
      p75: q(0.75),
      p95: q(0.95),
      p98: q(0.98),
      p99: q(0.99),
      p999: q(0.999),
    };
  }
}

/** The `p` quantile of sorted values, interpolated between neighbours (0 when empty). */
function quantile(sorted: Float64Array, p: number): number {
  const n = sorted.length;
  if (n === 0) return 0;
  const pos = p * (n - 1);
  const lo = Math.floor(pos);
  const hi = Math.min(n - 1, lo + 1);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (pos - lo);
}
