/**
 * The type check of a job with TypeScript 7 or later, whose `typescript`
 * package has no compiler API (its module exports only the version): the
 * package's own `tsc` command checks the job through a generated tsconfig
 * under the job's `.weir/typecheck/`, which extends the project's tsconfig
 * (when it has one) and names the job as its only root.
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

/** What one run of `tsc` found. */
export interface TscCheck {
  /** One line each: `job.ts:12:7: TS2322: message` (relative to the `cwd` given), or `TS5023: message` without a location. */
  readonly errors: readonly string[];
  /** The job's files that were checked (absolute; none from `node_modules`). */
  readonly files: readonly string[];
}

/** A path inside some `node_modules`. */
const IN_NODE_MODULES = /[\\/]node_modules[\\/]/;
/** `job.ts(12,7): error TS2322: message` */
const LOCATED = /^(.+)\((\d+),(\d+)\): error (TS\d+): (.*)$/;
/** `error TS5023: message` */
const UNLOCATED = /^error (TS\d+): (.*)$/;

/**
 * Checks `jobFile` with the `tsc` of the TypeScript package at `packageDir`.
 * With `configPath` the project's options apply; without, `defaults` (plus
 * `types: ["node"]` when `@types/node` is installed: TypeScript 7 includes no
 * `@types` package unless told). Either way the job is checked as the ES
 * module `weir run` loads, resolved as tsx resolves (`module: preserve`,
 * `moduleResolution: bundler`), and nothing is emitted.
 *
 * @example
 * ```ts
 * const { errors } = checkWithTsc("/app/node_modules/typescript", "/app/job.ts", undefined, { strict: true }, "/app");
 * for (const line of errors) console.error(line); // job.ts:3:7: TS2322: …
 * ```
 */
export function checkWithTsc(packageDir: string, jobFile: string, configPath: string | undefined, defaults: Readonly<Record<string, unknown>>, cwd: string): TscCheck {
  const jobDir = dirname(jobFile);
  const nodeTypes = configPath === undefined && resolves(jobDir, "@types/node/package.json");
  const config = {
    ...(configPath === undefined ? {} : { extends: configPath }),
    files: [jobFile],
    include: [],
    compilerOptions: {
      ...(configPath === undefined ? defaults : {}),
      ...(nodeTypes ? { types: ["node"] } : {}),
      module: "preserve",
      moduleResolution: "bundler",
      noEmit: true,
      allowImportingTsExtensions: true,
      composite: false,
      incremental: false,
      declaration: false,
      emitDeclarationOnly: false,
    },
  };
  const text = JSON.stringify(config, null, 2);
  const generated = join(jobDir, ".weir", "typecheck", `tsconfig-${createHash("sha256").update(text).digest("hex").slice(0, 12)}.json`);
  mkdirSync(dirname(generated), { recursive: true });
  if (!existsSync(generated) || readFileSync(generated, "utf8") !== text) writeFileSync(generated, text);
  const bin = (JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8")) as { bin?: { tsc?: string } }).bin?.tsc ?? "bin/tsc";
  const run = spawnSync(process.execPath, [join(packageDir, bin), "-p", generated, "--pretty", "false", "--listFiles"], {
    cwd,
    encoding: "utf8",
    maxBuffer: 256 * 2 ** 20,
  });
  if (run.error) throw run.error;
  const errors: string[] = [];
  const files: string[] = [];
  let last: "local" | "elsewhere" | undefined;
  for (const line of run.stdout.split(/\r?\n/)) {
    const located = LOCATED.exec(line);
    const unlocated = located ? null : UNLOCATED.exec(line);
    if (located) {
      const [, file, row, column, code, message] = located;
      last = IN_NODE_MODULES.test(file!) ? "elsewhere" : "local";
      if (last === "local") errors.push(`${file}:${row}:${column}: ${code}: ${message}`);
    } else if (unlocated) {
      last = "local";
      errors.push(`${unlocated[1]}: ${unlocated[2]}`);
    } else if (/^\s+\S/.test(line) && last !== undefined) {
      if (last === "local") errors[errors.length - 1] += `\n  ${line.trim()}`;
    } else {
      last = undefined;
      if (line.startsWith("/") || /^[A-Za-z]:[\\/]/.test(line)) {
        if (!IN_NODE_MODULES.test(line)) files.push(line);
      }
    }
  }
  if (run.status !== 0 && errors.length === 0) {
    errors.push(`tsc (${join(packageDir, bin)}) exited with ${run.status ?? run.signal}: ${(run.stderr || run.stdout).trim() || "no output"}`);
  }
  return { errors, files };
}

/** Whether `specifier` resolves from `dir`. */
function resolves(dir: string, specifier: string): boolean {
  try {
    createRequire(join(dir, "noop.js")).resolve(specifier);
    return true;
  } catch {
    return false;
  }
}
