/**
 * Lets this process (and, registered in each, its worker threads) load job
 * bundles: their `import "weirjs"` resolves to this process's own Weir (see
 * `bundle-imports-hook.ts`), even when the folder of the bundles has no
 * `node_modules` with Weir in it.
 */
import { register } from "node:module";
import { pathToFileURL } from "node:url";
import { resolve } from "node:path";
import { ownModule } from "../util/own-files.ts";
import type { BundleImportsHookData } from "./bundle-imports-hook.ts";

/** Folders already registered in this thread. */
const registered = new Set<string>();

/**
 * Makes `import "weirjs"` of the bundles in `folder` resolve to this process's Weir; once per folder and thread.
 *
 * @example
 * ```ts
 * registerBundleImports(".weir/jars");
 * await import(pathToFileURL(".weir/jars/3f2a….mjs").href); // its env is this process's Weir
 * ```
 */
export function registerBundleImports(folder: string): void {
  const url = pathToFileURL(resolve(folder)).href.replace(/\/?$/, "/");
  if (registered.has(url)) return;
  registered.add(url);
  const data: BundleImportsHookData = { folders: [url], entry: ownModule("index.ts", "index.js").href };
  register<BundleImportsHookData>(ownModule("cluster/bundle-imports-hook.ts", "bundle-imports-hook.js"), { data });
}
