/**
 * Start-up of the compiled package (bin/weir.mjs on the built dist/), in a project whose node_modules/weirjs is
 * this repository: a TypeScript job on worker threads is compiled once, by tsx in the client; the workers load
 * it from the client's record (same URLs, so `import.meta.url` is the file's own) without tsx, and a job file
 * the client never loaded (imported only by a task) still loads through tsx in the worker. Importing Weir loads
 * no package only some jobs need.
 */
import { execFile } from "node:child_process";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { promisify } from "node:util";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { ROOT, runCli } from "./support/cli-process.ts";
import { tempDirs } from "./support/temp-dirs.ts";

const tempDir = tempDirs("weir-startup-");
const DEADLINE_MS = 60_000;

/** A fresh ES-module project in a temporary directory with node_modules/weirjs = this repository and these files. */
function project(files: Record<string, string>): string {
  const dir = tempDir();
  writeFileSync(join(dir, "package.json"), JSON.stringify({ type: "module", private: true }));
  mkdirSync(join(dir, "node_modules"));
  symlinkSync(ROOT, join(dir, "node_modules", "weirjs"), "dir");
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

/** Imported by the jobs below: a relative `.ts` module reached through a `.js` specifier, with `import.meta`. */
const HELPER = `export const double = (n: number): number => n * 2;
export const helperUrl: string = import.meta.url;
`;

describe("a TypeScript job on worker threads (compiled package)", () => {
  it("compiles once in the client; the workers load the client's compiled job, with the files' own URLs", async () => {
    const dir = project({
      "helper.ts": HELPER,
      "job.ts": `import { isWorker, StreamExecutionEnvironment } from "weirjs";
import { double, helperUrl } from "./helper.js";

const env = StreamExecutionEnvironment.getExecutionEnvironment();
env.fromElements(1, 2, 3).map((n: number) => double(n)).print();
console.error(\`\${isWorker() ? "worker" : "client"} sees helper at \${helperUrl}\`);
await env.execute("compiled-once");
`,
    });
    // parallelism 2: both workers get a subtask (more workers than the plan can use are capped)
    const run = await runCli(["run", "job.ts", "--parallelism", "2", "--workers", "2", "--log-level", "debug", "--checkpoint-dir", join(dir, "chk")], DEADLINE_MS, {}, { cwd: dir, shipped: true });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout.trim().split("\n").map((l) => l.replace(/^\d> /, "")).sort()).toEqual(["2", "4", "6"]);
    const helper = pathToFileURL(join(dir, "helper.ts")).href;
    const seen = run.stderr.split("\n").filter((l) => l.includes(" sees helper at "));
    expect(seen.sort()).toEqual([`client sees helper at ${helper}`, `worker sees helper at ${helper}`, `worker sees helper at ${helper}`]);
    expect(run.stderr.match(/worker \d: loads the job as the client compiled it \(no tsx\)/g)).toHaveLength(2);
  }, DEADLINE_MS + 10_000);

  it("loads a job file the client never loaded (imported by a task, in the worker only) through tsx", async () => {
    const dir = project({
      "helper.ts": HELPER,
      "job.ts": `import { AsyncDataStream, StreamExecutionEnvironment } from "weirjs";

const env = StreamExecutionEnvironment.getExecutionEnvironment();
const doubled = AsyncDataStream.orderedWait(env.fromElements(1, 2, 3), async (n: number) => (await import("./helper.js")).double(n), 0, 10);
doubled.print();
await env.execute("late-import");
`,
    });
    const run = await runCli(["run", "job.ts", "--workers", "1", "--checkpoint-dir", join(dir, "chk")], DEADLINE_MS, {}, { cwd: dir, shipped: true });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout.trim().split("\n")).toEqual(["2", "4", "6"]);
  }, DEADLINE_MS + 10_000);
});

describe("importing the compiled package", () => {
  it("loads neither csv-parse nor picomatch (they load at a job's first CSV record with a quote, or first glob)", async () => {
    // every ES module Node loads (through a hook), and every CommonJS module required, after importing Weir's entry
    const script = `
      import { register, createRequire } from "node:module";
      import { MessageChannel, receiveMessageOnPort } from "node:worker_threads";
      const { port1, port2 } = new MessageChannel();
      const hook = "export let port; export function initialize(d) { port = d.port; } export async function load(u, c, n) { port.postMessage(u); return n(u, c); }";
      register("data:text/javascript," + encodeURIComponent(hook), { data: { port: port1 }, transferList: [port1] });
      await import(${JSON.stringify(pathToFileURL(join(ROOT, "dist/index.js")).href)});
      const loaded = Object.keys(createRequire(import.meta.url).cache);
      for (let m = receiveMessageOnPort(port2); m; m = receiveMessageOnPort(port2)) loaded.push(m.message);
      port2.close();
      console.log(JSON.stringify(loaded));`;
    const { stdout } = await promisify(execFile)(process.execPath, ["--input-type=module", "-e", script], { cwd: ROOT });
    const loaded = JSON.parse(stdout) as string[];
    expect(loaded.some((u) => u.includes("/dist/index.js"))).toBe(true);
    expect(loaded.filter((u) => /\/node_modules\/(csv-parse|picomatch)\//.test(u))).toEqual([]);
  });
});
