/**
 * The one-line cause of a failed job run, located in the job file when the
 * error came from it (`job.ts:12:7: message`).
 */
import { relative } from "node:path";
import { fileURLToPath } from "node:url";

/** One line describing `e`, with the job file's line and column when the stack shows them. */
export function describeJobError(e: unknown, jobModule: string): string {
  const err = e instanceof Error ? e : new Error(String(e));
  const where = locate(err, jobModule);
  const message = err.name && err.name !== "Error" && !err.message.startsWith(err.name) ? `${err.name}: ${err.message}` : err.message;
  return where ? `${where}: ${message.split("\n")[0]}` : message.split("\n")[0]!;
}

/** `file:line:column` of the first stack frame (or esbuild location) in the job file. */
function locate(err: Error, jobModule: string): string | undefined {
  const rel = relative(process.cwd(), jobModule) || jobModule;
  const esbuild = (err as { errors?: { location?: { line: number; column: number } }[] }).errors?.[0]?.location;
  if (esbuild) return `${rel}:${esbuild.line}:${esbuild.column + 1}`;
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
