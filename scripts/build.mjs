#!/usr/bin/env node
// `npm run build`: compiles src/ to dist/ (ES modules, .d.ts, declaration and source maps) with tsc in build mode,
// which skips the work when nothing changed since the last build. `--clean` deletes dist/ first (before packing:
// no output of a deleted source file is left behind).
import { spawnSync } from "node:child_process";
import { rmSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
if (process.argv.includes("--clean")) rmSync(new URL("../dist", import.meta.url), { recursive: true, force: true });
const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
const { status } = spawnSync(process.execPath, [tsc, "--build", "tsconfig.build.json"], { cwd: root, stdio: "inherit" });
process.exitCode = status ?? 1;
