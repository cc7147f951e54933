/**
 * Imports a job module, as `weir run` and every worker thread do. A `.js` or
 * `.mjs` job loads on plain Node. A TypeScript job (`.ts`, `.tsx`, `.mts`,
 * `.cts`) loads through tsx, an optional peer dependency installed by the
 * project (`npm i -D tsx`); a `.ts`/`.tsx` job and the `.ts` files it imports
 * relatively are ES modules even in a CommonJS project (see
 * `job-format-hook.ts`), so top-level `await env.execute()` always works.
 *
 * tsx compiles a TypeScript job once, in the client: a hook after it records
 * the compiled job (`job-capture-hook.ts`), and worker threads load that
 * record (`compiled-job-hook.ts`) instead of loading tsx again.
 */
import { register } from "node:module";
import { MessageChannel, receiveMessageOnPort, type MessagePort } from "node:worker_threads";
import { relative } from "node:path";
import { pathToFileURL } from "node:url";
import { RUNS_FROM_SOURCE } from "../util/runs-from-source.ts";
import { OWN_ROOT, ownModule } from "../util/own-files.ts";
import type { JobFormatHookData } from "./job-format-hook.ts";
import type { JobCaptureHookData } from "./job-capture-hook.ts";
import type { CaptureMessage, CompiledJob, CompiledJobHookData } from "./compiled-job-hook.ts";

const TYPESCRIPT_JOB = /\.[cm]?tsx?$/;

/** Whether this thread has registered tsx (and the job format hook before it), or the compiled job's hook. */
let typescriptEnabled = false;
/** Where the capture hook's records arrive (in the client of a TypeScript job), and what they say so far. */
let capture: { port: MessagePort; resolutions: Record<string, CompiledJob["resolutions"][string]>; sources: Record<string, string>; complete: boolean } | undefined;

/**
 * Imports the job module at `path` (absolute), enabling TypeScript first when
 * it is a TypeScript file: from `compiled` (what the client compiled, see
 * {@link compiledJob}) when given, else through tsx; rejects with a one-line
 * cause when tsx is needed and not installed.
 *
 * @example
 * ```ts
 * await loadJobModule(resolve("job.ts")); // its env.execute() runs the job
 * ```
 */
export async function loadJobModule(path: string, compiled?: CompiledJob): Promise<void> {
  // From source, Weir's own TypeScript is already loaded by tsx (or vitest), which loads the job too.
  if (TYPESCRIPT_JOB.test(path) && !RUNS_FROM_SOURCE) {
    if (compiled) await serveCompiledJob(compiled);
    else await enableTypeScript(path);
  }
  await import(pathToFileURL(path).href);
}

/**
 * The TypeScript job this thread loaded, as tsx compiled it (for worker
 * threads: {@link loadJobModule}'s `compiled`); undefined when it loaded none,
 * or when a job file did not compile to an ES module.
 */
export function compiledJob(): CompiledJob | undefined {
  if (!capture) return undefined;
  for (let m = receiveMessageOnPort(capture.port); m; m = receiveMessageOnPort(capture.port)) {
    const r = m.message as CaptureMessage;
    if (r.type === "resolve") capture.resolutions[`${r.parent}\n${r.specifier}`] = { url: r.url, ...(r.format ? { format: r.format } : {}) };
    else if (r.type === "load") capture.sources[r.url] = r.source;
    else capture.complete = false;
  }
  return capture.complete && Object.keys(capture.sources).length > 0 ? { resolutions: capture.resolutions, sources: capture.sources } : undefined;
}

/**
 * Registers the hook that serves the compiled job (source maps on, as tsx turns them on). Weir's public entry,
 * which the job imports, is loaded first: every module loaded after the hook is registered makes a round trip
 * to the hooks' thread.
 */
async function serveCompiledJob(job: CompiledJob): Promise<void> {
  if (typescriptEnabled) return;
  await import(ownModule("index.ts", "index.js").href);
  register<CompiledJobHookData>(ownModule("deploy/compiled-job-hook.ts", "compiled-job-hook.js"), { data: { job } });
  process.setSourceMapsEnabled(true);
  typescriptEnabled = true;
}

/** Registers the job format hook, then tsx (hooks registered later run first: tsx sees the format the hook chose). */
async function enableTypeScript(path: string): Promise<void> {
  if (typescriptEnabled) return;
  let tsx: typeof import("tsx/esm/api");
  try {
    tsx = await import("tsx/esm/api");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "ERR_MODULE_NOT_FOUND" || !String((e as Error).message).includes("'tsx'")) throw e;
    throw new Error(`${relative(process.cwd(), path) || path} is TypeScript, which needs tsx: install it in the project (npm i -D tsx), or run a compiled .js/.mjs job`);
  }
  // this module imports the job: the hook knows job files by their importer (this module's URL: a chunk, compiled)
  register<JobFormatHookData>(ownModule("deploy/job-format-hook.ts", "job-format-hook.js"), { data: { jobLoader: import.meta.url } });
  tsx.register();
  const { port1, port2 } = new MessageChannel();
  port2.unref();
  capture = { port: port2, resolutions: {}, sources: {}, complete: true };
  const data: JobCaptureHookData = { jobLoader: import.meta.url, ownRoot: OWN_ROOT.href, port: port1 };
  register<JobCaptureHookData>(ownModule("deploy/job-capture-hook.ts", "job-capture-hook.js"), { data, transferList: [port1] });
  typescriptEnabled = true;
}
