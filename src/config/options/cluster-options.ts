/**
 * Options of a cluster: the job manager (`weir jobmanager`) and its task
 * managers (`weir taskmanager`), with Flink's keys and defaults.
 */
import { ConfigOptions } from "../config-option.ts";

const port = (n: number) => (n >= 0 && n <= 65_535 ? undefined : "a port from 0 to 65535");
const positive = (ms: number) => (ms > 0 ? undefined : "a duration > 0");

/** `jobmanager.rpc.address`: where task managers reach the job manager, and what it binds. */
export const JOBMANAGER_RPC_ADDRESS = ConfigOptions.string(
  "jobmanager.rpc.address",
  "The address of the job manager's RPC endpoint: the job manager binds it, task managers connect to it.",
  "127.0.0.1",
);

/** `jobmanager.rpc.port`. */
export const JOBMANAGER_RPC_PORT = ConfigOptions.int("jobmanager.rpc.port", "The port of the job manager's RPC endpoint for task managers (0: any free port, printed at the start).", 6123, { check: port });

/** `heartbeat.interval`. */
export const HEARTBEAT_INTERVAL = ConfigOptions.duration("heartbeat.interval", "How often a task manager and the job manager send each other a heartbeat.", 10_000, { check: positive });

/** `heartbeat.timeout`. */
export const HEARTBEAT_TIMEOUT = ConfigOptions.duration(
  "heartbeat.timeout",
  "How long without a heartbeat before the job manager takes a task manager for lost (its jobs fail over) and a task manager its job manager; also how long a task manager waits for a job manager to accept its connection and registration.",
  50_000,
  { check: positive },
);

/** `slot.request.timeout`. */
export const SLOT_REQUEST_TIMEOUT = ConfigOptions.duration(
  "slot.request.timeout",
  "How long a job waits for enough free task slots before its attempt fails (then its restart strategy decides).",
  300_000,
  { check: positive },
);

/** `taskmanager.numberOfTaskSlots`. */
export const TASK_SLOTS = ConfigOptions.int("taskmanager.numberOfTaskSlots", "Task slots a task manager offers: each runs one worker thread of a job (one worker index of its plan).", 1, {
  check: (n) => (n >= 1 ? undefined : "at least 1"),
});

/** `taskmanager.host`. */
export const TASK_MANAGER_HOST = ConfigOptions.string(
  "taskmanager.host",
  "The address of a task manager that other task managers connect to for records between them (its worker threads listen there).",
  "127.0.0.1",
);

/** `web.upload.dir`: the job manager's store of submitted job bundles. */
export const WEB_UPLOAD_DIR = ConfigOptions.string(
  "web.upload.dir",
  "Where the job manager stores the job bundles uploaded with POST /jars/upload (by their sha256). A bundle imports weirjs: keep it under a directory whose node_modules has it.",
  ".weir/jars",
);

/** `blob.storage.directory`: a task manager's cache of job bundles. */
export const BLOB_STORAGE_DIRECTORY = ConfigOptions.string(
  "blob.storage.directory",
  "Where a task manager caches the job bundles it fetched from the job manager (by their sha256). A bundle imports weirjs: keep it under a directory whose node_modules has it.",
  ".weir/blobs",
);

export const CLUSTER_OPTIONS = [
  JOBMANAGER_RPC_ADDRESS,
  JOBMANAGER_RPC_PORT,
  HEARTBEAT_INTERVAL,
  HEARTBEAT_TIMEOUT,
  SLOT_REQUEST_TIMEOUT,
  TASK_SLOTS,
  TASK_MANAGER_HOST,
  WEB_UPLOAD_DIR,
  BLOB_STORAGE_DIRECTORY,
] as const;
