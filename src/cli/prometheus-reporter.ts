/**
 * Flink's Prometheus reporter for a `weir run` / `weir sql -f` job:
 * `metrics.reporters: prom` serves the job's metrics at `/metrics` on
 * `metrics.reporter.prom.host` and the first free port of
 * `metrics.reporter.prom.port` (`9249`, or a range `9250-9260`) while it runs.
 */
import type { Configuration } from "../config/configuration.ts";
import { METRICS_REPORTERS, PROMETHEUS_HOST, PROMETHEUS_PORT } from "../config/options/metrics-options.ts";
import { parsePortRange, type PortRange } from "../config/parse-port-range.ts";
import { PrometheusPortError, startPrometheusServer, type PrometheusServer } from "../metrics/prometheus.ts";

/** The reporters Weir has, by their name in `metrics.reporters`. */
const KNOWN_REPORTERS = ["prom"];

/** A `metrics.reporters` naming a reporter Weir does not have. */
export class MetricReporterError extends Error {
  override readonly name = "MetricReporterError";
}

/** Where the prom reporter listens. */
export interface PrometheusReporterSettings {
  readonly host: string;
  readonly ports: PortRange;
}

/**
 * The prom reporter's settings, or `undefined` when `metrics.reporters` does not name it.
 *
 * @throws {MetricReporterError} when `metrics.reporters` names an unknown reporter.
 * @example
 * ```ts
 * const c = new Configuration().setString("metrics.reporters", "prom").setString("metrics.reporter.prom.port", "9250-9260");
 * prometheusReporterSettings(c); // { host: "127.0.0.1", ports: { first: 9250, last: 9260 } }
 * ```
 */
export function prometheusReporterSettings(configuration: Configuration): PrometheusReporterSettings | undefined {
  const names = (configuration.get(METRICS_REPORTERS) ?? "")
    .split(",")
    .map((n) => n.trim())
    .filter((n) => n !== "");
  const unknown = names.find((n) => !KNOWN_REPORTERS.includes(n));
  if (unknown !== undefined) throw new MetricReporterError(`metrics.reporters: unknown reporter '${unknown}' (Weir has: ${KNOWN_REPORTERS.join(", ")})`);
  if (!names.includes("prom")) return undefined;
  return { host: configuration.get(PROMETHEUS_HOST), ports: parsePortRange(configuration.get(PROMETHEUS_PORT))! };
}

/**
 * Serves `text()` at `/metrics` on the first port of the range that is free.
 *
 * @throws {PrometheusPortError} when no port of the range can be bound (naming the range).
 * @example
 * ```ts
 * const server = await startPrometheusReporter({ host: "127.0.0.1", ports: { first: 9249, last: 9249 } }, () => renderPrometheus(client.getMetrics()));
 * ```
 */
export async function startPrometheusReporter(settings: PrometheusReporterSettings, text: () => string | Promise<string>): Promise<PrometheusServer> {
  const { first, last } = settings.ports;
  for (let port = first; ; port++) {
    try {
      return await startPrometheusServer({ host: settings.host, port }, text);
    } catch (e) {
      if (!(e instanceof PrometheusPortError) || port >= last) {
        if (first === last) throw e;
        throw new PrometheusPortError(`no free port in ${first}-${last} on ${settings.host} (metrics.reporter.prom.port)`, { cause: e });
      }
    }
  }
}
