/**
 * The metrics of one thread: every group registers its metrics here, and a
 * snapshot reads them all at once. Rates (meters) are computed when the
 * snapshot is taken, never per event; gauges are called then too.
 *
 * @example
 * ```ts
 * const registry = new MetricRegistry();
 * const group = registry.group({ jobId, jobName: "orders" });
 * group.counter("seen").inc();
 * registry.snapshot(); // [{ scope: { jobId, jobName: "orders" }, name: "seen", kind: "counter", value: 1 }]
 * ```
 */
import { Counter } from "./counter.ts";
import { Histogram } from "./histogram.ts";
import { Meter } from "./meter.ts";
import type { MetricKind, MetricScope, MetricSnapshot } from "./metric-snapshot.ts";
import { ScopedMetricGroup } from "./metric-group.ts";

/** A gauge: called when a snapshot is taken; undefined leaves it out of that snapshot (no value yet). */
export type Gauge = () => number | undefined;

/** Any registered metric. */
export type Metric = Counter | Meter | Histogram | Gauge;

/** One registered metric. */
export interface MetricEntry {
  readonly scope: MetricScope;
  readonly name: string;
  readonly metric: Metric;
}

/** Thrown when a metric name is taken in its scope by a metric of another kind. */
export class MetricNameTakenError extends Error {
  override name = "MetricNameTakenError";
}

/** The kind of `metric`. */
export function metricKind(metric: Metric): MetricKind {
  if (metric instanceof Counter) return "counter";
  if (metric instanceof Meter) return "meter";
  if (metric instanceof Histogram) return "histogram";
  return "gauge";
}

export class MetricRegistry {
  private readonly entries = new Map<string, MetricEntry>();

  /**
   * @param now the time source of meters (ms, monotonic)
   */
  constructor(private readonly now: () => number = () => performance.now()) {}

  /** A root group of `scope` (close it to remove its metrics). */
  group(scope: MetricScope): ScopedMetricGroup {
    return new ScopedMetricGroup(this, scope, []);
  }

  /**
   * Registers `metric` as `name` in `scope`; returns the metric registered under that name
   * (the earlier one when the name is taken by a metric of the same kind).
   *
   * @throws MetricNameTakenError when the name is taken by a metric of another kind
   */
  register<M extends Metric>(scope: MetricScope, name: string, metric: M, key: string): M {
    const id = `${key}\u0000${name}`;
    const existing = this.entries.get(id);
    if (existing) {
      if (metricKind(existing.metric) === metricKind(metric)) return existing.metric as M;
      throw new MetricNameTakenError(
        `metric '${name}' of ${describe(scope)} is already a ${metricKind(existing.metric)}; it cannot be registered as a ${metricKind(metric)}`,
      );
    }
    this.entries.set(id, { scope, name, metric });
    return metric;
  }

  /** Removes the metrics registered under `key` (a closed group's). */
  unregisterAll(key: string): void {
    const prefix = `${key}\u0000`;
    for (const id of [...this.entries.keys()]) if (id.startsWith(prefix)) this.entries.delete(id);
  }

  /** The value of every metric now. A gauge that throws or has no value is left out of this snapshot. */
  snapshot(): MetricSnapshot[] {
    const now = this.now();
    const entries = [...this.entries.values()];
    // meters first: derived gauges (busy time) read their rates
    for (const e of entries) if (e.metric instanceof Meter) e.metric.update(now);
    const out: MetricSnapshot[] = [];
    for (const { scope, name, metric } of entries) {
      if (metric instanceof Counter) out.push({ scope, name, kind: "counter", value: metric.count });
      else if (metric instanceof Meter) out.push({ scope, name, kind: "meter", value: metric.getRate() });
      else if (metric instanceof Histogram) {
        const histogram = metric.getStatistics();
        out.push({ scope, name, kind: "histogram", value: histogram.count, histogram });
      } else {
        let value: number | undefined;
        try {
          value = metric();
        } catch {
          continue;
        }
        if (value !== undefined) out.push({ scope, name, kind: "gauge", value: Number(value) });
      }
    }
    return out;
  }
}

/** The scope in words, for errors: `operator 'Map' of task 'Source: n -> Map' 1`. */
function describe(scope: MetricScope): string {
  const parts = [`job '${scope.jobName}'`];
  if (scope.taskName !== undefined) parts.unshift(`task '${scope.taskName}' subtask ${scope.subtaskIndex ?? 0}`);
  if (scope.operatorName !== undefined) parts.unshift(`operator '${scope.operatorName}'`);
  return parts.join(" of ");
}
