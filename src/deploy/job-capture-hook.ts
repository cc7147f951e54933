/**
 * A Node.js module hook the job loader registers after tsx in the client of a
 * TypeScript job (so it runs first and sees what tsx made of each file): it
 * records how the job's own files resolved their imports and the ES module
 * code tsx compiled each TypeScript file to, and posts both to the loader.
 * Worker threads then load the job from that record (`compiled-job-hook.ts`)
 * instead of loading tsx and compiling it again, each in its own threads.
 *
 * The job's own files: the job module and what they import, transitively,
 * outside `node_modules` and outside Weir.
 */
import type { InitializeHook, LoadHook, ResolveHook } from "node:module";
import type { MessagePort } from "node:worker_threads";
import { TYPESCRIPT_URL, type CaptureMessage } from "./compiled-job-hook.ts";

/** What the job loader tells the hook when it registers it. */
export interface JobCaptureHookData {
  /** URL of the module that imports job files. */
  jobLoader: string;
  /** URL of Weir's own folder: its modules are not the job's. */
  ownRoot: string;
  /** Where the records go. */
  port: MessagePort;
}

let data: JobCaptureHookData | undefined;
/** The job's own files (URLs). */
const jobFiles = new Set<string>();

/** Node's initialize hook. */
export const initialize: InitializeHook<JobCaptureHookData> = (d) => {
  data = d;
};

function post(m: CaptureMessage): void {
  data!.port.postMessage(m);
}

/** Node's resolve hook: records every import of a job file (and the job loader's import of the job). */
export const resolve: ResolveHook = async (specifier, context, nextResolve) => {
  const resolved = await nextResolve(specifier, context);
  const parent = context.parentURL;
  if (data && parent !== undefined && (parent === data.jobLoader || jobFiles.has(parent))) {
    post({ type: "resolve", parent, specifier, url: resolved.url, format: resolved.format ?? undefined });
    const url = resolved.url;
    if (url.startsWith("file:") && !url.includes("/node_modules/") && !url.startsWith(data.ownRoot)) jobFiles.add(url);
  }
  return resolved;
};

/** Node's load hook: records a job TypeScript file's compiled code, or that it did not compile to an ES module. */
export const load: LoadHook = async (url, context, nextLoad) => {
  const loaded = await nextLoad(url, context);
  if (data && jobFiles.has(url) && TYPESCRIPT_URL.test(url)) {
    const source = loaded.source;
    if (loaded.format === "module" && source !== undefined && source !== null)
      post({ type: "load", url, source: typeof source === "string" ? source : Buffer.from(source as Uint8Array).toString("utf8") });
    else post({ type: "incomplete", url });
  }
  return loaded;
};
