/**
 * Flink's MetricGroup: where a function or the engine registers its metrics,
 * in a scope (job → task → subtask → operator). `addGroup` nests names: a
 * counter `hits` in `addGroup("cache")` is reported as `cache.hits`, and in
 * `addGroup("region", "eu")` as `region.eu.hits`.
 *
 * @example
 * ```ts
 * class Parse extends RichMapFunction<string, Order> {
 *   private bad!: Counter;
 *   open() { this.bad = this.getRuntimeContext().getMetricGroup().counter("badLines"); }
 *   map(line: string) { ... this.bad.inc(); ... }
 * }
 * ```
 */
import { Counter } from "./counter.ts";
import { Histogram } from "./histogram.ts";
import { Meter } from "./meter.ts";
import type { MetricScope } from "./metric-snapshot.ts";
import type { Gauge, MetricRegistry } from "./metric-registry.ts";

/** What user code registers metrics with. */
export interface MetricGroup {
  /** A counter (the given one, or a new one). */
  counter(name: string, counter?: Counter): Counter;
  /** A gauge: `gauge` is called when metrics are reported. */
  gauge<G extends Gauge>(name: string, gauge: G): G;
  /** A meter: events per second over the last minute (the given one, or a new one). */
  meter(name: string, meter?: Meter): Meter;
  /** A histogram over the last `reservoirSize` values (default 500), or the given one. */
  histogram(name: string, histogram?: Histogram | number): Histogram;
  /** A nested group: `name` (and `value`) prefix the names of its metrics, joined by '.'. */
  addGroup(name: string, value?: string): MetricGroup;
  /** The scope of the group's metrics. */
  getScope(): MetricScope;
}

export class ScopedMetricGroup implements MetricGroup {
  private readonly key: string;

  /** @internal use `MetricRegistry.group` */
  constructor(
    private readonly registry: MetricRegistry,
    readonly scope: MetricScope,
    private readonly prefix: readonly string[],
  ) {
    this.key = [scope.jobId, scope.vertexId ?? "", scope.subtaskIndex ?? "", scope.operatorId ?? ""].join("/");
  }

  counter(name: string, counter = new Counter()): Counter {
    return this.register(name, counter);
  }

  gauge<G extends Gauge>(name: string, gauge: G): G {
    return this.register(name, gauge);
  }

  meter(name: string, meter = new Meter()): Meter {
    return this.register(name, meter);
  }

  histogram(name: string, histogram?: Histogram | number): Histogram {
    return this.register(name, histogram instanceof Histogram ? histogram : new Histogram(histogram));
  }

  addGroup(name: string, value?: string): ScopedMetricGroup {
    const parts = value === undefined ? [name] : [name, value];
    for (const p of parts) checkName(p, "group");
    return new ScopedMetricGroup(this.registry, this.scope, [...this.prefix, ...parts]);
  }

  getScope(): MetricScope {
    return this.scope;
  }

  /** A group of the same registry in a narrower scope (task → operator). */
  child(scope: Partial<MetricScope>): ScopedMetricGroup {
    return new ScopedMetricGroup(this.registry, { ...this.scope, ...scope }, []);
  }

  /** Removes every metric of this scope (also those of its nested groups). */
  close(): void {
    this.registry.unregisterAll(this.key);
  }

  private register<M extends Counter | Meter | Histogram | Gauge>(name: string, metric: M): M {
    checkName(name, "metric");
    return this.registry.register(this.scope, [...this.prefix, name].join("."), metric, this.key);
  }
}

/** A metric or group name must be non-empty text. */
function checkName(name: string, what: string): void {
  if (typeof name !== "string" || name.length === 0) throw new TypeError(`a ${what} name must be a non-empty string, got ${JSON.stringify(name)}`);
}
