/**
 * A worker thread: imports the job module again (so user closures exist
 * here), checks that the graph it built is the client's (fingerprint), and
 * runs the subtasks the plan assigns to it as a task manager driven by the
 * main thread's messages.
 */
import { parentPort, workerData } from "node:worker_threads";
import { setLaunch } from "../launch-context.ts";
import { loadJobModule } from "../job-loader.ts";
import type { Link } from "../../runtime/channel/link.ts";
import { RemoteLink } from "../../runtime/channel/remote-link.ts";
import { TcpDataPlane } from "../../runtime/channel/tcp-data-plane.ts";
import { errorInfo } from "../../runtime/execution/deployment.ts";
import { planExecution } from "../../runtime/execution/execution-plan.ts";
import { TaskManager } from "../../runtime/execution/task-manager.ts";
import { shareTaskActivity } from "../../runtime/task/task-activity.ts";
import { systemClock } from "../../util/clock.ts";
import { configureLogging, getLogger, type LogRecord } from "../../util/logger.ts";
import { EarlyMessages } from "./early-messages.ts";
import { WORKER_PROTOCOL_VERSION, type FromWorker, type ToWorker, type WorkerInit } from "./worker-protocol.ts";

const METRICS_INTERVAL_MS = 250;
const init = workerData as WorkerInit;
const port = parentPort!;
const post = (m: FromWorker) => port.postMessage(m);
const fatal = (message: string, e?: unknown) => post({ type: "fatal", error: { ...errorInfo(e ?? new Error(message)), message } });

configureLogging({ level: init.logLevel, destination: postLog });
shareTaskActivity(init.activity, init.epoch);

/** Sends a record to the main thread (without its fields if they cannot be cloned, e.g. a function). */
function postLog(record: LogRecord): void {
  try {
    post({ type: "log", record });
  } catch {
    post({ type: "log", record: { ...record, fields: {} } });
  }
}

let manager: TaskManager | null = null;
const early = new EarlyMessages();
/** Links to the other workers, by index (a shared-memory link is replaced when its worker is started again). */
const links = new Map<number, Link>();
/** The TCP links to workers of other processes (or of this one, when the pool links its workers so), and their server. */
const tcp = init.tcp ? new TcpDataPlane({ self: init.workerIndex, host: init.tcp.host, peers: init.tcp.peers, token: init.tcp.token }) : null;
if (tcp) for (const [peer, link] of tcp.links) links.set(peer, link);
/** The port of the TCP data server (undefined without TCP links). */
const dataPort: Promise<number | undefined> = tcp ? tcp.listening : Promise.resolve(undefined);
dataPort.catch((e) => fatal(`worker ${init.workerIndex} cannot listen for TCP links on ${init.tcp?.host}: ${(e as Error).message}`, e));

function handle(m: ToWorker, tm: TaskManager): void {
  switch (m.type) {
    case "deploy":
      tm.deploy(m.deployment);
      // the new tasks' metrics at once (a task stuck from its first records would never report them)
      post({ type: "metrics", metrics: tm.metrics() });
      return;
    case "terminate": return tm.terminate(m.attempt);
    case "resume-sources": return tm.resumeSources(m.attempt);
    case "align-watermarks": return tm.alignWatermarks(m.attempt, m.group, m.lowest);
    case "relink":
      links.get(m.peer)?.close();
      links.set(m.peer, new RemoteLink(m.link));
      return;
    case "trigger": return tm.trigger(m.attempt, m.taskId, m.barrier);
    case "complete": return tm.notifyComplete(m.attempt, m.taskId, m.checkpointId);
    case "aborted": return tm.notifyAborted(m.attempt, m.taskId, m.checkpointId);
    case "cancel":
      void tm.cancel(m.attempt, m.graceful).then((positions) => {
        // the counts at the cancellation, for the summary of a failed, stopped or cancelled run
        post({ type: "metrics", metrics: tm.metrics() });
        post({ type: "cancelled", attempt: m.attempt, positions });
      });
      return;
  }
}

port.on("message", (m: ToWorker) => {
  // the data plane exists before the job's graph: a peer may connect (or be told of) at any time
  if (m.type === "tcp-peers") {
    try {
      if (!tcp) throw new Error("got the addresses of TCP peers but was started without TCP links");
      tcp.setPeers(m.peers, m.started === true);
    } catch (e) {
      fatal(`worker ${init.workerIndex}: ${(e as Error).message}`, e);
    }
  }
  else if (manager) handle(m, manager);
  else if (m.type === "cancel") {
    early.cancel(m.attempt);
    post({ type: "cancelled", attempt: m.attempt, positions: {} });
  } else early.add(m);
});

if (init.version !== WORKER_PROTOCOL_VERSION) {
  fatal(`worker protocol ${init.version} is not ${WORKER_PROTOCOL_VERSION}`);
} else {
  setLaunch({
    role: "worker",
    jobModule: init.jobModule,
    args: init.args,
    configuration: init.configuration,
    onWorkerGraph(graph, fingerprint) {
      if (manager) return false;
      // a graph of another name and shape: another job the module starts (SQL statements one after another)
      if (fingerprint !== init.fingerprint && graph.name !== init.jobName) return false;
      if (fingerprint !== init.fingerprint) {
        fatal(
          `worker ${init.workerIndex} built a different job graph than the client (fingerprint ${fingerprint} vs ${init.fingerprint}): ` +
            "the job module must build the same graph every time it is imported (no randomness, time or environment-dependent operators)",
        );
        return false;
      }
      const plan = planExecution(graph, init.workers);
      getLogger().debug(
        { component: "workers", worker: init.workerIndex },
        `worker ${init.workerIndex}: same job graph as the client; runs ${plan.tasks.filter((t) => t.worker === init.workerIndex).length} subtasks`,
      );
      for (const [k, end] of Object.entries(init.links)) links.set(Number(k), new RemoteLink(end));
      const tm = new TaskManager(
        init.workerIndex,
        plan,
        links,
        {
          acknowledge: (attempt, ack) => post({ type: "ack", attempt, ack }),
          decline: (attempt, checkpointId, taskId, reason) => post({ type: "decline", attempt, checkpointId, taskId, reason }),
          running: (attempt, taskId) => post({ type: "running", attempt, taskId }),
          endOfData: (attempt, taskId) => post({ type: "end-of-data", attempt, taskId }),
          finished: (attempt, taskId, results) => {
            // the final counts, before the job master learns the task finished
            post({ type: "metrics", metrics: tm.metrics() });
            post({ type: "finished", attempt, taskId, results });
          },
          failed: (attempt, taskId, error) => {
            // the counts at the failure, for the failed run's summary
            post({ type: "metrics", metrics: tm.metrics() });
            post({ type: "failed", attempt, taskId, error });
          },
          fatal: (error) => post({ type: "fatal", error }),
          watermark: (attempt, taskId, group, watermark) => post({ type: "watermark", attempt, taskId, group, watermark }),
        },
        systemClock,
      );
      manager = tm;
      setInterval(() => post({ type: "metrics", metrics: tm.metrics() }), METRICS_INTERVAL_MS).unref();
      for (const m of early.drain()) handle(m, tm);
      void dataPort.then((p) => post(p === undefined ? { type: "ready" } : { type: "ready", dataPort: p }), () => {});
      return true;
    },
  });
  if (init.compiledJob) getLogger().debug({ component: "workers", worker: init.workerIndex }, `worker ${init.workerIndex}: loads the job as the client compiled it (no tsx)`);
  loadJobModule(init.jobModule, init.compiledJob).then(
    () => {
      if (!manager) fatal(`job module ${init.jobModule} finished without calling env.execute() in worker ${init.workerIndex}`);
    },
    (e) => fatal(`job module ${init.jobModule} failed in worker ${init.workerIndex}: ${(e as Error)?.message ?? e}`, e),
  );
}
