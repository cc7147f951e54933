/**
 * `weir run` ends when it should, as a real child process: a signal that a
 * wrapper delivers twice (to the child and to its process group) is one
 * request to stop with a savepoint, not a cancel; more workers than subtasks are
 * capped, and SIGTERM during start-up ends the run; the engine ends when the
 * process that started it is killed with SIGKILL; a task stuck in user code is
 * named and its thread ended a bounded time after Ctrl-C.
 */
import { spawn } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { collectOutput, ROOT, waitFor, type RunningCli } from "./support/cli-process.ts";
import { tempDirs } from "./support/temp-dirs.ts";

const JOB = fileURLToPath(new URL("./fixtures/until-stopped-job.ts", import.meta.url));
const tempDir = tempDirs("weir-lifecycle-");
const started: RunningCli[] = [];

afterEach(() => {
  for (const run of started.splice(0)) if (run.child.exitCode === null && run.child.signalCode === null) run.child.kill("SIGKILL");
});

/** `weir run` of the until-stopped job in a fresh directory, in its own process group. */
function runJob(extra: readonly string[] = [], jobArgs: readonly string[] = []): RunningCli & { dir: string } {
  const dir = tempDir();
  const child = spawn(
    process.execPath,
    [join(ROOT, "bin/weir-dev.mjs"), "run", JOB, "--no-typecheck", "--checkpoint-dir", join(dir, "checkpoints"), "--savepoint-dir", join(dir, "savepoints"), ...extra, "--", ...jobArgs],
    { cwd: dir, stdio: ["ignore", "pipe", "pipe"], detached: true },
  );
  const run = { child, ...collectOutput(child), dir };
  started.push(run);
  return run;
}

describe("weir run and signals", () => {
  it("SIGTERM delivered twice at once (to the process and to its group) stops with a savepoint", async () => {
    const run = runJob(["--workers", "0"]);
    await waitFor("the source to read", () => run.stdout().includes("source reading"), 30_000);
    // as coreutils `timeout` does: the child first, then the whole group (the second delivery comes
    // once the first was handled: the kernel would merge two signals that are both still pending)
    run.child.kill("SIGTERM");
    await waitFor("the first SIGTERM to be handled", () => run.stderr().includes("stopping the job with a savepoint"), 10_000, 2);
    process.kill(-run.child.pid!, "SIGTERM");
    const r = await run.done;
    expect(r.stderr).not.toContain("cancelling");
    expect(r.stderr).toMatch(/stopped with savepoint/);
    expect(r.code, r.stderr).toBe(0);
  }, 60_000);

  it("the stop's signal delivered again to the group as the job ends does not kill the process (exit 0)", async () => {
    const run = runJob(["--workers", "0"]);
    await waitFor("the source to read", () => run.stdout().includes("source reading"), 30_000);
    run.child.kill("SIGTERM");
    await waitFor("the job to stop with a savepoint", () => run.stderr().includes("stopped with savepoint"), 30_000, 2);
    try {
      process.kill(-run.child.pid!, "SIGTERM");
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "ESRCH") throw e; // the process group was gone already
    }
    const r = await run.done;
    expect(r.code, r.stderr).toBe(0);
  }, 60_000);

  it("--workers 64 for a job of one subtask starts one worker, says so, and stops on SIGTERM during start-up", async () => {
    const run = runJob(["--workers", "64"]);
    await waitFor("the job to start", () => run.stderr().includes("capped"), 30_000, 2);
    run.child.kill("SIGTERM");
    const r = await run.done;
    expect(r.stderr).toContain("--workers 64 capped at 1: the job has 1 subtask");
    expect(r.stderr).toMatch(/stopping it now, without a savepoint|stopped with savepoint/);
    expect([0, 130], r.stderr).toContain(r.code);
  }, 60_000);

  it.each([
    ["directly", false],
    ["through `sh -c` (as npx does)", true],
  ] as const)("ends when the process that started it %s is killed with SIGKILL", async (_how, throughShell) => {
    const dir = tempDir();
    const weir = [process.execPath, join(ROOT, "bin/weir-dev.mjs"), "run", JOB, "--no-typecheck", "--checkpoint-dir", join(dir, "checkpoints"), "--workers", "0"];
    const command = throughShell ? ["sh", ["-c", weir.map((a) => `'${a}'`).join(" ")]] : [weir[0], weir.slice(1)];
    const wrapper = `require("node:child_process").spawn(...${JSON.stringify(command)}, { stdio: "inherit" })`;
    const child = spawn(process.execPath, ["-e", wrapper], { cwd: dir, stdio: ["ignore", "pipe", "pipe"] });
    const run = { child, ...collectOutput(child) };
    started.push(run);
    await waitFor("the source to read", () => run.stdout().includes("source reading"), 30_000);
    const pid = (JSON.parse(run.stdout().split("\n")[0]!) as { pid: number }).pid;
    child.kill("SIGKILL");
    // the wrapper's output pipes close when the last process holding them (weir) ended
    const ended = await Promise.race([run.done.then(() => true), new Promise<false>((r) => setTimeout(() => r(false), 30_000))]);
    if (!ended) process.kill(pid, "SIGKILL");
    expect(ended, `weir (pid ${pid}) still ran 30 s after its starter was killed\n${run.stderr()}`).toBe(true);
    expect(run.stderr()).toContain(`the process that started weir (pid ${child.pid}) ended: cancelling the job`);
  }, 60_000);

  it("a task in an endless loop is named and the process exits 1 a bounded time after Ctrl-C", async () => {
    const run = runJob(["--task-cancellation-timeout", "1000"], ["stuck"]);
    await waitFor("the source to read", () => run.stdout().includes("source reading"), 30_000);
    run.child.kill("SIGINT");
    const r = await run.done;
    expect(r.stderr).toMatch(/task 'numbers -> spin -> [^']*' 1\/1 \(worker thread 0\) did not stop within 1 s of the stop request/);
    expect(r.code, r.stderr).toBe(1);
  }, 60_000);

  it("in-process, a task that blocks the main thread after Ctrl-C is named and the process ended", async () => {
    const run = runJob(["--workers", "0", "--task-cancellation-timeout", "1000"], ["stuck-after-signal"]);
    await waitFor("the source to read", () => run.stdout().includes("source reading"), 30_000);
    run.child.kill("SIGINT");
    const r = await run.done;
    expect(r.stderr).toMatch(/task 'numbers -> spin -> [^']*' 1\/1 \(main thread\) did not stop within 1 s of the stop request/);
    expect(r.signal, r.stderr).toBe("SIGKILL");
  }, 60_000);

  it("in-process, a task that blocks the main thread is named after the timeout, with how to stop it", async () => {
    const run = runJob(["--workers", "0", "--task-cancellation-timeout", "1000"], ["stuck"]);
    await waitFor("the warning", () => run.stderr().includes("has kept the main thread busy for 1 s"), 30_000);
    expect(run.stderr()).toMatch(/task 'numbers -> spin -> [^']*' 1\/1 has kept the main thread busy for 1 s \(stuck in user code\?\); with --workers 0 no signal handler can run/);
    run.child.kill("SIGKILL");
    await run.done;
  }, 60_000);
});
