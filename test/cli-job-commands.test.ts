/**
 * `weir list / cancel / stop / savepoint` against real `weir run` child
 * processes, through their REST servers and the job registry (WEIR_HOME set
 * to a fresh directory per test): list shows a running job; a savepoint is
 * taken while the job goes on and a rerun from it restores exactly; stop with
 * a savepoint ends the job with exit 0; cancel ends it; `-m host:port`
 * addresses a server directly; the entry of a SIGKILLed job is stale; the SQL
 * client's SHOW JOBS / STOP JOB reach jobs of other processes.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type AddressInfo } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { readJobRegistry, type RegistryEntry } from "../src/deploy/job-registry.ts";
import { runCli, startCli, waitFor, type CliRun, type RunningCli } from "./support/cli-process.ts";
import { startPtyCli } from "./support/pty-cli.ts";
import { tempDirs } from "./support/temp-dirs.ts";

const JOB = fileURLToPath(new URL("./fixtures/gated-lines-job.ts", import.meta.url));
const COUNT = 3000;
const tempDir = tempDirs("weir-job-commands-");
const started: RunningCli[] = [];

afterEach(() => {
  for (const run of started.splice(0)) if (run.child.exitCode === null && run.child.signalCode === null) run.child.kill("SIGKILL");
});

/** A test's place: its directory (the children's working directory) and the registry home in it. */
function place(): { dir: string; home: string } {
  const dir = tempDir();
  return { dir, home: join(dir, "weir-home") };
}

/**
 * `weir run` of the gated-lines job writing into `<dir>/out` (a rerun from a savepoint commits the part
 * files the savepoint left pending there), with checkpoints in `<dir>/checkpoints-<run>`: slow (10 numbers
 * per 20 ms), or with `fast` at full speed; it waits at the end until `<dir>/gate` exists.
 */
function runJob(p: { dir: string; home: string }, run: string, extra: readonly string[] = [], fast = false): RunningCli {
  const child = startCli(
    ["run", JOB, "--checkpoint-dir", join(p.dir, `checkpoints-${run}`), "--savepoint-dir", join(p.dir, "default-savepoints"), ...extra, "--", join(p.dir, "out"), String(COUNT), join(p.dir, "gate"), fast ? "0" : "20"],
    { WEIR_HOME: p.home },
    { cwd: p.dir },
  );
  started.push(child);
  return child;
}

/** `weir <args>` with the test's registry, in its directory. */
function weir(p: { dir: string; home: string }, args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<CliRun> {
  return runCli(args, 120_000, { WEIR_HOME: p.home, ...env }, { cwd: p.dir });
}

/** The registry entry of the one job of `home`, once it is there. */
async function registered(home: string, run: RunningCli): Promise<RegistryEntry> {
  let entries: RegistryEntry[] = [];
  await waitFor(
    "the job in the registry",
    () => {
      if (run.child.exitCode !== null) throw new Error(`the job ended (exit ${run.child.exitCode}):\n${run.stderr()}`);
      void readJobRegistry(home).then((e) => (entries = e));
      return entries.length > 0;
    },
    90_000,
    50,
  );
  expect(entries).toHaveLength(1);
  return entries[0]!;
}

/** Waits until the job printed `reached 100`: a savepoint from then on is in the middle of the numbers. */
async function reached100(run: RunningCli): Promise<void> {
  await waitFor("number 100 to pass", () => run.stdout().includes("reached 100"), 90_000);
}

/** The numbers in the committed part files under `dir`, in order. */
function committedNumbers(dir: string): number[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => !f.startsWith(".") && !f.startsWith("_"))
    .flatMap((f) => readFileSync(join(dir, f), "utf8").split("\n").filter((l) => l.length > 0))
    .map((l) => Number(l.replace("line-", "")))
    .sort((a, b) => a - b);
}

/** A port that nothing listens on (one just freed). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

function range(from: number, to: number): number[] {
  return Array.from({ length: Math.max(0, to - from + 1) }, (_, i) => from + i);
}

/** The last line of standard output: the path that stop and savepoint print. */
function printedPath(run: CliRun): string {
  return run.stdout.trim().split("\n").at(-1)!;
}

describe("weir list, savepoint, cancel, stop", () => {
  it("list shows the running job; savepoint prints a path while the job goes on; cancel ends it; a rerun from the savepoint restores the rest exactly", async () => {
    const p = place();
    const job = runJob(p, "first");
    const entry = await registered(p.home, job);
    expect(entry.pid).toBe(job.child.pid);
    await reached100(job);

    const list = await weir(p, ["list"]);
    expect(list.code, list.stderr).toBe(0);
    const [header, row, ...more] = list.stdout.trim().split("\n");
    expect(header).toMatch(/^JOB ID\s+NAME\s+STATE\s+START TIME\s+WEB$/);
    expect(row).toMatch(new RegExp(`^${entry.jobId}  gated-lines  RUNNING  \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d  ${entry.webUrl}$`));
    expect(more).toEqual([]);

    // a savepoint that fails says why, and the job goes on
    writeFileSync(join(p.dir, "a-file"), "");
    const failed = await weir(p, ["savepoint", entry.jobId, "a-file/savepoints"]);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain(`weir: error: the savepoint of job ${entry.jobId} failed: Error: ENOTDIR: not a directory`);
    expect(job.child.exitCode).toBeNull();

    const savepoint = await weir(p, ["savepoint", entry.jobId.slice(0, 6), "savepoints"]);
    expect(savepoint.code, savepoint.stderr).toBe(0);
    const path = printedPath(savepoint);
    expect(path.startsWith(join(p.dir, "savepoints"))).toBe(true);
    expect(existsSync(join(path, "_metadata"))).toBe(true);
    expect(job.child.exitCode).toBeNull(); // the job goes on

    const cancel = await weir(p, ["cancel", entry.jobId]);
    expect(cancel.code, cancel.stderr).toBe(0);
    expect(cancel.stdout).toBe(`Cancelled job ${entry.jobId}.\n`);
    const end = await job.done;
    expect(end.code, end.stderr).toBe(130);
    expect(await readJobRegistry(p.home)).toEqual([]);
    expect((await weir(p, ["list"])).stdout).toBe("No running jobs.\n");

    // the rerun from the savepoint commits what the savepoint holds and writes the rest: each number once
    writeFileSync(join(p.dir, "gate"), "");
    const rerun = runJob(p, "second", ["--from-savepoint", path], true);
    const done = await rerun.done;
    expect(done.code, done.stderr).toBe(0);
    expect(done.stderr).toMatch(/restored from savepoint/);
    expect(committedNumbers(join(p.dir, "out"))).toEqual(range(1, COUNT));
  }, 240_000);

  it("stop with a savepoint: the path is printed, the job ends with exit 0, and a rerun from it completes the output exactly once", async () => {
    const p = place();
    const job = runJob(p, "first");
    const entry = await registered(p.home, job);
    await reached100(job);

    const stop = await weir(p, ["stop", entry.jobId.slice(0, 4), "--savepoint-path", "stops"]);
    expect(stop.code, stop.stderr).toBe(0);
    const path = printedPath(stop);
    expect(path.startsWith(join(p.dir, "stops"))).toBe(true);
    const end = await job.done;
    expect(end.code, end.stderr).toBe(0);
    expect(end.stderr).toContain(`stopped with savepoint ${path}`);
    expect(await readJobRegistry(p.home)).toEqual([]);

    const first = committedNumbers(join(p.dir, "out")); // the stop committed what came before its savepoint
    expect(first.length).toBeGreaterThanOrEqual(100);
    expect(first).toEqual(range(1, first.length));

    writeFileSync(join(p.dir, "gate"), "");
    const rerun = runJob(p, "second", ["--from-savepoint", path], true);
    const done = await rerun.done;
    expect(done.code, done.stderr).toBe(0);
    expect(committedNumbers(join(p.dir, "out"))).toEqual(range(1, COUNT));
  }, 240_000);

  it("-m host:port addresses the job's server directly (with its token); unknown ids list the running jobs; a server that is not there is an error", async () => {
    const p = place();
    const token = "0123456789abcdef";
    const job = runJob(p, "first", ["--web-token", token]);
    const entry = await registered(p.home, job);
    expect(entry.token).toBe(token);
    await reached100(job);
    // the registry brings the token of the jobs it lists
    const savepoint = await weir(p, ["savepoint", entry.jobId]);
    expect(savepoint.code, savepoint.stderr).toBe(0);
    expect(printedPath(savepoint).startsWith(join(p.dir, "default-savepoints"))).toBe(true);
    const hostPort = entry.webUrl.replace(/^http:\/\//, "");
    // another registry (empty): only -m finds the job
    const elsewhere = { ...p, home: join(p.dir, "other-home") };

    const list = await weir(elsewhere, ["list", "-m", hostPort]);
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toContain(`${entry.jobId}  gated-lines  RUNNING`);
    expect((await weir(elsewhere, ["list"])).stdout).toBe("No running jobs.\n");

    const unknown = await weir(p, ["cancel", "ffff0000"]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain(`no job 'ffff0000' runs on this machine; running: ${entry.jobId} (gated-lines)`);
    const bad = await weir(p, ["cancel", "xyz"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("a job id is 32 hex digits (a unique prefix of 4 or more will do), got 'xyz'");
    const typo = await weir(p, ["stop", entry.jobId, "--savepoint-pth", "x"]);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain("unknown option '--savepoint-pth' (did you mean --savepoint-path?)");
    const port = await freePort();
    const nowhere = await weir(p, ["list", "-m", `127.0.0.1:${port}`]);
    expect(nowhere.code).toBe(1);
    expect(nowhere.stderr).toContain(`the job's REST server at http://127.0.0.1:${port} is not reachable (connection refused: no job serves there)`);

    const noToken = await weir(elsewhere, ["cancel", "-m", hostPort, entry.jobId.slice(0, 8)]);
    expect(noToken.code).toBe(1);
    expect(noToken.stderr).toMatch(/HTTP 401: .*\(the server asks for its token: give it with --web-token or WEIR_WEB_TOKEN\)/);
    const cancel = await weir(elsewhere, ["cancel", "-m", hostPort, entry.jobId.slice(0, 8)], { WEIR_WEB_TOKEN: token });
    expect(cancel.code, cancel.stderr).toBe(0);
    expect((await job.done).code).toBe(130);
  }, 240_000);

  it("the entry of a SIGKILLed job is stale: not listed as running, refused by cancel, shown and removed by list --all", async () => {
    const p = place();
    const job = runJob(p, "first");
    const entry = await registered(p.home, job);
    job.child.kill("SIGKILL");
    await job.done;
    expect((await readJobRegistry(p.home)).map((e) => e.liveness)).toEqual(["dead"]);

    const list = await weir(p, ["list"]);
    expect(list.code).toBe(0);
    expect(list.stdout).toBe("No running jobs.\n");
    expect(list.stderr).toContain("1 stale registry entry of processes that ended without removing them: weir list --all shows and removes them");
    const cancel = await weir(p, ["cancel", entry.jobId.slice(0, 5)]);
    expect(cancel.code).toBe(1);
    expect(cancel.stderr).toContain(`job ${entry.jobId} (gated-lines) is not running: its process (pid ${entry.pid}) ended without removing its registry entry`);

    const all = await weir(p, ["list", "--all"]);
    expect(all.code).toBe(0);
    expect(all.stdout).toMatch(new RegExp(`^${entry.jobId}  gated-lines  STALE`, "m"));
    expect(all.stderr).toContain("removed 1 stale registry entry");
    expect(await readJobRegistry(p.home)).toEqual([]);
    expect((await weir(p, ["list", "--all"])).stdout).toBe("No jobs.\n");
  }, 240_000);

  it("the SQL client's SHOW JOBS lists a job of another process and STOP JOB stops it with a savepoint through its REST API", async () => {
    const p = place();
    const job = runJob(p, "first");
    const entry = await registered(p.home, job);
    const cli = startPtyCli(["sql"], p.dir, { WEIR_HOME: p.home, WEIR_SQL_HISTORY: join(p.dir, "history") });
    try {
      let at = (await cli.expect("weir> ")).end;
      cli.type("SHOW JOBS;\n");
      const jobs = await cli.expect("1 row in set", at);
      expect(jobs.text).toMatch(new RegExp(`\\| ${entry.jobId} \\| gated-lines \\|\\s+RUNNING \\| \\d{4}-\\d\\d-\\d\\dT`));
      at = jobs.end;
      cli.type("STOP JOB 'abcd';\n");
      at = (await cli.expect(`No job 'abcd' in this session, and no job 'abcd' runs on this machine; running: ${entry.jobId} (gated-lines); SHOW JOBS lists them`, at)).end;
      cli.type(`SET 'state.savepoints.dir' = 'sql-stops';\n`);
      at = (await cli.expect("[INFO] Execute statement succeeded.", at)).end;
      cli.type(`STOP JOB '${entry.jobId.slice(0, 6)}' WITH SAVEPOINT;\n`);
      const stopped = await cli.expect(/Savepoint path: (\S+)\n/, at);
      expect(stopped.text).toContain(`[INFO] Job '${entry.jobId}' stopped with a savepoint.`);
      expect(/Savepoint path: (\S+)\n/.exec(stopped.text)![1]!.startsWith(join(p.dir, "sql-stops"))).toBe(true);
      at = stopped.end;
      const end = await job.done;
      expect(end.code, end.stderr).toBe(0);
      cli.type("SHOW JOBS;\n");
      at = (await cli.expect("Empty set", at)).end;
      cli.type("QUIT;\n");
      await cli.expect("Goodbye!", at);
      expect((await cli.done).code).toBe(0);
    } finally {
      cli.kill();
    }
  }, 240_000);
});
