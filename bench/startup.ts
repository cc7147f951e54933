/**
 * The `startup` section of `npm run bench`: how long a trivial job takes from
 * the command to its exit, and how much memory, against `node -e ""`. One
 * run of each command, as a user starts it: the compiled package (built
 * first; bin/weir.mjs on dist/) in a fresh project whose node_modules/weirjs
 * is this repository, the job as `.mjs` on plain node and under `weir run`
 * (1 and 2 worker threads), and as `.ts` (tsx) likewise.
 *
 * Each command runs with a preload (`--import`) that writes the process's
 * CPU time and largest resident set at exit (process.resourceUsage(): every
 * thread, not a child process such as tsx's esbuild service).
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdtemp, mkdir, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { StartupCase, StartupFigures } from "./startup-report.ts";

const REPOSITORY = fileURLToPath(new URL("../", import.meta.url));

/** The job: a few elements through a map to standard output. */
const JOB = `import { StreamExecutionEnvironment } from "weirjs";

const env = StreamExecutionEnvironment.getExecutionEnvironment();
env.fromElements(1, 2, 3).map((n) => n * 2).print();
await env.execute("trivial");
`;
const JOB_TEXT = "3 elements → map → print, a checkpoint at the end";

/** Writes the process's resource usage to $WEIR_BENCH_USAGE at exit (main thread only; worker threads run it too). */
const PROBE = `import { writeFileSync } from "node:fs";
import { isMainThread } from "node:worker_threads";
if (isMainThread) process.on("exit", () => {
  const u = process.resourceUsage();
  writeFileSync(process.env.WEIR_BENCH_USAGE, JSON.stringify({ cpuMs: (u.userCPUTime + u.systemCPUTime) / 1000, maxRssBytes: u.maxRSS * 1024 }));
});
`;

/**
 * Runs the section against the repository at `root` (this one by default;
 * another checkout measures an older build the same way).
 *
 * @example
 * ```ts
 * const figures = await measureStartup((line) => console.error(line));
 * console.log(formatStartup(figures));
 * ```
 */
export async function measureStartup(progress: (line: string) => void, root = REPOSITORY): Promise<StartupFigures> {
  progress("start-up: building dist/");
  const build = spawnSync(process.execPath, [join(root, "scripts/build.mjs")], { cwd: root, stdio: "inherit" });
  if (build.status !== 0) throw new Error(`the build failed (exit ${build.status})`);
  const dir = await mkdtemp(join(tmpdir(), "weir-bench-startup-"));
  try {
    await writeFile(join(dir, "package.json"), JSON.stringify({ type: "module", private: true }));
    await mkdir(join(dir, "node_modules"));
    await symlink(root, join(dir, "node_modules", "weirjs"), "dir");
    await writeFile(join(dir, "trivial.mjs"), JOB);
    await writeFile(join(dir, "trivial.ts"), JOB.replace("(n) =>", "(n: number) =>"));
    await writeFile(join(dir, "probe.mjs"), PROBE);
    const weir = join(root, "bin/weir.mjs");
    const run = (job: string, workers: number) => [weir, "run", job, "--workers", String(workers), "--fresh", "--checkpoint-dir", join(dir, "checkpoints")];
    const plan: readonly (readonly [label: string, args: readonly string[]])[] = [
      ['node -e ""', ["-e", ""]],
      ["node trivial.mjs", ["trivial.mjs"]],
      ["weir run trivial.mjs", run("trivial.mjs", 1)],
      ["weir run trivial.mjs --workers 2", run("trivial.mjs", 2)],
      ["weir run trivial.ts", run("trivial.ts", 1)],
      ["weir run trivial.ts --workers 2", run("trivial.ts", 2)],
    ];
    const cases: StartupCase[] = [];
    for (const [label, args] of plan) {
      progress(`start-up: ${label}`);
      cases.push(await measure(label, ["--import", pathToFileURL(join(dir, "probe.mjs")).href, ...args], dir));
    }
    return { job: JOB_TEXT, cases };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Runs `node ...args` in `cwd` to its end; rejects when it fails. */
async function measure(label: string, args: readonly string[], cwd: string): Promise<StartupCase> {
  const usageFile = join(cwd, "usage.json");
  const started = performance.now();
  const child = spawn(process.execPath, args, { cwd, env: { ...process.env, WEIR_BENCH_USAGE: usageFile }, stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (s: string) => (stderr += s));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.on("error", reject);
    child.on("close", resolve);
  });
  const wallMs = performance.now() - started;
  if (code !== 0) throw new Error(`${label} failed (exit ${code}):\n${stderr}`);
  const usage = JSON.parse(await readFile(usageFile, "utf8")) as { cpuMs: number; maxRssBytes: number };
  await rm(usageFile);
  return { label, wallMs, ...usage };
}
