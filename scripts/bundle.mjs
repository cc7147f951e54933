// What Weir's bundle (scripts/build.mjs) and the repository's test bundle (scripts/dev-bundle.mjs) share: the entry
// points, the esbuild options (so both have the same layout) and when a bundle is out of date.
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";

/** The bundle's entry points: output name (in dist/) → source. src/util/own-files.ts refers to them by name. */
export const ENTRY_POINTS = {
  index: "src/index.ts",
  cli: "src/cli/main.ts",
  "worker-main": "src/deploy/worker/worker-main.ts",
  "sql-script-job": "src/sql-client/sql-script-job.ts",
  "job-format-hook": "src/deploy/job-format-hook.ts",
  "job-capture-hook": "src/deploy/job-capture-hook.ts",
  "compiled-job-hook": "src/deploy/compiled-job-hook.ts",
};

/** esbuild options of a bundle of Weir into `outdir` (from the repository root `root`). */
export function bundleOptions(root, outdir, entryPoints) {
  return {
    absWorkingDir: root,
    entryPoints,
    outdir,
    chunkNames: "chunk-[hash]",
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node20",
    packages: "external",
    // class and function names as written (error names, messages): bundling may rename clashing top-level names
    keepNames: true,
    sourcemap: "linked",
    sourcesContent: false,
    logLevel: "warning",
  };
}

/** Whether the file `output` is newer than every file and folder under `root`/src (a deletion changes its folder's time) and than `inputs`. */
export function newerThanSources(root, output, inputs) {
  const built = statSync(output, { throwIfNoEntry: false })?.mtimeMs;
  if (built === undefined) return false;
  const src = join(root, "src");
  const all = [src, join(root, "package.json"), ...inputs, ...readdirSync(src, { recursive: true, encoding: "utf8" }).map((f) => join(src, f))];
  return all.every((f) => statSync(f).mtimeMs < built);
}
