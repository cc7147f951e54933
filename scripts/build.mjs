#!/usr/bin/env node
// `npm run build`: builds dist/ from src/ in two steps.
// 1. tsc in build mode writes the declarations (.d.ts and their maps, the package's types), skipping the work
//    when nothing changed since the last build.
// 2. esbuild bundles the JavaScript: the package's entry points (below) and the chunks they share, all in the top
//    folder of dist/ (scripts/bundle.mjs; src/util/own-files.ts finds them there), packages left as imports. A few files instead of
//    ~450 modules: Node starts Weir several times faster (docs/benchmarks.md, "Start-up"), and a TypeScript job's
//    loader (tsx) has only the job's own files left to look at. Code a command loads only sometimes (the SQL
//    client, the demo) stays behind its dynamic import(), in chunks of its own. Skipped when the bundle is newer
//    than every file and folder under src/ (a deletion changes its folder's time), this script and package.json.
// 3. esbuild bundles the dashboard for the browser into dist/web/ (scripts/web-bundle.mjs).
// `--clean` deletes dist/ first (before packing: no output of a deleted source file is left behind).
import { spawnSync } from "node:child_process";
import { readdirSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { bundleOptions, ENTRY_POINTS, newerThanSources } from "./bundle.mjs";
import { buildWeb } from "./web-bundle.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const dist = join(root, "dist");
if (process.argv.includes("--clean")) rmSync(dist, { recursive: true, force: true });
const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
const { status } = spawnSync(process.execPath, [tsc, "--build", "tsconfig.build.json"], { cwd: root, stdio: "inherit" });
if (status !== 0) {
  process.exitCode = status ?? 1;
} else if (!newerThanSources(root, join(dist, "index.js"), ["build.mjs", "bundle.mjs", "web-bundle.mjs"].map((f) => fileURLToPath(new URL(f, import.meta.url))))) {
  // the previous bundle's chunks (names with content hashes) and any JavaScript of older layouts
  for (const entry of readdirSync(dist, { recursive: true, encoding: "utf8" }))
    if (/\.js(\.map)?$/.test(entry)) rmSync(join(dist, entry));
  await build(bundleOptions(root, dist, ENTRY_POINTS));
  await buildWeb(root, dist);
}
