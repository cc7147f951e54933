/**
 * The task cancellation watchdog of an in-process run (`--workers 0`), where
 * the tasks run on the main thread: user code in an endless loop blocks that
 * thread's event loop, so no signal handler (Ctrl-C, SIGTERM) can run there.
 * A small side thread reads the main thread's heartbeat and the task that ran
 * last (task-activity.ts). When the main thread has been blocked for the
 * timeout, it names the task on standard error; if a stop had been asked for
 * before, it ends the process (SIGKILL: the main thread can run no exit code).
 * A Ctrl-C that arrives while the main thread is blocked cannot be seen by any
 * thread of the process, so then the side thread only warns, once.
 *
 * @example
 * ```ts
 * const watchdog = watchMainThread(client.getTaskNames(), 30_000);
 * process.on("SIGINT", () => watchdog.stopRequested());
 * // … when the run ended
 * watchdog.stop();
 * ```
 */
import { Worker } from "node:worker_threads";
import { shareTaskActivity, TASK_ACTIVITY_BYTES } from "../runtime/task/task-activity.ts";

/** The side thread (plain JavaScript: it needs no TypeScript loader). */
const SIDE_THREAD = `
const { workerData: d } = require("node:worker_threads");
const { writeSync } = require("node:fs");
const activity = new Int32Array(d.activity);
const control = new Int32Array(d.control);
let warned = false;
setInterval(() => {
  const blockedMs = Date.now() - (d.epoch + Atomics.load(activity, 0));
  if (blockedMs < d.timeoutMs) return;
  const active = Atomics.load(activity, 1);
  const name = active > 0 ? d.names[active - 1] : "a task";
  const seconds = d.timeoutMs / 1000;
  if (Atomics.load(control, 0) === 1) {
    writeSync(2, "weir: error: " + name + " (main thread) did not stop within " + seconds + " s of the stop request (stuck in user code?): ending the process (SIGKILL)\\n");
    process.kill(process.pid, "SIGKILL");
  } else if (!warned) {
    warned = true;
    writeSync(2, "weir: warning: " + name + " has kept the main thread busy for " + seconds + " s (stuck in user code?); with --workers 0 no signal handler can run while it does: Ctrl-C cannot stop it, SIGKILL can; with --workers 1 or more a stop ends it\\n");
  }
}, Math.min(250, d.timeoutMs));
`;

/** A running watchdog. */
export interface MainThreadWatchdog {
  /** A stop was asked for: from now on a blocked main thread ends the process. */
  stopRequested(): void;
  stop(): void;
}

/** Starts the side thread watching this (the main) thread, whose tasks are named `names` by plan ordinal. */
export function watchMainThread(names: readonly string[], timeoutMs: number): MainThreadWatchdog {
  const activity = new SharedArrayBuffer(TASK_ACTIVITY_BYTES);
  const control = new SharedArrayBuffer(4);
  const epoch = Date.now();
  const unshare = shareTaskActivity(activity, epoch);
  const worker = new Worker(SIDE_THREAD, { eval: true, workerData: { activity, control, epoch, timeoutMs, names } });
  worker.unref();
  return {
    stopRequested: () => Atomics.store(new Int32Array(control), 0, 1),
    stop: () => {
      unshare();
      void worker.terminate();
    },
  };
}
