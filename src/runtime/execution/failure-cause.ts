/**
 * The cause of a failed attempt, for the line printed on every restart and
 * for noticing a failure that repeats: which task (operator chain and
 * subtask), the error, and where in user code it was thrown. Pure functions.
 */
import { isAbsolute, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { TolerableCheckpointFailuresExceeded } from "../../checkpoint/coordinator/index.ts";

/** Why one attempt of a job failed. */
export interface FailureCause {
  /** One line: the failed task (or checkpointing), the error, and its place in user code. */
  readonly description: string;
  /** Equal for two failures of the same task with the same error at the same place and input position. */
  readonly key: string;
}

/**
 * The cause of an attempt that failed with `error`. `taskId` is the failed
 * task, if a task failed (its message already names the operators, the subtask
 * and, for input errors, the file and line); `ownSource` is Weir's own source
 * directory, whose stack frames are not the user's code; paths are shown
 * relative to `cwd`.
 *
 * @example
 * ```ts
 * failureCause(error, "v1#0", "/app/node_modules/weir/src/", "/app").description;
 * // "task 'Sequence -> Map -> Print' 1/1 failed: boom at 50 (at job.ts:7:25)"
 * ```
 */
export function failureCause(error: Error, taskId: string | undefined, ownSource: string, cwd: string): FailureCause {
  const location = userCodeLocation(error.stack, ownSource, cwd);
  const description = location ? `${error.message} (at ${location})` : error.message;
  return { description, key: [taskId ?? "job", error.name, stableMessage(error), location ?? ""].join("\n") };
}

/**
 * `file:line:column` of the first stack frame in user code: not in
 * `ownSource`, not in node_modules, not a Node.js internal. Undefined if there is none.
 */
export function userCodeLocation(stack: string | undefined, ownSource: string, cwd: string): string | undefined {
  for (const line of (stack ?? "").split("\n")) {
    const m = /^\s*at (?:.*\()?(\S+?):(\d+):(\d+)\)?$/.exec(line);
    if (!m) continue;
    let file = m[1]!;
    if (file.startsWith("file://")) file = fileURLToPath(file);
    if (!isAbsolute(file) || file.startsWith(ownSource) || file.includes("/node_modules/")) continue;
    const shown = relative(cwd, file);
    return `${shown.startsWith("..") ? file : shown}:${m[2]}:${m[3]}`;
  }
  return undefined;
}

/**
 * The message without what differs between attempts for the same failure:
 * a checkpoint failure names the checkpoint id, which is new in every attempt.
 */
function stableMessage(error: Error): string {
  if (!(error instanceof TolerableCheckpointFailuresExceeded)) return error.message;
  const last = error.lastFailure;
  return `${last.reason}: ${last.message.replace(String(last.checkpointId), "<id>")}`;
}
