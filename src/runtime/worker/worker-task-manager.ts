/**
 * The main thread's side of worker threads: starts N workers (each imports the
 * job module again and rebuilds the graph), connects every pair of workers
 * with a MessagePort for their channels, and drives each one as a task
 * manager by messages.
 */
import { MessageChannel, Worker, type MessagePort } from "node:worker_threads";
import type { EnvironmentOptions } from "../../api/environment-options.ts";
import type { TaskMetrics } from "../task/stream-task.ts";
import type { TaskManagerEvents, TaskManagerHandle } from "../execution/deployment.ts";
import { WORKER_PROTOCOL_VERSION, type FromWorker, type ToWorker, type WorkerInit } from "./worker-protocol.ts";

const BOOTSTRAP = new URL("./worker-bootstrap.mjs", import.meta.url);

/** Options that can cross to a worker (functions cannot). */
const PLAIN_OPTIONS = ["parallelism", "maxParallelism", "workers", "checkpointInterval", "mode", "checkpointDir", "fresh", "batchSize"] as const;

/** Starts `workers` worker threads for the job in `jobModule`. */
export function startWorkerTaskManagers(o: {
  workers: number;
  jobModule: string;
  args: readonly string[];
  options: EnvironmentOptions;
  fingerprint: string;
  events: TaskManagerEvents;
}): TaskManagerHandle[] {
  const ports: Record<number, MessagePort>[] = Array.from({ length: o.workers }, () => ({}));
  for (let i = 0; i < o.workers; i++)
    for (let j = i + 1; j < o.workers; j++) {
      const { port1, port2 } = new MessageChannel();
      ports[i]![j] = port1;
      ports[j]![i] = port2;
    }
  const options: EnvironmentOptions = {};
  for (const k of PLAIN_OPTIONS) if (o.options[k] !== undefined) (options as Record<string, unknown>)[k] = o.options[k];
  return ports.map((p, i) => workerHandle(i, { ...o, options }, p));
}

function workerHandle(
  index: number,
  o: { workers: number; jobModule: string; args: readonly string[]; options: EnvironmentOptions; fingerprint: string; events: TaskManagerEvents },
  ports: Record<number, MessagePort>,
): TaskManagerHandle {
  const init: WorkerInit = {
    version: WORKER_PROTOCOL_VERSION,
    workerIndex: index,
    workers: o.workers,
    jobModule: o.jobModule,
    args: o.args,
    options: o.options,
    fingerprint: o.fingerprint,
    ports,
  };
  const worker = new Worker(BOOTSTRAP, { workerData: init, transferList: Object.values(ports), argv: [...o.args] });
  let metrics: Record<string, TaskMetrics> = {};
  let stopping = false;
  /** The worker reported a fatal error: it runs no tasks and answers nothing. */
  let dead = false;
  const cancels = new Map<number, (positions: Record<string, unknown[]>) => void>();
  const post = (m: ToWorker) => worker.postMessage(m);
  worker.on("message", (m: FromWorker) => {
    switch (m.type) {
      case "ack": return o.events.acknowledge(m.attempt, m.ack);
      case "decline": return o.events.decline(m.attempt, m.checkpointId, m.taskId, m.reason);
      case "end-of-data": return o.events.endOfData(m.attempt, m.taskId);
      case "finished": return o.events.finished(m.attempt, m.taskId, m.results);
      case "failed": return o.events.failed(m.attempt, m.taskId, m.error);
      case "fatal":
        dead = true;
        for (const resolve of cancels.values()) resolve({});
        cancels.clear();
        return o.events.fatal(m.error);
      case "cancelled": cancels.get(m.attempt)?.(m.positions); cancels.delete(m.attempt); return;
      case "metrics": metrics = m.metrics; return;
      case "ready": return;
    }
  });
  const died = (error: Error) => {
    for (const resolve of cancels.values()) resolve({});
    cancels.clear();
    if (!stopping) o.events.fatal({ name: error.name, message: `worker thread ${index} died: ${error.message}`, stack: error.stack });
  };
  worker.on("error", died);
  worker.on("exit", (code) => {
    if (!stopping) died(new Error(`exited with code ${code}`));
    stopping = true;
  });
  return {
    deploy: (deployment) => post({ type: "deploy", deployment }),
    cancel: (attempt, graceful = false) =>
      stopping || dead
        ? Promise.resolve({})
        : new Promise((resolve) => {
            cancels.set(attempt, resolve);
            post({ type: "cancel", attempt, graceful });
          }),
    trigger: (attempt, taskId, barrier) => post({ type: "trigger", attempt, taskId, barrier }),
    notifyComplete: (attempt, taskId, checkpointId) => post({ type: "complete", attempt, taskId, checkpointId }),
    notifyAborted: (attempt, taskId, checkpointId) => post({ type: "aborted", attempt, taskId, checkpointId }),
    terminate: (attempt) => post({ type: "terminate", attempt }),
    metrics: () => metrics,
    shutdown: async () => {
      stopping = true;
      await worker.terminate();
    },
  };
}
