/**
 * A cluster on this machine (`weir jobmanager`, `weir taskmanager` child processes of the shipped command):
 * a job bundle uploaded with POST /jars/upload and run with POST /jars/:jarid/run runs on the task managers'
 * slots and writes exactly its output; `weir list -m` shows it; a job that needs more slots than are free
 * waits (status CREATED, and what it waits for in /jobs/:jid) and runs once a task manager with enough joins.
 */
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { ROOT, runCli, waitFor, type RunningCli } from "./support/cli-process.ts";
import { tempDirs } from "./support/temp-dirs.ts";
import {
  committedLines,
  expectedKeyedCounts,
  jobDetails,
  processDir,
  runJar,
  startJobManager,
  startTaskManager,
  uploadJar,
  waitForJobState,
} from "./support/cluster-processes.ts";
import { execFileSync } from "node:child_process";

const JOB = fileURLToPath(new URL("./fixtures/cluster-keyed-count-job.mjs", import.meta.url));
const tempDir = tempDirs("weir-cluster-");
const DEADLINE_MS = 180_000;
const started: RunningCli[] = [];

beforeAll(() => {
  // the processes run the shipped command on dist/
  execFileSync(process.execPath, ["scripts/build.mjs"], { cwd: ROOT, stdio: "ignore" });
}, 300_000);

afterEach(() => {
  for (const cli of started.splice(0)) if (cli.child.exitCode === null) cli.child.kill("SIGKILL");
});

/** The run request of the keyed count job: `count` numbers over 4 keys, gated after `half`, at parallelism 2. */
function runRequest(out: string, count: number, half: number) {
  return {
    programArgsList: [join(out, "lines"), String(count), String(half), join(out, "gate"), join(out, "reached"), "4"],
    parallelism: 2,
    flinkConfiguration: { "execution.checkpointing.interval": "200 ms", "state.checkpoints.dir": join(out, "checkpoints") },
  };
}

describe("a cluster of a job manager and task managers", () => {
  it("runs an uploaded job on a task manager's slots with exactly its output; weir list -m shows it", async () => {
    const dir = tempDir();
    const jm = await startJobManager(processDir(dir, "jm"));
    started.push(jm.cli);
    const tm = await startTaskManager(processDir(dir, "tm"), jm.rpcPort, 2);
    started.push(tm.cli);
    const out = join(dir, "out");
    const jar = await uploadJar(jm.url, JOB, "keyed-count.mjs");
    expect(jar).toMatch(/^[0-9a-f]{64}\.mjs$/);
    const jobId = await runJar(jm.url, jar, runRequest(out, 2000, 1000));
    expect(jobId).toMatch(/^[0-9a-f]{32}$/);
    await waitFor("the job's source at its gate", () => existsSync(join(out, "reached")), 90_000);
    expect((await jobDetails(jm.url, jobId)).state).toBe("RUNNING");
    const list = await runCli(["list", "-m", new URL(jm.url).host]);
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toMatch(new RegExp(`${jobId}\\s+cluster-keyed-count\\s+RUNNING`));
    writeFileSync(join(out, "gate"), "");
    await waitForJobState(jm.url, jobId, ["FINISHED", "FAILED", "CANCELED"]);
    expect((await jobDetails(jm.url, jobId)).state).toBe("FINISHED");
    expect(committedLines(join(out, "lines"))).toEqual(expectedKeyedCounts(2000, 4));
    expect(tm.cli.stderr()).toMatch(/fetched job bundle [0-9a-f]{64}\.mjs/);
  }, DEADLINE_MS);

  it("a job needing more slots than are free waits, and runs once a task manager with enough joins", async () => {
    const dir = tempDir();
    const jm = await startJobManager(processDir(dir, "jm"));
    started.push(jm.cli);
    const small = await startTaskManager(processDir(dir, "tm-1"), jm.rpcPort, 1);
    started.push(small.cli);
    const out = join(dir, "out");
    const jar = await uploadJar(jm.url, JOB, "keyed-count.mjs");
    const request = runRequest(out, 500, 250);
    const jobId = await runJar(jm.url, jar, request);
    const waiting = await waitForJobState(jm.url, jobId, ["CREATED"], (d) => d["waiting-for"] !== undefined);
    expect(waiting["waiting-for"]).toMatch(/^waiting for 2 task slots \(1 free on 1 task manager/);
    mkdirSync(out, { recursive: true });
    writeFileSync(join(out, "gate"), "");
    const big = await startTaskManager(processDir(dir, "tm-2"), jm.rpcPort, 2);
    started.push(big.cli);
    await waitForJobState(jm.url, jobId, ["FINISHED", "FAILED", "CANCELED"]);
    const done = await jobDetails(jm.url, jobId);
    expect(done.state).toBe("FINISHED");
    expect(done["waiting-for"]).toBeUndefined();
    expect(committedLines(join(out, "lines"))).toEqual(expectedKeyedCounts(500, 4));
  }, DEADLINE_MS);
});
