/**
 * Where Weir's own files are, in either form it runs in. From source (the
 * repository's tests and benchmarks) every module is at its path under `src/`.
 * Compiled (the package's `dist/`), Weir is one bundle in one flat folder: its
 * entry points (`index.js`, `cli.js`, `worker-main.js`, `sql-script-job.js`
 * and the module hooks, named in scripts/build.mjs) and the chunks they share,
 * so a module's own URL says nothing about where another one is.
 *
 * @example
 * ```ts
 * const entry = ownModule("deploy/worker/worker-bootstrap.mjs", "worker-main.js"); // a URL
 * ```
 */
import { RUNS_FROM_SOURCE } from "./runs-from-source.ts";

/** `src/` from source, `dist/` compiled (this module is at `src/util/own-files.ts`, or in a chunk at the top of `dist/`). */
export const OWN_ROOT = new URL(RUNS_FROM_SOURCE ? "../" : "./", import.meta.url);

/** Weir's package.json (beside `src/` and `dist/`). */
export const OWN_PACKAGE_JSON = new URL("../package.json", OWN_ROOT);

/** One of Weir's modules: `sourcePath` under `src/` when running from source, else the bundle's entry `bundleEntry`. */
export function ownModule(sourcePath: string, bundleEntry: string): URL {
  return new URL(RUNS_FROM_SOURCE ? sourcePath : bundleEntry, OWN_ROOT);
}
