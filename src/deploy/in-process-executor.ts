/** Runs every subtask in the calling thread (`workers: 0`): fastest to start; tests, the demo and small jobs. */
import { localTaskManager } from "../runtime/execution/local-task-manager.ts";
import type { Clock } from "../util/clock.ts";
import type { Executor } from "./executor.ts";

/**
 * @example
 * ```ts
 * const executor = inProcessExecutor(systemClock);
 * ```
 */
export function inProcessExecutor(clock: Clock): Executor {
  return {
    kind: "in-process",
    threads: 1,
    taskManagers: (plan, events) => [localTaskManager(plan, events, clock)],
  };
}
