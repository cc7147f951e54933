/**
 * The one-line cause of a failed job run, located in the job file when the
 * error came from it (`job.ts:12:7: message`).
 */
import { relative } from "node:path";
import { fileURLToPath } from "node:url";

/** One line describing `e`, with the job file's line and column when the stack shows them. */
export function describeJobError(e: unknown, jobModule: string): string {
  const err = e instanceof Error ? e : new Error(String(e));
  const compile = compileError(err, jobModule);
  if (compile) return compile;
  const where = locate(err, jobModule);
  const message = err.name && err.name !== "Error" && !err.message.startsWith(err.name) ? `${err.name}: ${err.message}` : err.message;
  return where ? `${where}: ${message.split("\n")[0]}` : message.split("\n")[0]!;
}

/** A TypeScript/esbuild transform error: "Transform failed …\n/abs/job.ts:3:18: ERROR: Unexpected ';'" → "job.ts:3:18: Unexpected ';'". */
function compileError(err: Error, jobModule: string): string | undefined {
  if (err.name !== "TransformError") return undefined;
  for (const line of err.message.split("\n")) {
    const m = /^(.*?):(\d+):(\d+): ERROR: (.*)$/.exec(line.trim());
    // esbuild columns are 0-based; V8's (and editors') are 1-based
    if (m) return `${relative(process.cwd(), m[1]!) || m[1]}:${m[2]}:${Number(m[3]) + 1}: ${m[4]}`;
  }
  return `${relative(process.cwd(), jobModule)}: ${err.message.replace(/\s+/g, " ")}`;
}

/** `file:line:column` of the first stack frame (or esbuild location) in the job file. */
function locate(err: Error, jobModule: string): string | undefined {
  const rel = relative(process.cwd(), jobModule) || jobModule;
  const chain: unknown[] = [err];
  for (let c = (err as { cause?: unknown }).cause; c; c = (c as { cause?: unknown }).cause) chain.push(c);
  for (const x of chain) {
    const stack = (x as Error)?.stack ?? "";
    for (const line of stack.split("\n")) {
      const m = /\(?((?:file:\/\/)?[^\s()]+):(\d+):(\d+)\)?$/.exec(line.trim());
      if (!m) continue;
      const file = m[1]!.startsWith("file:") ? fileURLToPath(m[1]!) : m[1]!;
      if (file === jobModule) return `${rel}:${m[2]}:${m[3]}`;
    }
  }
  return undefined;
}
