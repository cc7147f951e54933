// The repository's test bundle (`dist-dev/`): Weir bundled as the package is (scripts/bundle.mjs), plus one entry
// for each module of src/ that the tests, fixtures and benchmarks import directly, and the dashboard (dist-dev/web/). bin/weir-dev.mjs runs the CLI
// from it and loads every `src/…ts` a job imports as that module's entry, so a fixture job and the engine share one
// copy of each class; starting it costs what starting the package costs, not tsx compiling ~450 modules (in the
// client and again in every worker thread). vitest builds it once per run (test/support/global-setup.ts).
import { readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { bundleOptions, ENTRY_POINTS, newerThanSources } from "./bundle.mjs";
import { buildWeb } from "./web-bundle.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const out = join(root, "dist-dev");
/** Written last by a build: what the hook maps (src URL → entry URL); its time is the build's. */
const MANIFEST = join(out, "manifest.json");
/** Folders whose files may import src/ directly. */
const IMPORTERS = ["test", "bench"];
const SRC_IMPORT = /(?:from|import)\s*\(?\s*"(\.[^"]*\/src\/[^"]+\.ts)"/g;

/** The modules of src/ (paths relative to it) that files under test/ and bench/ import, other than through an entry. */
function importedSourceModules() {
  const found = new Set();
  for (const folder of IMPORTERS) {
    for (const f of readdirSync(join(root, folder), { recursive: true, encoding: "utf8" })) {
      if (!f.endsWith(".ts")) continue;
      const file = join(root, folder, f);
      for (const m of readFileSync(file, "utf8").matchAll(SRC_IMPORT)) {
        const target = relative(join(root, "src"), resolve(dirname(file), m[1]));
        if (!target.startsWith("..")) found.add(target);
      }
    }
  }
  return [...found].sort();
}

/** Builds dist-dev/ (about a second) unless it is newer than src/. */
export async function buildDevBundle() {
  if (newerThanSources(root, MANIFEST, ["dev-bundle.mjs", "bundle.mjs", "web-bundle.mjs"].map((f) => fileURLToPath(new URL(f, import.meta.url))))) return;
  const { build } = await import("esbuild");
  const modules = importedSourceModules();
  const entries = { ...ENTRY_POINTS };
  for (const m of modules) entries[`src/${m.replace(/\.ts$/, "")}`] = `src/${m}`;
  rmSync(out, { recursive: true, force: true });
  await build(bundleOptions(root, out, entries));
  await buildWeb(root, out);
  const map = {};
  for (const [name, source] of Object.entries(entries)) map[pathToFileURL(join(root, source)).href] = pathToFileURL(join(out, `${name}.js`)).href;
  writeFileSync(MANIFEST, JSON.stringify(map));
}

/** The test bundle's map (src URL → entry URL) when it is newer than src/, else undefined (run from source then). */
export function devBundleMap() {
  if (!newerThanSources(root, MANIFEST, [])) return undefined;
  return JSON.parse(readFileSync(MANIFEST, "utf8"));
}

/** The CLI's entry in the test bundle. */
export const DEV_CLI = pathToFileURL(join(out, "cli.js")).href;
