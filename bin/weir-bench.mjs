#!/usr/bin/env node
// `npm run bench`: enables TypeScript (tsx), then runs the benchmark (bench/main.ts).
import { register } from "tsx/esm/api";

register();
const { main } = await import("../bench/main.ts");
process.exitCode = await main(process.argv.slice(2));
