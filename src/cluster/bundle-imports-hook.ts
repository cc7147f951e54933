/**
 * A Node.js module hook for the processes that load job bundles (see
 * `job-bundle.ts`): a bundle in one of the given folders imports `weirjs`, and
 * that import resolves to the Weir of the loading process, wherever it is
 * installed and whatever the folder's own `node_modules` hold: one copy of
 * Weir per process, whose launch context the job's environment sees.
 */
import type { InitializeHook, ResolveHook } from "node:module";

/** What `registerBundleImports` tells the hook. */
export interface BundleImportsHookData {
  /** URLs of the folders that hold bundles, each ending in `/`. */
  readonly folders: readonly string[];
  /** URL of Weir's public entry in the loading process. */
  readonly entry: string;
}

let data: BundleImportsHookData = { folders: [], entry: "" };

/** Node's initialize hook. */
export const initialize: InitializeHook<BundleImportsHookData> = (d) => {
  data = d;
};

/** Node's resolve hook: `weirjs` imported by a bundle resolves as Weir's entry (through the hooks registered before, as a dev setup maps it). */
export const resolve: ResolveHook = (specifier, context, nextResolve) => {
  const parent = context.parentURL;
  if (specifier === "weirjs" && parent !== undefined && data.folders.some((f) => parent.startsWith(f))) return nextResolve(data.entry, context);
  return nextResolve(specifier, context);
};
