/**
 * Messages between the main thread and a worker thread (version 10: links over TCP to workers of other processes). Pure data.
 */
import type { CompiledJob } from "../compiled-job-hook.ts";
import type { CheckpointBarrier, TaskAcknowledgement } from "../../checkpoint/types.ts";
import type { Deployment, ErrorInfo } from "../../runtime/execution/deployment.ts";
import type { MetricSnapshot } from "../../metrics/metric-snapshot.ts";
import type { TaskResults } from "../../runtime/task/task-services.ts";
import type { GroupLowest } from "../../runtime/task/source-alignment.ts";
import type { LinkEnd } from "../../runtime/channel/remote-link.ts";
import type { LogLevel, LogRecord } from "../../util/logger.ts";

export const WORKER_PROTOCOL_VERSION = 10;

/** `workerData` of a worker thread. */
export interface WorkerInit {
  readonly version: number;
  readonly workerIndex: number;
  readonly workers: number;
  readonly jobModule: string;
  readonly args: readonly string[];
  /** The client's command-line configuration as strings (`Configuration.toMap()`). */
  readonly configuration: Readonly<Record<string, string>>;
  /** Level of the main thread's logger: the worker filters at it and sends its records to the main thread. */
  readonly logLevel: LogLevel;
  /** Fingerprint of the client's graph; the worker's must match. */
  readonly fingerprint: string;
  /** The job's name: a job module may start several jobs (SQL statements one after another); a worker runs the one of this name. */
  readonly jobName: string;
  /** Link (port and shared memory) to each other worker of this process, by its index. */
  readonly links: Record<number, LinkEnd>;
  /**
   * Links over TCP to the workers `peers` (of other processes, or of this one when the pool links its workers so):
   * the worker listens on `host:0` (its port in `ready`) and connects to the peers of a higher index once
   * `tcp-peers` tells their addresses; every connection's hello carries `token`.
   */
  readonly tcp?: { readonly host: string; readonly peers: readonly number[]; readonly token: string };
  /** Where the worker publishes its heartbeat and the task that runs (task-activity.ts), read by the main thread. */
  readonly activity: SharedArrayBuffer;
  /** Origin of the heartbeat's milliseconds (the main thread's `Date.now()` when it started the worker). */
  readonly epoch: number;
  /** A TypeScript job as the client compiled it: the worker loads it from here, without tsx. */
  readonly compiledJob?: CompiledJob;
}

/** Main → worker. */
export type ToWorker =
  | { type: "deploy"; deployment: Deployment }
  | { type: "cancel"; attempt: number; graceful: boolean }
  | { type: "terminate"; attempt: number }
  | { type: "resume-sources"; attempt: number }
  /** The lowest watermarks of watermark alignment group `group`. */
  | { type: "align-watermarks"; attempt: number; group: string; lowest: GroupLowest }
  /** Worker `peer` was started again: this link replaces the one to it. */
  | { type: "relink"; peer: number; link: LinkEnd }
  /**
   * Where TCP peers listen: the worker connects to each one of a higher index (again, replacing its connection,
   * when a peer comes again after it was started again). May come after `deploy`: a link buffers until connected.
   * `started`: the peers were just started, and this worker ran before them (a connection from the previous
   * thread of a lower peer is dropped then, not when it closes, which may be after the next attempt is deployed).
   */
  | { type: "tcp-peers"; peers: Record<number, { host: string; port: number }>; started?: true }
  | { type: "trigger"; attempt: number; taskId: string; barrier: CheckpointBarrier }
  | { type: "complete"; attempt: number; taskId: string; checkpointId: number }
  | { type: "aborted"; attempt: number; taskId: string; checkpointId: number };

/** Worker → main. */
export type FromWorker =
  /** The worker built the job's graph; `dataPort`: where its TCP data server listens (when `tcp` was given). */
  | { type: "ready"; dataPort?: number }
  | { type: "ack"; attempt: number; ack: TaskAcknowledgement }
  | { type: "decline"; attempt: number; checkpointId: number; taskId: string; reason: string }
  | { type: "running"; attempt: number; taskId: string }
  | { type: "end-of-data"; attempt: number; taskId: string }
  | { type: "finished"; attempt: number; taskId: string; results: TaskResults }
  | { type: "failed"; attempt: number; taskId: string; error: ErrorInfo }
  /** A source task's watermark in its watermark alignment group. */
  | { type: "watermark"; attempt: number; taskId: string; group: string; watermark: number }
  | { type: "fatal"; error: ErrorInfo }
  | { type: "cancelled"; attempt: number; positions: Record<string, unknown[]> }
  | { type: "metrics"; metrics: MetricSnapshot[] }
  /** A log record of the worker (its logger, its sinks, the job's own `getLogger()` calls), written by the main thread. */
  | { type: "log"; record: LogRecord };
