/**
 * The package as a user gets it: builds and packs the repository (npm pack),
 * installs the tarball with tsx and @types/node into a fresh project in the
 * system's temporary directory, and uses it the normal ways: a `.mjs` job on
 * plain node and with `weir run` (tsx hidden), `require()` from CommonJS, a
 * strict type check of a `.ts` job, `npx weir run job.ts` on worker threads,
 * and a `.ts` job in a CommonJS project.
 */
import { execFile } from "node:child_process";
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { jsonResult, type CliRun } from "./support/cli-process.ts";
import { tempDirs } from "./support/temp-dirs.ts";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const TSC = join(ROOT, "node_modules/typescript/bin/tsc");
const tempDir = tempDirs("weir-package-");
/** What every job below prints: the final sum of 1..100 per parity. */
const SUMS = { even: 2550, odd: 2500 };

/** A plain JavaScript job: sums 1..100 by parity, prints the sums as one JSON line. */
const MJS_JOB = `import { collectSink, isWorker, StreamExecutionEnvironment } from "weirjs";

const env = StreamExecutionEnvironment.getExecutionEnvironment();
env.fromSequence(1, 100).map((n) => [n % 2 === 0 ? "even" : "odd", n]).keyBy(([p]) => p).sum(1).sinkTo(collectSink("sums"));
const result = await env.execute("sums-mjs");
if (!isWorker()) console.log(JSON.stringify(finalSums(result.getCollected("sums"))));

function finalSums(runningSums) {
  const sums = {};
  for (const [key, sum] of runningSums) sums[key] = Math.max(sums[key] ?? 0, sum);
  return sums;
}
`;

/** The same from CommonJS, with require() and no top-level await. */
const CJS_JOB = `const { collectSink, StreamExecutionEnvironment } = require("weirjs");

const env = StreamExecutionEnvironment.getExecutionEnvironment();
env.fromSequence(1, 100).map((n) => [n % 2 === 0 ? "even" : "odd", n]).keyBy(([p]) => p).sum(1).sinkTo(collectSink("sums"));
env.execute("sums-cjs").then((result) => {
  const sums = {};
  for (const [key, sum] of result.getCollected("sums")) sums[key] = Math.max(sums[key] ?? 0, sum);
  console.log(JSON.stringify(sums));
});
`;

/** A TypeScript job with keyed state in a class, importing a relative module. */
const TS_JOB = `import {
  collectSink, isWorker, KeyedProcessFunction, StreamExecutionEnvironment, ValueStateDescriptor,
  type Collector, type KeyedProcessContext, type ValueState,
} from "weirjs";
import { parity } from "./parity.js";

class RunningSum extends KeyedProcessFunction<string, number, [string, number]> {
  private sum!: ValueState<number>;
  override open(): void {
    this.sum = this.getRuntimeContext().getState(new ValueStateDescriptor<number>("sum", 0));
  }
  processElement(n: number, ctx: KeyedProcessContext<string>, out: Collector<[string, number]>): void {
    const s = (this.sum.value() ?? 0) + n;
    this.sum.update(s);
    out.collect([ctx.getCurrentKey(), s]);
  }
}

const env = StreamExecutionEnvironment.getExecutionEnvironment();
env.fromSequence(1, 100).keyBy(parity).process(new RunningSum()).uid("sum").sinkTo(collectSink("sums"));
const result = await env.execute("sums-ts");
if (!isWorker()) {
  const sums: Record<string, number> = {};
  for (const [key, sum] of result.getCollected<[string, number]>("sums")) sums[key] = Math.max(sums[key] ?? 0, sum);
  console.log(JSON.stringify(sums));
}
`;

/** Imported by the TypeScript job: ES module syntax only (import.meta, top-level await). */
const PARITY_TS = `export const loadedFrom: string = import.meta.url;
await Promise.resolve();
export const parity = (n: number): string => (n % 2 === 0 ? "even" : "odd");
`;

/** A consumer's strict TypeScript settings; skipLibCheck off so that the package's .d.ts files are checked too. */
const TSCONFIG = {
  compilerOptions: {
    module: "NodeNext",
    moduleResolution: "NodeNext",
    target: "ES2022",
    strict: true,
    noEmit: true,
    skipLibCheck: false,
    types: ["node"],
    exactOptionalPropertyTypes: true,
    noUncheckedIndexedAccess: true,
    noImplicitOverride: true,
    noPropertyAccessFromIndexSignature: true,
    verbatimModuleSyntax: true,
  },
  files: ["job.ts"],
};

/** The environment without npm's own variables (an `npm test` parent sets npm_config_*, which would steer the child npm). */
function cleanEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.toLowerCase().startsWith("npm_")));
}

/** Runs `file args` in `cwd` to its end (at most `timeoutMs`); never rejects on a non-zero exit. */
function run(file: string, args: readonly string[], cwd: string, timeoutMs = 120_000): Promise<CliRun> {
  return new Promise((resolve) => {
    execFile(file, args, { cwd, env: cleanEnv(), timeout: timeoutMs, maxBuffer: 64 << 20 }, (error, stdout, stderr) => {
      const e = error as (Error & { code?: number | string; signal?: NodeJS.Signals }) | null;
      resolve({ code: e ? (typeof e.code === "number" ? e.code : 1) : 0, signal: e?.signal ?? null, stdout, stderr: stderr || (e?.message ?? "") });
    });
  });
}

/** `run` that must succeed. */
async function ok(file: string, args: readonly string[], cwd: string, timeoutMs?: number): Promise<CliRun> {
  const r = await run(file, args, cwd, timeoutMs);
  if (r.code !== 0) throw new Error(`${file} ${args.join(" ")} exited ${r.code}\nstdout:\n${r.stdout}\nstderr:\n${r.stderr}`);
  return r;
}

/** The version of a package in the repository's node_modules (installed again from the npm cache). */
function versionOf(pkg: string): string {
  return (JSON.parse(readFileSync(join(ROOT, "node_modules", pkg, "package.json"), "utf8")) as { version: string }).version;
}

describe("the packed package, installed into a fresh project", () => {
  let project = "";
  let packed: string[] = [];

  beforeAll(async () => {
    project = tempDir();
    await ok(process.execPath, [join(ROOT, "scripts/build.mjs")], ROOT, 300_000);
    const pack = await ok("npm", ["pack", "--ignore-scripts", "--json", "--pack-destination", project], ROOT);
    const [info] = JSON.parse(pack.stdout) as { filename: string; files: { path: string }[] }[];
    packed = info!.files.map((f) => f.path);
    writeFileSync(join(project, "package.json"), JSON.stringify({ name: "consumer", private: true, type: "module" }));
    const deps = [join(project, info!.filename), `tsx@${versionOf("tsx")}`, `@types/node@${versionOf("@types/node")}`];
    await ok("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", ...deps], project, 300_000);
    writeFileSync(join(project, "app.mjs"), MJS_JOB);
    writeFileSync(join(project, "app.cjs"), CJS_JOB);
    writeFileSync(join(project, "job.ts"), TS_JOB);
    writeFileSync(join(project, "parity.ts"), PARITY_TS);
    writeFileSync(join(project, "tsconfig.json"), JSON.stringify(TSCONFIG));
  }, 600_000);

  it("holds the compiled code (bundled: a few files at the top of dist/), types, the dashboard (dist/web/) and the weir command, not the sources or tests", () => {
    expect(packed).toEqual(expect.arrayContaining(["LICENSE", "README.md", "bin/weir.mjs", "dist/index.js", "dist/index.d.ts", "dist/index.d.ts.map", "dist/cli.js", "dist/worker-main.js"]));
    expect(packed.filter((p) => p.startsWith("dist/web/")).sort()).toEqual(["dist/web/dashboard.css", "dist/web/dashboard.js", "dist/web/index.html"]);
    expect(packed.filter((p) => /^(src|test|bench|scripts)\/|\.test\.|\/test-|tsbuildinfo|weir-dev|weir-bench/.test(p))).toEqual([]);
    const scripts = packed.filter((p) => p.endsWith(".js") && !p.startsWith("dist/web/"));
    expect(scripts.filter((p) => p.includes("/", "dist/".length))).toEqual([]);
    // entry points and the chunks esbuild splits off for what is loaded lazily (Kafka, PostgreSQL, etcd, S3, the cluster)
    expect(scripts.length).toBeLessThan(60);
  });

  it("without tsx: a .mjs job runs on plain node and with weir run on worker threads; a .ts job is refused with how to install tsx", async () => {
    const tsx = join(project, "node_modules/tsx");
    renameSync(tsx, `${tsx}-hidden`);
    try {
      expect(jsonResult(await ok(process.execPath, ["app.mjs"], project))).toEqual(SUMS);
      const weir = join(project, "node_modules/.bin/weir");
      const workers = await ok(weir, ["run", "app.mjs", "--workers", "2", "--parallelism", "2", "--checkpoint-dir", join(project, "chk-mjs")], project);
      expect(jsonResult(workers)).toEqual(SUMS);
      const ts = await run(weir, ["run", "job.ts", "--checkpoint-dir", join(project, "chk-no-tsx")], project);
      expect(ts.code).toBe(1);
      expect(ts.stderr.trim()).toBe("weir: error: job.ts is TypeScript, which needs tsx: install it in the project (npm i -D tsx), or run a compiled .js/.mjs job");
    } finally {
      renameSync(`${tsx}-hidden`, tsx);
    }
  });

  it.runIf(process.features.require_module)("require() from CommonJS loads the same ES modules (Node >= 20.19)", async () => {
    expect(jsonResult(await ok(process.execPath, ["app.cjs"], project))).toEqual(SUMS);
  });

  it("a .ts job type-checks with tsc --strict (NodeNext, the package's .d.ts checked too) with no error", async () => {
    const r = await run(process.execPath, [TSC, "-p", "."], project);
    expect(r.stdout + r.stderr).toBe("");
    expect(r.code).toBe(0);
  });

  it("npx weir run job.ts runs a TypeScript job with its relative import on worker threads", async () => {
    const r = await ok("npx", ["--no", "weir", "run", "job.ts", "--workers", "2", "--parallelism", "2", "--checkpoint-dir", join(project, "chk-ts")], project);
    expect(jsonResult(r)).toEqual(SUMS);
  });

  it("a .ts job with top-level await runs in a CommonJS project (no \"type\" field), its relative .ts imports as ES modules", async () => {
    const cjs = join(project, "commonjs-project");
    mkdirSync(cjs);
    writeFileSync(join(cjs, "package.json"), JSON.stringify({ name: "commonjs-project", private: true }));
    writeFileSync(join(cjs, "job.ts"), TS_JOB);
    writeFileSync(join(cjs, "parity.ts"), PARITY_TS);
    const r = await ok(join(project, "node_modules/.bin/weir"), ["run", "job.ts", "--workers", "1", "--parallelism", "2", "--checkpoint-dir", join(project, "chk-cjs")], cjs);
    expect(jsonResult(r)).toEqual(SUMS);
  });
});
