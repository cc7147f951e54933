/**
 * A Node.js module hook for a worker thread of a TypeScript job: serves the
 * job's files as the client compiled them (recorded by `job-capture-hook.ts`:
 * how each job file resolved its imports, and its ES module code), so the
 * worker neither loads tsx nor compiles the job again. The URLs are the
 * files' own: `import.meta.url` is the same as in the client.
 *
 * A job file the client had not loaded when the workers started (a dynamic
 * `import()` in a function that runs only in the tasks) is not in the
 * record: then, and only then, this hook loads tsx's hooks and hands such
 * files to them.
 */
import type { InitializeHook, LoadHook, ModuleFormat, ResolveHook } from "node:module";
import { asJobFile } from "./job-format-hook.ts";

/** A TypeScript file's URL (`.ts`, `.tsx`, `.mts`, `.cts`). */
export const TYPESCRIPT_URL = /^file:[^?#]*\.[cm]?tsx?(?:[?#]|$)/;

/** One record of the capture hook. */
export type CaptureMessage =
  | { type: "resolve"; parent: string; specifier: string; url: string; format?: ModuleFormat }
  | { type: "load"; url: string; source: string }
  /** A job TypeScript file that did not compile to an ES module (CommonJS): the record cannot serve the job. */
  | { type: "incomplete"; url: string };

/** A TypeScript job as the client compiled it: what a worker needs to load it without tsx. */
export interface CompiledJob {
  /** `parentURL + "\n" + specifier` → how it resolved, for every import in a job file (and of the job module itself). */
  readonly resolutions: Readonly<Record<string, { url: string; format?: ModuleFormat }>>;
  /** The ES module code of each job TypeScript file, by URL. */
  readonly sources: Readonly<Record<string, string>>;
}

/** What the job loader tells the hook when it registers it. */
export interface CompiledJobHookData {
  readonly job: CompiledJob;
}

type TsxHooks = { initialize?: InitializeHook; resolve: ResolveHook; load: LoadHook };

let job: CompiledJob = { resolutions: {}, sources: {} };
/** Files of the job (served, or resolved from a job file): their misses go to tsx. */
const jobFiles = new Set<string>();
/** tsx's module hooks (what `node --loader tsx/esm` registers); its types are not public. */
const TSX_HOOKS = "tsx/esm";
let tsx: Promise<TsxHooks> | undefined;

/** tsx's hooks, loaded at the first miss. */
function tsxHooks(): Promise<TsxHooks> {
  return (tsx ??= import(TSX_HOOKS).then(async (hooks: TsxHooks) => {
    await hooks.initialize?.({}); // the data of a registration without options (undefined means --loader, which tsx refuses)
    return hooks;
  }));
}

/** Node's initialize hook. */
export const initialize: InitializeHook<CompiledJobHookData> = (data) => {
  job = data.job;
  for (const url of Object.keys(job.sources)) jobFiles.add(url);
};

/** Node's resolve hook: an import recorded by the client resolves as it did there. */
export const resolve: ResolveHook = async (specifier, context, nextResolve) => {
  const parent = context.parentURL;
  if (parent === undefined) return nextResolve(specifier, context);
  const recorded = job.resolutions[`${parent}\n${specifier}`];
  if (recorded) {
    if (TYPESCRIPT_URL.test(recorded.url)) jobFiles.add(recorded.url);
    return { url: recorded.url, format: recorded.format, shortCircuit: true };
  }
  if (!jobFiles.has(parent)) return nextResolve(specifier, context);
  // under tsx, as in the client: the job format hook's rule, then tsx
  const resolved = await (await tsxHooks()).resolve(specifier, context, async (s, c) => asJobFile(await nextResolve(s, c), s, true));
  if (TYPESCRIPT_URL.test(resolved.url) && !resolved.url.includes("/node_modules/")) jobFiles.add(resolved.url);
  return resolved;
};

/** Node's load hook: a job TypeScript file the client compiled is served as it compiled it. */
export const load: LoadHook = async (url, context, nextLoad) => {
  const source = job.sources[url];
  if (source !== undefined) return { format: "module", source, shortCircuit: true };
  if (TYPESCRIPT_URL.test(url)) return (await tsxHooks()).load(url, context, nextLoad);
  return nextLoad(url, context);
};
