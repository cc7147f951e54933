#!/usr/bin/env node
// The `weir` command for the repository's own tests and benchmarks, whose job files import src/. When the test
// bundle (dist-dev/, scripts/dev-bundle.mjs; vitest builds it) is newer than src/, it runs the CLI from that bundle
// and a module hook loads each `src/…ts` a job imports as the bundle's entry for it: one copy of Weir, started as fast
// as the package. Otherwise everything runs from src/ through tsx (one copy too, slower). Users run bin/weir.mjs.
import { register } from "node:module";
import { DEV_CLI, devBundleMap } from "../scripts/dev-bundle.mjs";

const map = devBundleMap();
let main;
if (map) {
  register("./weir-dev-hook.mjs", { parentURL: import.meta.url, data: { map, src: new URL("../src/", import.meta.url).href } });
  ({ main } = await import(DEV_CLI));
} else {
  const { register: registerTsx } = await import("tsx/esm/api");
  registerTsx();
  ({ main } = await import("../src/cli/main.ts"));
}
process.exitCode = await main(process.argv.slice(2));
