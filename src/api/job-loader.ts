/**
 * Imports a job module, as `weir run` and every worker thread do. A `.js` or
 * `.mjs` job loads on plain Node. A TypeScript job (`.ts`, `.tsx`, `.mts`,
 * `.cts`) loads through tsx, an optional peer dependency installed by the
 * project (`npm i -D tsx`); a `.ts`/`.tsx` job and the `.ts` files it imports
 * relatively are ES modules even in a CommonJS project (see
 * `job-format-hook.ts`), so top-level `await env.execute()` always works.
 */
import { register } from "node:module";
import { relative } from "node:path";
import { pathToFileURL } from "node:url";
import { RUNS_FROM_SOURCE } from "../util/runs-from-source.ts";
import { ownModule } from "../util/own-files.ts";
import type { JobFormatHookData } from "./job-format-hook.ts";

const TYPESCRIPT_JOB = /\.[cm]?tsx?$/;

/** Whether this thread has registered tsx (and the job format hook before it). */
let typescriptEnabled = false;

/**
 * Imports the job module at `path` (absolute), enabling TypeScript first when
 * it is a TypeScript file; rejects with a one-line cause when tsx is not installed.
 *
 * @example
 * ```ts
 * await loadJobModule(resolve("job.ts")); // its env.execute() runs the job
 * ```
 */
export async function loadJobModule(path: string): Promise<void> {
  // From source, Weir's own TypeScript is already loaded by tsx (or vitest), which loads the job too.
  if (TYPESCRIPT_JOB.test(path) && !RUNS_FROM_SOURCE) await enableTypeScript(path);
  await import(pathToFileURL(path).href);
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
  register<JobFormatHookData>(ownModule("api/job-format-hook.ts", "job-format-hook.js"), { data: { jobLoader: import.meta.url } });
  tsx.register();
  typescriptEnabled = true;
}
