/**
 * Where the dashboard's built files are: `web/` beside Weir's bundle (the
 * package's `dist/web`, the test bundle's `dist-dev/web`), or, running from
 * source, in one of those folders of the repository.
 */
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { OWN_ROOT } from "../util/own-files.ts";
import { RUNS_FROM_SOURCE } from "../util/runs-from-source.ts";

/**
 * The folder holding the dashboard's `index.html`, or undefined when it was not built.
 *
 * @example
 * ```ts
 * const webRoot = dashboardRoot(); // "/app/node_modules/weirjs/dist/web"
 * ```
 */
export function dashboardRoot(): string | undefined {
  const candidates = RUNS_FROM_SOURCE ? ["../dist-dev/web/", "../dist/web/"] : ["web/"];
  for (const c of candidates) {
    const dir = fileURLToPath(new URL(c, OWN_ROOT));
    if (existsSync(`${dir}index.html`)) return dir;
  }
  return undefined;
}
