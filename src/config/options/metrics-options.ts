/**
 * Options of metric reporters (Flink's `MetricOptions` and the Prometheus
 * reporter's). The REST server's `/metrics` needs none of them.
 */
import { ConfigOptions } from "../config-option.ts";
import { parsePortRange } from "../parse-port-range.ts";

/** `metrics.reporters`: names of the reporters to start, comma-separated. */
export const METRICS_REPORTERS = ConfigOptions.string(
  "metrics.reporters",
  "The metric reporters to start, comma-separated (prom: a Prometheus endpoint on its own port); /metrics on the REST port is always served.",
);

/** `metrics.reporter.prom.port`: a port or a range (`9250-9260`), read with `parsePortRange`. */
export const PROMETHEUS_PORT = ConfigOptions.string(
  "metrics.reporter.prom.port",
  "The port of the prom reporter's Prometheus endpoint, or a range such as 9250-9260: the first free one (0: any free port).",
  "9249",
  { check: (t) => (parsePortRange(t) ? undefined : "a port from 0 to 65535 or a range such as 9250-9260") },
);

/** `metrics.reporter.prom.host`. */
export const PROMETHEUS_HOST = ConfigOptions.string("metrics.reporter.prom.host", "The address the prom reporter binds.", "127.0.0.1");

export const METRICS_OPTIONS = [METRICS_REPORTERS, PROMETHEUS_PORT, PROMETHEUS_HOST] as const;
