/**
 * The servers of a `weir run` / `weir sql -f` process, started with its first
 * job and closed at its end: the REST API with the dashboard and `/metrics`
 * (`rest.*`, `weir.rest.enabled`) and Flink's Prometheus reporter
 * (`metrics.reporters: prom`). Their settings are the command line's, and
 * the first job's own (a SQL script's `SET 'rest.port' = '9000'`) where the
 * command line does not set them.
 */
import { Configuration } from "../config/configuration.ts";
import { METRICS_OPTIONS } from "../config/options/metrics-options.ts";
import { REST_OPTIONS } from "../config/options/rest-options.ts";
import { SAVEPOINT_DIRECTORY } from "../config/options/state-options.ts";
import type { JobClient } from "../deploy/job-client.ts";
import { renderPrometheus, type PrometheusServer } from "../metrics/prometheus.ts";
import { dashboardRoot } from "../rest/dashboard-root.ts";
import { startRestServer, type RestServer } from "../rest/rest-server.ts";
import { restServerSettings } from "../rest/rest-server-settings.ts";
import { getLogger } from "../util/logger.ts";
import { prometheusReporterSettings, startPrometheusReporter } from "./prometheus-reporter.ts";

/** The keys the servers read. */
const SERVER_OPTIONS = [...REST_OPTIONS, ...METRICS_OPTIONS];

/**
 * @example
 * ```ts
 * const endpoints = new JobEndpoints(flags.configuration);
 * // on each job start:
 * endpoints.jobStarted(client);
 * // at the end:
 * await endpoints.close();
 * ```
 */
export class JobEndpoints {
  private readonly jobs: JobClient[] = [];
  private rest: Promise<{ readonly server: RestServer; readonly token?: string } | undefined> | undefined;
  private reporter: Promise<PrometheusServer | undefined> | undefined;

  /** @param commandLine the command line's configuration (checked before anything ran, see `checkServerSettings`) */
  constructor(private readonly commandLine: Configuration) {}

  /** Notes a job; the first one starts the servers. */
  jobStarted(client: JobClient): void {
    this.jobs.push(client);
    if (this.rest || this.reporter) return;
    const log = getLogger();
    let configuration: Configuration;
    try {
      configuration = serverConfiguration(client.getConfiguration(), this.commandLine);
    } catch (e) {
      log.error(`the REST server and metric reporters do not start: ${(e as Error).message}`);
      return;
    }
    const metricsText = () => renderPrometheus(this.jobs.flatMap((j) => j.getMetrics()));
    try {
      const rest = restServerSettings(configuration);
      if (rest)
        this.rest = startRestServer({
          ...rest,
          jobs: () => this.jobs,
          configuration: () => this.restConfiguration(),
          webRoot: dashboardRoot(),
          metricsText,
        }).then(
          (server) => {
            log.info({ url: server.url }, `REST API and dashboard at ${server.url}`);
            return { server, token: rest.token };
          },
          (e: Error) => {
            log.warn(`the REST server did not start: ${e.message}; the job runs without it`);
            return undefined;
          },
        );
    } catch (e) {
      log.error(`the REST server does not start: ${(e as Error).message}`);
    }
    try {
      const prom = prometheusReporterSettings(configuration);
      if (prom)
        this.reporter = startPrometheusReporter(prom, metricsText).then(
          (server) => {
            log.info({ url: server.url }, `Prometheus metrics at ${server.url}`);
            return server;
          },
          (e: Error) => {
            log.warn(`the Prometheus reporter did not start: ${e.message}; the job runs without it`);
            return undefined;
          },
        );
    } catch (e) {
      log.error(`the Prometheus reporter does not start: ${(e as Error).message}`);
    }
  }

  /** The REST server once started, with the token it asks for; `undefined` when it is off, failed to start, or no job started yet. */
  restServer(): Promise<{ readonly server: RestServer; readonly token?: string } | undefined> {
    return this.rest ?? Promise.resolve(undefined);
  }

  /** Closes the servers. */
  async close(): Promise<void> {
    await Promise.all([this.rest?.then((s) => s?.server.close()), this.reporter?.then((s) => s?.close())]);
  }

  /** The command line's configuration by Flink key with the savepoint directory (the REST API's `/jobs/:jid/config` adds the job's own). */
  private restConfiguration(): Record<string, string> {
    return { ...this.commandLine.toMap(), "state.savepoints.dir": this.commandLine.get(SAVEPOINT_DIRECTORY) };
  }
}

/**
 * The servers' keys of the job's configuration (as set by the job or its SQL script), overridden by the
 * command line's.
 */
function serverConfiguration(job: Readonly<Record<string, string>>, commandLine: Configuration): Configuration {
  const c = new Configuration();
  for (const option of SERVER_OPTIONS) {
    const text = job[option.key];
    if (text !== undefined) c.setString(option.key, text, "the job's configuration");
  }
  return c.addAll(commandLine);
}

/**
 * Checks the command line's server settings before anything runs.
 *
 * @throws {RestSettingsError} / {MetricReporterError} as `restServerSettings` and `prometheusReporterSettings`.
 * @example
 * ```ts
 * checkServerSettings(commandLineConfiguration(values)); // throws for -D rest.address=0.0.0.0 without a token
 * ```
 */
export function checkServerSettings(commandLine: Configuration): void {
  restServerSettings(commandLine);
  prometheusReporterSettings(commandLine);
}
