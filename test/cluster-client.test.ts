/**
 * `weir run -m` and `weir sql -m -f` against a real cluster on this machine (a
 * `weir jobmanager` and a `weir taskmanager`, child processes of the shipped
 * command): a TypeScript job with a local helper module is bundled, uploaded
 * and followed to its end (exit 0, exactly its output); `--detached` prints
 * the job id, which `weir list -m` shows and `weir cancel -m` cancels; Ctrl-C
 * of an attached run stops the job with a savepoint; a job that fails on the
 * cluster ends the run with its exception (exit 1); a job that fails to build
 * on the job manager is an error of the run; a job that does not bundle is a
 * located error and nothing reaches the job manager; a SQL script runs.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { runCli, startCli, waitFor, type CliRun } from "./support/cli-process.ts";
import { committedLines, processDir, rest, startJobManager, startTaskManager, waitForJobState, type StartedJobManager, clusterSuite } from "./support/cluster-processes.ts";
import { tempDirs } from "./support/temp-dirs.ts";

const SQUARES_JOB = fileURLToPath(new URL("./fixtures/cluster/squares-job.ts", import.meta.url));
const SQUARES_SQL = fileURLToPath(new URL("./fixtures/cluster/squares.sql", import.meta.url));
const UNTIL_STOPPED_JOB = fileURLToPath(new URL("./fixtures/until-stopped-job.ts", import.meta.url));
const THROWING_JOB = fileURLToPath(new URL("./fixtures/throwing-job.ts", import.meta.url));
const BAD_RECORD_JOB = fileURLToPath(new URL("./fixtures/bad-record-job.ts", import.meta.url));
const tempDir = tempDirs("weir-cluster-client-");
const DEADLINE_MS = 180_000;
const started = clusterSuite();

/** A job manager and a task manager with `slots` slots, in folders of `dir`. */
async function cluster(dir: string, slots = 2): Promise<StartedJobManager> {
  const jm = await startJobManager(processDir(dir, "jm"));
  started.push(jm.cli);
  const tm = await startTaskManager(processDir(dir, "tm"), jm.rpcPort, slots);
  started.push(tm.cli);
  return jm;
}

/** `weir <args>` of the shipped command in `cwd` (the client's folder: no weirjs in its node_modules, as a user's job folder may be). */
function weir(cwd: string, args: readonly string[]): Promise<CliRun> {
  return runCli(args, DEADLINE_MS, {}, { cwd, shipped: true });
}

/** The uploaded bundles the job manager lists (`GET /jars`). */
async function jars(jm: StartedJobManager): Promise<unknown[]> {
  return (await rest<{ files: unknown[] }>(`${jm.url}/jars`)).files;
}

describe("weir run -m host:port", () => {
  it("attached: bundles a TypeScript job with a local helper module, runs it on the cluster, follows it to the end: exit 0 and exactly its output", async () => {
    const dir = tempDir();
    const jm = await cluster(dir);
    const out = join(dir, "out");
    const client = join(dir, "client");
    mkdirSync(client);
    const run = await weir(client, ["run", "-m", jm.url, SQUARES_JOB, "-p", "2", "--checkpoint-dir", join(dir, "checkpoints"), "--", out, "100"]);
    expect(run.code, run.stderr).toBe(0);
    expect(committedLines(out)).toEqual(Array.from({ length: 100 }, (_, i) => `${i + 1}² = ${(i + 1) ** 2}`).sort());
    expect(run.stderr).toMatch(/submitted job [0-9a-f]{32} \(.*squares-job\.ts\) to http:\/\/127\.0\.0\.1:\d+; following it/);
    expect(run.stderr).toMatch(/job 'squares' finished in [\d.]+ s: 100 records in, 100 out, \d+ checkpoints?, 0 restarts; exit 0/);
    expect(run.stdout).toBe("");
    // one bundle, content-addressed
    expect(await jars(jm)).toEqual([expect.objectContaining({ id: expect.stringMatching(/^[0-9a-f]{64}\.mjs$/) })]);
  }, DEADLINE_MS);

  it("--detached prints the job id and returns; weir list -m shows the job, weir cancel -m cancels it", async () => {
    const dir = tempDir();
    const jm = await cluster(dir, 1);
    const client = join(dir, "client");
    mkdirSync(client);
    const submit = await weir(client, ["run", "-m", jm.url, "--detached", UNTIL_STOPPED_JOB, "--checkpoint-dir", join(dir, "checkpoints")]);
    expect(submit.code, submit.stderr).toBe(0);
    const jobId = submit.stdout.trim();
    expect(jobId).toMatch(/^[0-9a-f]{32}$/);
    await waitForJobState(jm.url, jobId, ["RUNNING"]);

    const list = await weir(client, ["list", "-m", jm.url]);
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toMatch(new RegExp(`^${jobId}\\s+until-stopped\\s+RUNNING\\s`, "m"));

    const cancel = await weir(client, ["cancel", "-m", jm.url, jobId.slice(0, 8)]);
    expect(cancel.code, cancel.stderr).toBe(0);
    expect(cancel.stdout).toBe(`Cancelled job ${jobId}.\n`);
    expect((await waitForJobState(jm.url, jobId, ["CANCELED"])).state).toBe("CANCELED");
  }, DEADLINE_MS);

  it("attached, Ctrl-C stops the job with a savepoint (exit 0, its path printed)", async () => {
    const dir = tempDir();
    const jm = await cluster(dir, 1);
    const client = join(dir, "client");
    mkdirSync(client);
    const savepoints = join(dir, "savepoints");
    const run = startCli(["run", "-m", jm.url, UNTIL_STOPPED_JOB, "--checkpoint-dir", join(dir, "checkpoints"), "--savepoint-dir", savepoints], {}, { cwd: client, shipped: true });
    started.push(run);
    let jobId: string | undefined;
    await waitFor("the submission", () => (jobId = /submitted job ([0-9a-f]{32})/.exec(run.stderr())?.[1]) !== undefined || run.child.exitCode !== null, 90_000);
    expect(jobId, run.stderr()).toBeDefined();
    await waitForJobState(jm.url, jobId!, ["RUNNING"]);
    run.child.kill("SIGINT");
    const end = await run.done;
    expect(end.code, end.stderr).toBe(0);
    expect(end.stderr).toContain(`stopping job ${jobId} with a savepoint in ${savepoints} (again to cancel)`);
    const path = /job 'until-stopped' stopped with savepoint (\S+)/.exec(end.stderr)?.[1];
    expect(path, end.stderr).toBeDefined();
    expect(relative(savepoints, path!).startsWith("..")).toBe(false);
    expect(readdirSync(path!)).toContain("_metadata");
  }, DEADLINE_MS);

  it("attached, a job that fails on the cluster: exit 1 with its exception from /jobs/:jid/exceptions", async () => {
    const dir = tempDir();
    const jm = await cluster(dir, 1);
    const run = await weir(dir, ["run", "-m", jm.url, BAD_RECORD_JOB, "--restart-attempts", "0", "--", "throw"]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/error: job 'bad-record' FAILED: Error: record 42 has no user/);
    expect(run.stderr).toMatch(/job 'bad-record' failed after [\d.]+ s: .*; exit 1/);
  }, DEADLINE_MS);

  it("a job whose module throws on the job manager: the run request's error, exit 1", async () => {
    const dir = tempDir();
    const jm = await cluster(dir, 1);
    const run = await weir(dir, ["run", "-m", jm.url, THROWING_JOB]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/error: the job manager did not run .*throwing-job\.ts: .*HTTP \d+: .*the job cannot be built/);
  }, DEADLINE_MS);

  it("a job module that does not bundle: a located error, exit 1, and nothing reaches the job manager", async () => {
    const dir = tempDir();
    const jm = await cluster(dir, 1);
    const job = join(dir, "client");
    mkdirSync(job);
    writeFileSync(join(job, "job.ts"), 'import { StreamExecutionEnvironment } from "weirjs";\nimport { parse } from "./parse.ts";\nStreamExecutionEnvironment.getExecutionEnvironment();\nexport const p = parse;\n');
    writeFileSync(join(job, "parse.ts"), "export function parse(s: string): number {\n  return Number(s;\n}\n");
    const run = await weir(job, ["run", "-m", jm.url, "job.ts"]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('weir: error: parse.ts:2:18: Expected ")" but found ";"\njob.ts did not bundle (1 error): nothing was submitted');
    expect(await jars(jm)).toEqual([]);
  }, DEADLINE_MS);
});

describe("weir sql -m host:port -f", () => {
  it("uploads the script as <name>.sql and follows its job to the end: exit 0 and exactly its rows", async () => {
    const dir = tempDir();
    const jm = await cluster(dir);
    const out = join(dir, "out");
    const script = join(dir, "squares.sql");
    writeFileSync(script, readFileSync(SQUARES_SQL, "utf8").replace("${OUTPUT}", out));
    const run = await weir(dir, ["sql", "-m", jm.url, "-f", script, "--checkpoint-dir", join(dir, "checkpoints")]);
    expect(run.code, run.stderr).toBe(0);
    const rows = committedLines(out).map((l) => JSON.parse(l) as { n: number; sq: number });
    expect(rows.sort((a, b) => a.n - b.n)).toEqual(Array.from({ length: 20 }, (_, i) => ({ n: i + 1, sq: (i + 1) ** 2 })));
    // named after its file, as `weir sql -f squares.sql` names it locally
    expect(run.stderr).toMatch(/job 'squares' finished in [\d.]+ s: /);
    expect(await jars(jm)).toEqual([expect.objectContaining({ id: expect.stringMatching(/^[0-9a-f]{64}\.sql$/) })]);
  }, DEADLINE_MS);
});
