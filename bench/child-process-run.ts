/**
 * Runs an exported async function of a module in a new Node process and passes its value back: a bench
 * measurement made as a user runs a job, one job per process, without what earlier runs of the bench left
 * in the V8 heap (e.g. allocation sites that retained rows and so allocate in the old generation from then
 * on: docs/benchmarks.md, Nexmark). The child (bench/child-process-main.mjs) runs TypeScript through tsx,
 * with the parent's node flags; arguments and value cross by structured clone (plain data, `undefined` kept).
 */
import { fork } from "node:child_process";
import { fileURLToPath } from "node:url";

const CHILD_MAIN = fileURLToPath(new URL("./child-process-main.mjs", import.meta.url));

/** A call of `name`, exported by `module` (a file URL or path), with `args`; the function gets a progress callback after them. */
export interface ChildProcessCall {
  readonly module: string;
  readonly name: string;
  readonly args: readonly unknown[];
}

/** What the child sends: a progress line, then its value or its error. */
type Reply = { readonly progress: string } | { readonly value: unknown } | { readonly error: { readonly name: string; readonly message: string; readonly stack?: string } };

/**
 * Calls `name(...args, progress)` of `module` in a new Node process and resolves with its value once the process has
 * exited; the child's progress lines go to `progress`. Rejects with an error of the same name and message as the
 * function's, or when the process ends without a value.
 *
 * @example
 * ```ts
 * const figures = await runInChildProcess<NexmarkQueryFigures>(
 *   { module: import.meta.url, name: "measureNexmarkQuery", args: [{ query: "q5", dataStream: true, sql: true }] },
 *   (line) => console.error(line),
 * );
 * ```
 */
export function runInChildProcess<T>(call: ChildProcessCall, progress: (line: string) => void = () => {}): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const child = fork(CHILD_MAIN, [], { serialization: "advanced", stdio: ["ignore", "inherit", "inherit", "ipc"] });
    let outcome: { readonly value: unknown } | { readonly error: Error } | undefined;
    child.on("message", (reply: Reply) => {
      if ("progress" in reply) progress(reply.progress);
      else if ("value" in reply) outcome = { value: reply.value };
      else {
        const error = new Error(reply.error.message);
        error.name = reply.error.name;
        if (reply.error.stack !== undefined) error.stack = reply.error.stack;
        outcome = { error };
      }
    });
    child.once("error", reject);
    child.once("exit", (code, signal) => {
      if (outcome === undefined) reject(new Error(`${call.name} of ${call.module}: its process exited with ${signal ?? `code ${code}`} before giving a value`));
      else if ("error" in outcome) reject(outcome.error);
      else resolve(outcome.value as T);
    });
    child.send({ module: call.module, name: call.name, args: call.args });
  });
}
