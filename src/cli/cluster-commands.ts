/**
 * `weir jobmanager` and `weir taskmanager`: the processes of a cluster
 * (docs/cluster.md). The job manager serves the REST API of its jobs with job
 * submission (`/jars`) and the RPC endpoint of its task managers (under high
 * availability a standby answers REST calls through the leader); a task
 * manager offers its slots to the job manager and runs the worker threads
 * placed on them. Both run until SIGINT or SIGTERM (a task manager also ends
 * when it loses its job manager).
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  BLOB_STORAGE_DIRECTORY,
  HEARTBEAT_INTERVAL,
  HEARTBEAT_TIMEOUT,
  JOBMANAGER_RPC_ADDRESS,
  JOBMANAGER_RPC_PORT,
  SLOT_REQUEST_TIMEOUT,
  TASK_MANAGER_HOST,
  TASK_SLOTS,
  WEB_UPLOAD_DIR,
} from "../config/options/cluster-options.ts";
import { PARALLELISM } from "../config/options/pipeline-options.ts";
import { REST_ADDRESS } from "../config/options/rest-options.ts";
import { IGNORE_UNCLAIMED_STATE, SAVEPOINT_DIRECTORY, SAVEPOINT_PATH } from "../config/options/state-options.ts";
import { WORKERS } from "../config/options/weir-options.ts";
import { JobManager, type ClusterProgram } from "../cluster/job-manager.ts";
import { parseJarId } from "../cluster/jar-store.ts";
import { ClusterTaskManager } from "../cluster/task-manager-process.ts";
import { EtcdHaServices, FencingError, haSettings } from "../cluster/ha/index.ts";
import { JobManagerLeadership, NotLeaderError } from "../cluster/job-manager-leadership.ts";
import { renderPrometheus } from "../metrics/prometheus.ts";
import { dashboardRoot } from "../rest/dashboard-root.ts";
import { jarRoutes, type JarRunRequest, type JarService } from "../rest/handlers/jar-handlers.ts";
import { RestError } from "../rest/rest-error.ts";
import { startRestServer } from "../rest/rest-server.ts";
import { restServerSettings } from "../rest/rest-server-settings.ts";
import { encodeScriptArgs } from "../sql-client/sql-script-args.ts";
import { configureLogging, getLogger } from "../util/logger.ts";
import { ownModule } from "../util/own-files.ts";
import { CliUsageError } from "./cli-usage-error.ts";
import { describeJobError } from "./describe-job-error.ts";
import { parseFlags, runFlags } from "./main.ts";
import type { Configuration } from "../config/configuration.ts";

/** The SQL script job (as `weir sql -f` runs a script): source path and compiled entry for `ownModule`. */
const SCRIPT_JOB: readonly [string, string] = ["sql-client/sql-script-job.ts", "sql-script-job.js"];

/** The flags of both commands: `-D key=value` and the log flags. */
function clusterConfiguration(command: string, args: string[]): Configuration {
  const { values, positionals } = parseFlags(args, {});
  if (positionals.length > 0) throw new CliUsageError(`weir ${command} takes no arguments, got '${positionals[0]}' (settings are -D key=value)`);
  const flags = runFlags(values);
  configureLogging({ level: flags.logLevel, format: flags.logFormat });
  return flags.configuration;
}

/**
 * Resolves at the first SIGINT or SIGTERM. The handlers stay until the process exits: the process is handling
 * the signal (a checkpoint directory's lock dies of a signal only nothing else handles).
 */
function untilSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    process.on("SIGINT", resolve);
    process.on("SIGTERM", resolve);
  });
}

/** Runs `weir jobmanager`; resolves with the exit code. */
export async function runJobManagerCommand(args: string[]): Promise<number> {
  const configuration = clusterConfiguration("jobmanager", args);
  const log = getLogger();
  const rest = restServerSettings(configuration);
  if (!rest) throw new CliUsageError("a job manager serves the REST API (job submission): weir.rest.enabled cannot be false");
  const haConf = haSettings(configuration);
  const jm = await JobManager.start({
    rpcHost: configuration.get(JOBMANAGER_RPC_ADDRESS),
    rpcPort: configuration.get(JOBMANAGER_RPC_PORT),
    heartbeatIntervalMs: configuration.get(HEARTBEAT_INTERVAL),
    heartbeatTimeoutMs: configuration.get(HEARTBEAT_TIMEOUT),
    slotRequestTimeoutMs: configuration.get(SLOT_REQUEST_TIMEOUT),
    uploadDir: configuration.get(WEB_UPLOAD_DIR),
    // under high availability every upload is copied where a standby finds it
    highAvailabilityJarDir: haConf ? join(haConf.storageDir, "jars") : undefined,
  });
  const ha = haConf ? await EtcdHaServices.connect(haConf, { logger: log.child({ component: "high-availability" }) }) : undefined;
  let leading: JobManagerLeadership | undefined;
  /** The name bundle `jarId` was uploaded with here (`job.sql`), or undefined when it came from another job manager. */
  const uploadedName = (jarId: string) => {
    const name = jm.jars.describe(jarId)?.name;
    return name === jarId ? undefined : name;
  };
  /** The program of a stored bundle (uploaded as `name`, when known) with its arguments and run configuration. */
  const stored = async (jarId: string, name: string | undefined, args: readonly string[], conf: Record<string, string>) => {
    const jar = parseJarId(jarId);
    if (!jar || !(await jm.jars.recover(jarId))) throw new RestError(404, `Jar file ${jarId} not found (upload it with POST /jars/upload)`);
    return programOf(jm.jars.path(jarId), jar, name, args, conf);
  };
  log.info({ port: jm.rpcPort }, `job manager RPC at ${configuration.get(JOBMANAGER_RPC_ADDRESS)}:${jm.rpcPort} (task managers connect here)`);
  let url = "";
  const service: JarService = {
    get address() {
      return url;
    },
    upload: (bytes, filename) => jm.jars.upload(bytes, filename),
    list: () => jm.jars.list(),
    run: async (jarId, request) => {
      const conf = runConfiguration(request, configuration);
      const args = request.programArgsList ?? [];
      const jarName = uploadedName(jarId);
      const program = await stored(jarId, jarName, args, conf);
      try {
        if (leading) return await leading.submit({ jarId, ...(jarName !== undefined && { jarName }), programArgs: args, configuration: conf });
        return (await jm.submit(program)).getJobId();
      } catch (e) {
        if (e instanceof NotLeaderError || e instanceof FencingError) throw new RestError(503, e.message);
        throw new RestError(400, `the job did not start: ${describeJobError(e, program.module)}`);
      }
    },
  };
  const server = await startRestServer({
    ...rest,
    jobs: () => jm.jobs(),
    configuration: () => ({ ...configuration.toMap(), "state.savepoints.dir": configuration.get(SAVEPOINT_DIRECTORY) }),
    webRoot: dashboardRoot(),
    metricsText: () => renderPrometheus(jm.jobs().flatMap((j) => j.getMetrics())),
    routes: (router) => jarRoutes(router, service),
    // under high availability a standby answers API calls through the leader
    ...(ha && { leader: () => leading?.restLeader() ?? Promise.resolve("electing" as const) }),
    taskManagers: () =>
      jm.pool.taskManagers.map((tm) => ({ id: tm.id, host: tm.host, pid: tm.pid, slots: tm.slots, freeSlots: jm.pool.freeSlots(tm), lastHeartbeat: tm.lastHeartbeat, hardware: tm.hardware })),
  });
  url = server.url;
  log.info({ url }, `job manager REST API and dashboard at ${url} (submit jobs with POST /jars/upload and /jars/:jarid/run)`);
  if (ha) {
    const rpcAddress = `${configuration.get(JOBMANAGER_RPC_ADDRESS)}:${jm.rpcPort}`;
    // where the others reach it: rest.address (the server may bind another, rest.bind-address)
    const restHost = configuration.get(REST_ADDRESS);
    const restAddress = `http://${restHost.includes(":") ? `[${restHost}]` : restHost}:${server.port}`;
    leading = new JobManagerLeadership(jm, ha, { rpcAddress, restAddress }, (job) =>
      stored(job.jarId, job.jarName, job.programArgs, { ...configuration.toMap(), ...job.configuration }),
    );
    leading.start();
    log.info(`contending for the leadership in etcd (${haConf!.endpoints.join(", ")}, cluster ${haConf!.clusterId})`);
  }
  const signal = await untilSignal();
  log.info(`${signal}: the job manager stops`);
  if (leading) {
    // its jobs go on under the next leader
    await leading.stop();
    ha!.close();
  } else await Promise.all(jm.jobs().map((j) => j.cancel()));
  await server.close();
  await jm.close();
  return 0;
}

/** The configuration a run request runs with: the job manager's, under the request's. */
function runConfiguration(r: JarRunRequest, commandLine: Configuration): Record<string, string> {
  const conf: Record<string, string> = { ...commandLine.toMap(), ...(r.flinkConfiguration ?? {}) };
  delete conf[WORKERS.key];
  if (r.parallelism !== undefined) conf[PARALLELISM.key] = String(r.parallelism);
  if (r.savepointPath !== undefined) conf[SAVEPOINT_PATH.key] = r.savepointPath;
  if (r.allowNonRestoredState !== undefined) conf[IGNORE_UNCLAIMED_STATE.key] = String(r.allowNonRestoredState);
  return conf;
}

/** What the job manager imports and the task managers' workers import for a bundle uploaded as `name` (when known). */
async function programOf(path: string, jar: { sha: string; ext: string }, name: string | undefined, args: readonly string[], conf: Record<string, string>): Promise<ClusterProgram> {
  const label = name ?? `${jar.sha}.${jar.ext}`;
  if (jar.ext === "sql") {
    // the script travels as an argument (every worker runs the same statements) with its file's name, which names
    // its job as `weir sql -f` names it locally
    const script = { kind: "text", text: await readFile(path, "utf8"), ...(name !== undefined && { file: name }) } as const;
    return { label, module: fileURLToPath(ownModule(...SCRIPT_JOB)), args: encodeScriptArgs([script]), configuration: conf, workerModule: { own: SCRIPT_JOB } };
  }
  return { label, module: path, args, configuration: conf, workerModule: { jar: jar.sha, ext: jar.ext } };
}

/** Runs `weir taskmanager`; resolves with the exit code (1 when it lost its job manager). */
export async function runTaskManagerCommand(args: string[]): Promise<number> {
  const configuration = clusterConfiguration("taskmanager", args);
  const log = getLogger();
  const options = {
    jobManagerHost: configuration.get(JOBMANAGER_RPC_ADDRESS),
    jobManagerPort: configuration.get(JOBMANAGER_RPC_PORT),
    slots: configuration.get(TASK_SLOTS),
    host: configuration.get(TASK_MANAGER_HOST),
    cacheDir: configuration.get(BLOB_STORAGE_DIRECTORY),
    registrationTimeoutMs: configuration.get(HEARTBEAT_TIMEOUT),
  };
  const haConf = haSettings(configuration);
  // under high availability the leader is found in etcd (jobmanager.rpc.address is not used), again after each loss
  const ha = haConf ? await EtcdHaServices.connect(haConf, { logger: log.child({ component: "high-availability" }) }) : undefined;
  const tm = ha
    ? await ClusterTaskManager.follow(options, async () => {
        const leader = await ha.currentLeader("jobmanager");
        const at = leader ? /^(.*):(\d+)$/.exec(leader.rpcAddress) : null;
        return at ? { host: at[1]!.replace(/^\[|\]$/g, ""), port: Number(at[2]) } : null;
      })
    : await ClusterTaskManager.start(options);
  const stopped = untilSignal().then((signal) => {
    log.info(`${signal}: the task manager stops`);
    tm.close();
    return "signal" as const;
  });
  const ended = tm.ended.then((why) => why);
  const outcome = await Promise.race([stopped, ended]);
  ha?.close();
  if (outcome === "signal") return 0;
  log.error(`task manager ${tm.id} ends: ${outcome}`);
  return 1;
}
