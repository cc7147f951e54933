#!/usr/bin/env node
// The `weir` command: runs the compiled CLI (dist/). TypeScript job files load through tsx, if installed.
import { main } from "../dist/cli.js";

process.exitCode = await main(process.argv.slice(2));
