#!/usr/bin/env node
// The `weir` command: enables TypeScript (tsx) for Weir and for job files, then runs the CLI.
import { register } from "tsx/esm/api";

register();
const { main } = await import("../src/cli/main.ts");
process.exitCode = await main(process.argv.slice(2));
