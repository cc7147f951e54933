/**
 * A task manager in the job master's own thread (`workers: 0`): every subtask
 * runs in the main thread as its own mailbox loop. Fastest to start; used by
 * tests, the demo and small jobs.
 */
import type { Clock } from "../../util/clock.ts";
import type { ExecutionPlan } from "./execution-plan.ts";
import type { TaskManagerEvents, TaskManagerHandle } from "./deployment.ts";
import { TaskManager } from "./task-manager.ts";

/** Runs every task of `plan` (planned for one worker) in this thread. */
export function localTaskManager(plan: ExecutionPlan, events: TaskManagerEvents, clock: Clock): TaskManagerHandle {
  // Events are delivered on a later microtask so that the job master never runs inside a task's stack.
  const deferred: TaskManagerEvents = {
    acknowledge: (...a) => queueMicrotask(() => events.acknowledge(...a)),
    decline: (...a) => queueMicrotask(() => events.decline(...a)),
    running: (...a) => queueMicrotask(() => events.running(...a)),
    endOfData: (...a) => queueMicrotask(() => events.endOfData(...a)),
    finished: (...a) => queueMicrotask(() => events.finished(...a)),
    failed: (...a) => queueMicrotask(() => events.failed(...a)),
    watermark: (...a) => queueMicrotask(() => events.watermark(...a)),
    fatal: (...a) => queueMicrotask(() => events.fatal(...a)),
  };
  const tm = new TaskManager(0, plan, new Map(), deferred, clock, "in-process");
  return {
    deploy: (d) => tm.deploy(d),
    cancel: (attempt, graceful) => tm.cancel(attempt, graceful),
    trigger: (a, t, b) => tm.trigger(a, t, b),
    notifyComplete: (a, t, id) => tm.notifyComplete(a, t, id),
    notifyAborted: (a, t, id) => tm.notifyAborted(a, t, id),
    terminate: (a) => tm.terminate(a),
    resumeSources: (a) => tm.resumeSources(a),
    alignWatermarks: (a, group, lowest) => tm.alignWatermarks(a, group, lowest),
    metrics: () => tm.metrics(),
    blocked: () => ({ forMs: 0, activeTask: undefined }),
    shutdown: async () => {},
  };
}
