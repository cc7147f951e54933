#!/usr/bin/env node
// The `weir` command on Weir's TypeScript source (tsx), for the repository's own tests and benchmarks: their job
// files import src/, so the CLI must load the same modules (one copy of each class). Users run bin/weir.mjs.
import { register } from "tsx/esm/api";

register();
const { main } = await import("../src/cli/main.ts");
process.exitCode = await main(process.argv.slice(2));
