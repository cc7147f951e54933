/**
 * Options of metric reporters (Flink's `MetricOptions` and the Prometheus
 * reporter's). The REST server's `/metrics` needs none of them.
 */
import { ConfigOptions } from "../config-option.ts";

/** `metrics.reporters`: names of the reporters to start, comma-separated. */
export const METRICS_REPORTERS = ConfigOptions.string(
  "metrics.reporters",
  "The metric reporters to start, comma-separated (prom: a Prometheus endpoint on its own port); /metrics on the REST port is always served.",
);

/** `metrics.reporter.prom.port`. */
export const PROMETHEUS_PORT = ConfigOptions.int("metrics.reporter.prom.port", "The port of the prom reporter's Prometheus endpoint.", 9249, {
  check: (n) => (n >= 0 && n <= 65_535 ? undefined : "a port from 0 to 65535"),
});

/** `metrics.reporter.prom.host`. */
export const PROMETHEUS_HOST = ConfigOptions.string("metrics.reporter.prom.host", "The address the prom reporter binds.", "127.0.0.1");

export const METRICS_OPTIONS = [METRICS_REPORTERS, PROMETHEUS_PORT, PROMETHEUS_HOST] as const;
