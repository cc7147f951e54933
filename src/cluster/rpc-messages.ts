/**
 * The messages between the job manager and its task managers (frames of
 * `rpc-connection.ts`). The worker protocol (`ToWorker`, `FromWorker`) is
 * relayed inside them as `v8.serialize` bytes: the same structured clone the
 * worker threads' ports use (maps, typed arrays, undefined), which msgpack
 * maps would not keep.
 */

/** Version of these messages; a task manager of another version is refused. */
export const RPC_PROTOCOL_VERSION = 2;

/** What a task manager needs to start the worker threads of one job's attempt on its slots. */
export interface StartWorkers {
  /** The job run (its id). */
  readonly job: string;
  /** Worker indices to start here (each one slot). */
  readonly indices: readonly number[];
  /** Workers of the job's plan in all. */
  readonly workers: number;
  /** Channels of the plan (sizes each link's credit counters). */
  readonly channels: number;
  /**
   * What the workers import: a job bundle (by sha256 and extension, fetched from the job manager), or a
   * module of Weir itself (`ownModule`'s source path and compiled name: the SQL script job).
   */
  readonly module: { readonly jar: string; readonly ext: string } | { readonly own: readonly [string, string] };
  readonly args: readonly string[];
  readonly configuration: Readonly<Record<string, string>>;
  readonly fingerprint: string;
  readonly jobName: string;
  /** The secret of the job's TCP links between workers of different task managers. */
  readonly token: string;
}

/** What a task manager reports of its host at registration (Flink's `hardware` of `/taskmanagers`). */
export interface TaskManagerHardware {
  /** Cores the process may use (`os.availableParallelism()`). */
  readonly cpuCores: number;
  /** Bytes of memory of the host. */
  readonly physicalMemory: number;
  /** Bytes of memory free on the host. */
  readonly freeMemory: number;
}

/** Task manager → job manager. */
export type FromTaskManager =
  | { type: "register"; version: number; id: string; slots: number; host: string; pid: number; hardware: TaskManagerHardware }
  /** With the process's free memory now (Flink shows it in `/taskmanagers`). */
  | { type: "heartbeat"; freeMemory?: number }
  | { type: "fetch-jar"; jar: string; ext: string }
  /** A message of worker `index` of `job` (v8-serialized `FromWorker`). */
  | { type: "from-worker"; job: string; index: number; payload: Uint8Array }
  /** Worker `index` of `job` died (an error outside task code, or it exited). */
  | { type: "worker-died"; job: string; index: number; message: string; stack?: string }
  /** The jar could not be fetched or the workers not started. */
  | { type: "start-failed"; job: string; indices: readonly number[]; message: string };

/** Job manager → task manager. */
export type ToTaskManager =
  | { type: "registered"; heartbeatIntervalMs: number; heartbeatTimeoutMs: number }
  | { type: "refused"; reason: string }
  | { type: "heartbeat" }
  | { type: "jar"; jar: string; bytes: Uint8Array | null; error?: string }
  | ({ type: "start-workers" } & StartWorkers)
  /** A message to worker `index` of `job` (v8-serialized `ToWorker`). */
  | { type: "to-worker"; job: string; index: number; payload: Uint8Array }
  /** Stop these workers of `job` (all of the job's on this task manager when `indices` is absent). */
  | { type: "stop-workers"; job: string; indices?: readonly number[] };
