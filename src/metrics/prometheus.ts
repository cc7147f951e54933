/**
 * Metric snapshots in the Prometheus text format, named and labelled as
 * Flink's PrometheusReporter does: `flink_jobmanager_job_<name>` (job scope),
 * `flink_taskmanager_job_task_<name>` (task scope) and
 * `flink_taskmanager_job_task_operator_<name>` (operator scope), with the
 * labels job_id, job_name, task_id, task_name, subtask_index, operator_id,
 * operator_name and tm_id. Every value is a gauge (as in Flink: counters may
 * start again after a restart); a histogram is its quantiles (label
 * `quantile`) plus `<name>_count`.
 */
import { createServer, type Server } from "node:http";
import { Gauge, Registry } from "prom-client";
import type { MetricScope, MetricSnapshot } from "./metric-snapshot.ts";
import { scopeLevel } from "./metric-snapshot.ts";

const PREFIX = { job: "flink_jobmanager_job_", task: "flink_taskmanager_job_task_", operator: "flink_taskmanager_job_task_operator_" } as const;
const QUANTILES = [
  ["0.5", "p50"],
  ["0.75", "p75"],
  ["0.95", "p95"],
  ["0.98", "p98"],
  ["0.99", "p99"],
  ["0.999", "p999"],
] as const;

/** The Prometheus name of metric `name` in a scope level (characters Prometheus does not allow become '_', as in Flink). */
export function prometheusName(level: keyof typeof PREFIX, name: string): string {
  return PREFIX[level] + name.replace(/[^a-zA-Z0-9_:]/g, "_");
}

/** The labels of a scope (only those it has). */
function labelsOf(scope: MetricScope): Record<string, string> {
  const labels: Record<string, string> = { job_id: scope.jobId, job_name: scope.jobName };
  if (scope.vertexId !== undefined) labels["task_id"] = scope.vertexId;
  if (scope.taskName !== undefined) labels["task_name"] = scope.taskName;
  if (scope.subtaskIndex !== undefined) labels["subtask_index"] = String(scope.subtaskIndex);
  if (scope.operatorId !== undefined) labels["operator_id"] = scope.operatorId;
  if (scope.operatorName !== undefined) labels["operator_name"] = scope.operatorName;
  if (scope.taskManagerId !== undefined) labels["tm_id"] = scope.taskManagerId;
  return labels;
}

/**
 * The text of `snapshots` for a Prometheus scrape.
 *
 * @example
 * ```ts
 * const text = await renderPrometheus(client.getMetrics());
 * // flink_taskmanager_job_task_numRecordsIn{job_id="…",job_name="orders",task_id="…",task_name="Source: orders -> Map",subtask_index="0",tm_id="worker-0"} 1200
 * ```
 */
export async function renderPrometheus(snapshots: readonly MetricSnapshot[]): Promise<string> {
  const registry = new Registry();
  const gauges = new Map<string, Gauge>();
  const gauge = (name: string, labelNames: readonly string[], help: string): Gauge => {
    let g = gauges.get(name);
    if (!g) {
      g = new Gauge({ name, help, labelNames: [...labelNames], registers: [registry] });
      gauges.set(name, g);
    }
    return g;
  };
  // every series of a name must have the same label names: gather them first
  const labelNames = new Map<string, Set<string>>();
  const series = snapshots.map((s) => {
    const name = prometheusName(scopeLevel(s.scope), s.name);
    const labels = labelsOf(s.scope);
    const names = labelNames.get(name) ?? new Set<string>();
    for (const k of Object.keys(labels)) names.add(k);
    labelNames.set(name, names);
    return { s, name, labels };
  });
  for (const { s, name, labels } of series) {
    const names = [...labelNames.get(name)!];
    const full = Object.fromEntries(names.map((k) => [k, labels[k] ?? ""]));
    const help = `${s.name} (${s.kind})`;
    if (s.kind === "histogram" && s.histogram) {
      const h = s.histogram;
      const q = gauge(name, [...names, "quantile"], help);
      for (const [quantile, key] of QUANTILES) q.set({ ...full, quantile }, h[key]);
      gauge(`${name}_count`, names, `${s.name} (histogram count)`).set(full, h.count);
    } else gauge(name, names, help).set(full, s.value);
  }
  return registry.metrics();
}

/** A running `/metrics` endpoint. */
export interface PrometheusServer {
  /** `http://host:port/metrics`. */
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
}

/** Thrown when the Prometheus port cannot be bound. */
export class PrometheusPortError extends Error {
  override name = "PrometheusPortError";
}

/**
 * Serves `text()` at `GET /metrics` on its own port (Flink's `metrics.reporter.prom.port`).
 *
 * @param o `port` 0 picks a free port
 * @throws PrometheusPortError when the port is taken or not allowed
 * @example
 * ```ts
 * const server = await startPrometheusServer({ host: "127.0.0.1", port: 9249 }, () => renderPrometheus(client.getMetrics()));
 * // scrape http://127.0.0.1:9249/metrics; later: await server.close();
 * ```
 */
export async function startPrometheusServer(
  o: { readonly host: string; readonly port: number },
  text: () => string | Promise<string>,
): Promise<PrometheusServer> {
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0];
    if (req.method !== "GET" && req.method !== "HEAD") {
      res.writeHead(405, { allow: "GET, HEAD" }).end();
      return;
    }
    if (path !== "/metrics") {
      res.writeHead(404, { "content-type": "text/plain; charset=utf-8" }).end("not found: the metrics are at /metrics\n");
      return;
    }
    Promise.resolve()
      .then(text)
      .then(
        (body) => res.writeHead(200, { "content-type": Registry.PROMETHEUS_CONTENT_TYPE }).end(req.method === "HEAD" ? undefined : body),
        (e: unknown) => res.writeHead(500, { "content-type": "text/plain; charset=utf-8" }).end(`metrics failed: ${(e as Error)?.message ?? e}\n`),
      );
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", (e: NodeJS.ErrnoException) =>
      reject(new PrometheusPortError(`cannot serve Prometheus metrics on ${o.host}:${o.port} (metrics.reporter.prom.port): ${e.code ?? e.message}`, { cause: e })),
    );
    server.listen(o.port, o.host, () => resolve());
  });
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : o.port;
  const host = o.host.includes(":") ? `[${o.host}]` : o.host;
  return {
    url: `http://${host}:${port}/metrics`,
    port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
