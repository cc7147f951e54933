/**
 * A Node.js module hook (registered by the job loader, before tsx): a
 * TypeScript job file (`.ts`, `.tsx`) and the `.ts`/`.tsx` files it imports
 * through relative paths, transitively, are ES modules whatever the nearest
 * package.json says. A job in a CommonJS project (no `"type": "module"`) can
 * so use `import` and top-level `await env.execute()`. Other files, packages
 * under `node_modules` and `.cts` files keep Node's and tsx's rules.
 *
 * It runs inside the hook chain, under tsx: tsx's resolve sees the format
 * "module" and leaves the URL alone, and tsx's load compiles the file as an
 * ES module.
 */
import type { InitializeHook, ResolveHook } from "node:module";

/** What the job loader tells the hook when it registers it. */
export interface JobFormatHookData {
  /** URL of the module that imports job files (`job-loader`'s, wherever the bundle put it): a file it imports is a job file. */
  jobLoader: string;
}

let jobLoader: string | undefined;
const TYPESCRIPT_FILE = /^file:[^?#]*\.tsx?$/;
const RELATIVE = /^\.\.?\//;
/** Job files and the files they import relatively (URLs). */
const jobFiles = new Set<string>();

/**
 * The rule: a `.ts`/`.tsx` file outside `node_modules` that the job loader imports, or that a job file imports
 * through a relative path, is an ES module. `resolved`, with the format "module" if so.
 */
export function asJobFile<R extends { url: string; format?: string | null }>(resolved: R, specifier: string, importedByJob: boolean): R {
  if (importedByJob && TYPESCRIPT_FILE.test(resolved.url) && !resolved.url.includes("/node_modules/") && RELATIVE.test(specifier)) return { ...resolved, format: "module" };
  return resolved;
}

/** Node's initialize hook: takes the job loader's URL. */
export const initialize: InitializeHook<JobFormatHookData> = (data) => {
  jobLoader = data.jobLoader;
};

/** Node's resolve hook: the format "module" for job files (under tsx's resolve, which then keeps it). */
export const resolve: ResolveHook = async (specifier, context, nextResolve) => {
  const resolved = await nextResolve(specifier, context);
  const parent = context.parentURL;
  // the loader imports the job by an absolute URL: as if relative
  const job = asJobFile(resolved, parent === jobLoader ? "./" : specifier, parent !== undefined && (parent === jobLoader || jobFiles.has(parent)));
  if (job !== resolved) jobFiles.add(job.url);
  return job;
};
