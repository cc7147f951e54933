#!/usr/bin/env node
// `npm run build`: builds dist/ from src/ in two steps.
// 1. tsc in build mode writes the declarations (.d.ts and their maps, the package's types), skipping the work
//    when nothing changed since the last build.
// 2. esbuild bundles the JavaScript: the package's entry points (below) and the chunks they share, all in the top
//    folder of dist/ (src/util/own-files.ts finds them there), packages left as imports. A few files instead of
//    ~450 modules: Node starts Weir several times faster (docs/benchmarks.md, "Start-up"), and a TypeScript job's
//    loader (tsx) has only the job's own files left to look at. Code a command loads only sometimes (the SQL
//    client, the demo) stays behind its dynamic import(), in chunks of its own. Skipped when the bundle is newer
//    than every file and folder under src/ (a deletion changes its folder's time), this script and package.json.
// `--clean` deletes dist/ first (before packing: no output of a deleted source file is left behind).
import { spawnSync } from "node:child_process";
import { readdirSync, rmSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

/** The bundle's entry points: output name (in dist/) → source. src/util/own-files.ts refers to them by name. */
const ENTRY_POINTS = {
  index: "src/index.ts",
  cli: "src/cli/main.ts",
  "worker-main": "src/runtime/worker/worker-main.ts",
  "sql-script-job": "src/sql-client/sql-script-job.ts",
  "job-format-hook": "src/api/job-format-hook.ts",
  "job-capture-hook": "src/api/job-capture-hook.ts",
  "compiled-job-hook": "src/api/compiled-job-hook.ts",
};

const root = fileURLToPath(new URL("..", import.meta.url));
const dist = join(root, "dist");
if (process.argv.includes("--clean")) rmSync(dist, { recursive: true, force: true });
const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
const { status } = spawnSync(process.execPath, [tsc, "--build", "tsconfig.build.json"], { cwd: root, stdio: "inherit" });
/** Whether dist/index.js is newer than everything the bundle is made from. */
function bundleUpToDate() {
  const built = statSync(join(dist, "index.js"), { throwIfNoEntry: false })?.mtimeMs;
  if (built === undefined) return false;
  const src = join(root, "src");
  const inputs = [src, fileURLToPath(import.meta.url), join(root, "package.json"), ...readdirSync(src, { recursive: true, encoding: "utf8" }).map((f) => join(src, f))];
  return inputs.every((f) => statSync(f).mtimeMs < built);
}

if (status !== 0) {
  process.exitCode = status ?? 1;
} else if (!bundleUpToDate()) {
  // the previous bundle's chunks (names with content hashes) and any JavaScript of older layouts
  for (const entry of readdirSync(dist, { recursive: true, encoding: "utf8" }))
    if (/\.js(\.map)?$/.test(entry)) rmSync(join(dist, entry));
  await build({
    absWorkingDir: root,
    entryPoints: ENTRY_POINTS,
    outdir: dist,
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
  });
}
