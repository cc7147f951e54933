// The dashboard (src/web/, docs/dashboard.md) bundled for the browser into `<outdir>/web/`: index.html, dashboard.js
// (lit, dagre and uPlot inside: the job's server has no internet to fetch from) and dashboard.css, minified. The job's
// REST server serves that folder at `/` (src/rest/dashboard-root.ts finds it). scripts/build.mjs writes it into
// dist/ (the package), scripts/dev-bundle.mjs into dist-dev/ (the tests).
import { copyFileSync, mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";

/** Builds `<outdir>/web/` from src/web/ (the repository root `root`). */
export async function buildWeb(root, outdir) {
  const { build } = await import("esbuild");
  const web = join(outdir, "web");
  rmSync(web, { recursive: true, force: true });
  mkdirSync(web, { recursive: true });
  await build({
    absWorkingDir: root,
    entryPoints: { dashboard: "src/web/main.ts" },
    outdir: web,
    bundle: true,
    minify: true,
    format: "iife",
    platform: "browser",
    target: ["chrome110", "firefox110", "safari16"],
    legalComments: "eof",
    logLevel: "warning",
  });
  copyFileSync(join(root, "src/web/index.html"), join(web, "index.html"));
}
