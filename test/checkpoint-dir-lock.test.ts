/**
 * One run per checkpoint directory, with real `weir` processes: a second
 * `weir run` (or `weir sql -f`) of a job whose checkpoint directory another
 * run holds refuses at once, naming the directory, the owner and what to do,
 * and the first run writes every record once; a lock left by a SIGKILLed run
 * (checkpoint directory and the disk backend's local directory) is taken
 * over with a note and the rerun completes exactly once. A run into the same
 * output folder from another checkpoint directory keeps the first run's
 * in-progress files.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { DirectoryLockedError, FileSink, StreamExecutionEnvironment, WatermarkStrategy, type Source } from "../src/index.ts";
import { runCli, startCli, waitFor, type RunningCli } from "./support/cli-process.ts";

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function tempRoot(): string {
  const root = mkdtempSync(join(tmpdir(), "weir-dir-lock-"));
  dirs.push(root);
  return root;
}

/** Every file under `dir`, recursively (names only). */
function files(dir: string): string[] {
  return existsSync(dir) ? readdirSync(dir, { recursive: true }).map(String) : [];
}

/** The lines of the committed part files under `dir` (hidden files skipped), sorted. */
function committedLines(dir: string): string[] {
  return files(dir)
    .filter((f) => !f.split("/").at(-1)!.startsWith("."))
    .flatMap((f) => readFileSync(join(dir, f), "utf8").split("\n").filter((l) => l !== ""))
    .sort();
}

/** `line-1` … `line-<count>`, sorted as `committedLines` sorts. */
function lines(count: number): string[] {
  return Array.from({ length: count }, (_, i) => `line-${i + 1}`).sort();
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Waits until `run` has written its first in-progress or committed part under `out`. */
async function whenWriting(run: RunningCli, out: string): Promise<void> {
  await waitFor(`the first run to write under ${out}`, () => run.child.exitCode !== null || files(out).length > 0, 60_000);
  expect(run.child.exitCode, `the first run ended early:\n${run.stderr()}`).toBeNull();
}

describe("one run per checkpoint directory (env.execute() in one process)", () => {
  it("refuses a second job on the directory while the first runs, and lets the next one run once it ended", async () => {
    const checkpoints = join(tempRoot(), "ck");
    let released = false;
    /** 1..10 once `released`, then the end. */
    const gated: Source<number, { next: number }> = {
      boundedness: "bounded",
      createSplits: () => [{ next: 1 }],
      createReader: () => {
        let split = { next: 1 };
        return {
          addSplits: (splits) => (split = { ...splits[0]! }),
          pollNext: (output) => {
            if (!released) return "nothing-available";
            while (split.next <= 10) output.collect(split.next++);
            return "end-of-input";
          },
          isAvailable: () => new Promise((resolve) => setTimeout(resolve, 10)),
          snapshotState: () => [{ ...split }],
        };
      },
    };
    const start = () => {
      const env = StreamExecutionEnvironment.create({ checkpointDir: checkpoints, log: () => undefined });
      env.enableCheckpointing(50);
      env.fromSource(gated, WatermarkStrategy.noWatermarks(), "gated").uid("gated").sinkTo({ createWriter: () => ({ write: () => undefined }) }).uid("sink");
      return env.executeAsync("gated");
    };
    const first = await start();
    const second = start();
    await expect(second).rejects.toBeInstanceOf(DirectoryLockedError);
    await expect(second).rejects.toThrow(`checkpoint directory ${checkpoints} is in use by another run: pid ${process.pid} on host `);
    released = true;
    expect((await first.getJobExecutionResult()).restoredFrom).toBeNull();
    expect(existsSync(join(checkpoints, "_lock"))).toBe(false);
    const third = await (await start()).getJobExecutionResult();
    expect(third.restoredFrom).not.toBeNull(); // it ran: restored the first job's final checkpoint
  });
});

describe("one run per checkpoint directory (weir run)", () => {
  const COUNT = 300;

  it("refuses a second run of the job while the first runs; the first writes every record once", async () => {
    const root = tempRoot();
    const [checkpoints, out, gate] = [join(root, "ck"), join(root, "out"), join(root, "gate")];
    const command = ["run", "test/fixtures/gated-lines-job.ts", "--checkpoint-interval", "100", "--checkpoint-dir", checkpoints, "--", out, String(COUNT), gate];
    const first = startCli(command);
    try {
      await whenWriting(first, out);
      const second = await runCli(command, 60_000);
      expect(second.code, second.stderr).toBe(1);
      expect(second.stderr).toMatch(
        new RegExp(
          `checkpoint directory ${escape(checkpoints)} is in use by another run: pid ${first.child.pid} on host '[^']+' \\(weir run test/fixtures/gated-lines-job\\.ts --checkpoint-interval 100 .*\\), started \\S+\\. ` +
            `Wait for that run to end or stop it \\(kill ${first.child.pid}\\), or give this run another checkpoint directory \\(--checkpoint-dir\\)`,
        ),
      );
      expect(second.stderr).not.toMatch(/restored from|finished/);
      expect(existsSync(join(checkpoints, "_lock"))).toBe(true);
      writeFileSync(gate, "");
      const done = await first.done;
      expect(done.code, done.stderr).toBe(0);
    } finally {
      first.child.kill("SIGKILL");
    }
    expect(committedLines(out)).toEqual(lines(COUNT));
    expect(files(out).filter((f) => f.includes(".inprogress"))).toEqual([]);
    expect(existsSync(join(checkpoints, "_lock")), "the lock is released at the end").toBe(false);
  }, 120_000);

  it("takes over the locks a SIGKILLed run left (checkpoint and local state directories) with a note; the rerun writes every record once", async () => {
    const root = tempRoot();
    const [checkpoints, out, gate] = [join(root, "ck"), join(root, "out"), join(root, "gate")];
    const command = [
      "run", "test/fixtures/gated-lines-job.ts", "--checkpoint-interval", "100", "--checkpoint-dir", checkpoints, "--state-backend", "disk",
      "--", out, String(COUNT), gate,
    ];
    const first = startCli(command);
    try {
      await waitFor(
        "a completed checkpoint of the first run",
        () => first.child.exitCode !== null || files(checkpoints).some((f) => f.endsWith("_metadata")),
        60_000,
      );
    } finally {
      first.child.kill("SIGKILL");
    }
    expect((await first.done).signal).toBe("SIGKILL");
    const left = [checkpoints, `${checkpoints}.local`].map((d) => JSON.parse(readFileSync(join(d, "_lock"), "utf8")) as { pid: number });
    expect(left.map((l) => l.pid)).toEqual([first.child.pid, first.child.pid]);

    writeFileSync(gate, "");
    const rerun = await runCli(command, 60_000);
    expect(rerun.code, rerun.stderr).toBe(0);
    for (const [what, dir] of [["checkpoint directory", checkpoints], ["local state directory", `${checkpoints}.local`]]) {
      expect(rerun.stderr).toMatch(
        new RegExp(`taking over the lock of ${what} ${escape(dir!)}: the run that held it \\(pid ${first.child.pid}, weir run test/fixtures/gated-lines-job\\.ts .*\\) is no longer running`),
      );
    }
    expect(rerun.stderr).toMatch(/restored from checkpoint \d+/);
    expect(committedLines(out)).toEqual(lines(COUNT));
    expect(existsSync(join(checkpoints, "_lock"))).toBe(false);
    expect(existsSync(join(`${checkpoints}.local`, "_lock"))).toBe(false);
  }, 120_000);

  it("a run from another checkpoint directory into the same output folder keeps the live run's in-progress files", async () => {
    const root = tempRoot();
    const [out, gate] = [join(root, "out"), join(root, "gate")];
    // no periodic checkpoints: the first run's records stay in an in-progress file until its final checkpoint
    const first = startCli(["run", "test/fixtures/gated-lines-job.ts", "--checkpoint-interval", "0", "--checkpoint-dir", join(root, "ck-1"), "--", out, String(COUNT), gate]);
    try {
      await whenWriting(first, out);
      const inProgress = files(out).filter((f) => f.endsWith(".inprogress"));
      expect(inProgress).toHaveLength(1);
      // the same sink (uid "lines") in this process, from another checkpoint directory: its start-up clean-up sees the first run's file
      const env = StreamExecutionEnvironment.create({ checkpointDir: join(root, "ck-2"), parallelism: 1, log: () => undefined });
      env.fromSequence(1, 100).uid("numbers").map((n) => `line-${n}`).sinkTo(FileSink.forLines(out)).uid("lines");
      await env.execute("gated-lines");
      expect(files(out)).toEqual(expect.arrayContaining(inProgress));
      writeFileSync(gate, "");
      const done = await first.done;
      expect(done.code, done.stderr).toBe(0);
    } finally {
      first.child.kill("SIGKILL");
    }
    expect(committedLines(out)).toEqual([...lines(COUNT), ...lines(100)].sort());
  }, 120_000);
});

describe("one run per checkpoint directory (weir sql -f)", () => {
  it("refuses a second run of the script while the first runs, takes over after a SIGKILL, and writes every row once", async () => {
    const root = tempRoot();
    const [input, out, checkpoints] = [join(root, "in"), join(root, "out"), join(root, "ck")];
    mkdirSync(input);
    const rows = Array.from({ length: 200 }, (_, i) => JSON.stringify({ id: i + 1 }));
    writeFileSync(join(input, "rows-1.json"), `${rows.slice(0, 100).join("\n")}\n`);
    writeFileSync(
      join(root, "copy.sql"),
      `CREATE TABLE src (id BIGINT) WITH ('connector' = 'filesystem', 'path' = '${input}', 'format' = 'json', 'source.monitor-interval' = '50 ms');
       CREATE TABLE dst (id BIGINT) WITH ('connector' = 'filesystem', 'path' = '${out}', 'format' = 'json');
       INSERT INTO dst SELECT id FROM src;`,
    );
    const command = ["sql", "-f", "copy.sql", "--checkpoint-interval", "100", "--checkpoint-dir", checkpoints];
    const ids = () => committedLines(out).map((l) => (JSON.parse(l) as { id: number }).id).sort((a, b) => a - b);
    const first = startCli(command, {}, { cwd: root });
    try {
      await waitFor("the first run's first 100 rows committed", () => first.child.exitCode !== null || ids().length >= 100, 60_000);
      const second = await runCli(command, 60_000, {}, { cwd: root });
      expect(second.code).toBe(1);
      expect(second.stderr).toMatch(new RegExp(`checkpoint directory ${escape(checkpoints)} is in use by another run: pid ${first.child.pid} `));
    } finally {
      first.child.kill("SIGKILL");
    }
    expect((await first.done).signal).toBe("SIGKILL");

    writeFileSync(join(input, "rows-2.json"), `${rows.slice(100).join("\n")}\n`);
    const rerun = startCli(command, {}, { cwd: root });
    try {
      await waitFor("the rerun's rows committed", () => rerun.child.exitCode !== null || ids().length >= 200, 60_000);
      rerun.child.kill("SIGTERM"); // stop with a savepoint: exit 0, the lock released
      const done = await rerun.done;
      expect(done.code, done.stderr).toBe(0);
      expect(done.stderr).toMatch(new RegExp(`taking over the lock of checkpoint directory ${escape(checkpoints)}: the run that held it \\(pid ${first.child.pid}, weir sql -f copy\\.sql `));
    } finally {
      rerun.child.kill("SIGKILL");
    }
    expect(ids()).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
    expect(existsSync(join(checkpoints, "_lock"))).toBe(false);
  }, 120_000);
});
