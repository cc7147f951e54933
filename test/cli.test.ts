/**
 * The `weir` command line as a user meets it: exit codes, output, where an
 * error in a job file is, the summary line, log levels and formats.
 */
import { readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { jsonResult, runCli, type CliRun } from "./support/cli-process.ts";
import { tempDirs } from "./support/temp-dirs.ts";

const tempDir = tempDirs("weir-cli-");

describe("weir run", () => {
  it("runs a tiny bounded job: exit 0 and its output", async () => {
    const run = await runCli(["run", "test/fixtures/tiny-job.ts", "--parallelism", "2", "--checkpoint-dir", tempDir()]);
    expect(run.code, run.stderr).toBe(0);
    expect(jsonResult(run)).toEqual({ even: 2550, odd: 2500 });
  });

  it("a job file that throws while building the graph: non-zero exit and the file:line:column of the throw", async () => {
    const run = await runCli(["run", "test/fixtures/throwing-job.ts", "--checkpoint-dir", tempDir()]);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain("test/fixtures/throwing-job.ts:9:9: the job cannot be built");
  });

  /** A module job file (in a `"type": "module"` package) whose line 3 has a syntax error at column 25 (1-based). */
  function brokenJobFile(): string {
    const dir = tempDir();
    writeFileSync(join(dir, "package.json"), '{ "type": "module" }\n');
    writeFileSync(join(dir, "broken.ts"), "const ok = 1;\nexport {};\nconst x: number = (ok + ;\n");
    return join(dir, "broken.ts");
  }

  it("a job file with a TypeScript syntax error: non-zero exit and the 1-based line:column of the offending token", async () => {
    const run = await runCli(["run", brokenJobFile(), "--checkpoint-dir", tempDir()]);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toMatch(/broken\.ts:3:25: Unexpected ";"/);
  });

  it("run --help: exit 0 with the usage on stdout, the job not run; a job's own --help after -- is the job's", async () => {
    const help = await runCli(["run", "--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("Options of run:");
    expect(help.stdout).toContain("weir --version");
    const jobHelp = await runCli(["run", "test/fixtures/no-such-job.ts", "--", "--help"]);
    expect(jobHelp.code).not.toBe(0);
    expect(jobHelp.stderr).toContain("no-such-job.ts");
  });

  it("an unknown flag: exit 2, one line naming it (with the flag it resembles) and a hint, not the whole usage", async () => {
    const run = await runCli(["run", "test/fixtures/tiny-job.ts", "--paralelism", "2"]);
    expect(run.code).toBe(2);
    expect(stderrLines(run)).toEqual(["weir: error: unknown option '--paralelism' (did you mean --parallelism?)", "Run 'weir run --help' for the usage."]);
    expect(run.stdout).toBe("");
    const far = await runCli(["run", "test/fixtures/tiny-job.ts", "--no-such-flag"]);
    expect(stderrLines(far)).toEqual(["weir: error: unknown option '--no-such-flag'", "Run 'weir run --help' for the usage."]);
  });

  it("an unknown command gets a did-you-mean; a negative number gets the flag's own message, not the parser's", async () => {
    const command = await runCli(["rnu", "test/fixtures/tiny-job.ts"]);
    expect(command.code).toBe(2);
    expect(stderrLines(command)).toEqual(["weir: error: unknown command 'rnu' (did you mean 'run'?)", "Run 'weir --help' for the usage."]);
    const negative = await runCli(["run", "test/fixtures/tiny-job.ts", "-p", "-2"]);
    expect(negative.code).toBe(2);
    expect(stderrLines(negative)[0]).toBe("weir: error: --parallelism must be a whole number ≥ 1, got '-2'");
  });

  it("a checkpoint directory with an unsupported URI scheme is refused before anything runs; file:// URIs are local directories", async () => {
    const gs = await runCli(["run", "test/fixtures/tiny-job.ts", "--checkpoint-dir", "gs://bucket/checkpoints"]);
    expect(gs.code).toBe(2);
    expect(stderrLines(gs)[0]).toBe(
      "weir: error: --checkpoint-dir: checkpoint location 'gs://bucket/checkpoints': the 'gs://' scheme is not supported; " +
        "give a local directory (a path or a file:// URI) or an S3 location (s3://bucket/path)",
    );
    expect(gs.stdout).toBe("");
    const dir = join(tempDir(), "chk");
    const file = await runCli(["run", "test/fixtures/tiny-job.ts", "--checkpoint-dir", pathToFileURL(dir).href]);
    expect(file.code, file.stderr).toBe(0);
    expect(readdirSync(dir).some((n) => n.startsWith("chk-"))).toBe(true);
  });

  it("a missing job file: a clear message naming it", async () => {
    const run = await runCli(["run", "test/fixtures/no-such-job.ts"]);
    expect(run.code).toBe(1);
    expect(run.stderr.trim()).toBe("weir: error: no such job file: test/fixtures/no-such-job.ts");
  });
});

/** A job that reads 1..100 in one chain and writes the 50 even numbers (test/fixtures/filter-chain-job.ts). */
const FILTER_JOB = "test/fixtures/filter-chain-job.ts";

function stderrLines(run: CliRun): string[] {
  return run.stderr.trim().split("\n");
}

describe("weir run: what it says about the job", () => {
  it("ends with a summary line when stderr is not a terminal: records in (read) and out (written by the sink), checkpoints, restarts, exit", async () => {
    const run = await runCli(["run", FILTER_JOB, "--checkpoint-dir", tempDir()]);
    expect(run.code, run.stderr).toBe(0);
    expect(jsonResult(run)).toEqual({ written: 50 });
    // in and out differ although source and sink are one chain
    expect(stderrLines(run).at(-1)).toMatch(/^weir: job 'filter-chain' finished in [\d.]+ s: 100 records in, 50 out, 1 checkpoint, 0 restarts; exit 0$/);
    expect(run.stderr).not.toMatch(/\r|\x1b/);
  });

  it("running a finished job again says it had already finished and how to start over (exit 0); --fresh runs it again", async () => {
    const checkpoints = tempDir();
    const first = await runCli(["run", FILTER_JOB, "--checkpoint-dir", checkpoints]);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).not.toMatch(/already finished/);
    const again = await runCli(["run", FILTER_JOB, "--checkpoint-dir", checkpoints]);
    expect(again.code, again.stderr).toBe(0);
    const chk1 = join(checkpoints, "chk-1").replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    expect(again.stderr).toMatch(
      new RegExp(`^weir: job 'filter-chain' already finished: restored checkpoint 1 from ${chk1}, where its sources had read all their input; nothing left to process\\. Start over with --fresh$`, "m"),
    );
    expect(stderrLines(again).at(-1)).toMatch(/: 0 records in, 0 out, .*; exit 0$/);
    const fresh = await runCli(["run", FILTER_JOB, "--checkpoint-dir", checkpoints, "--fresh"]);
    expect(fresh.code, fresh.stderr).toBe(0);
    expect(fresh.stderr).not.toMatch(/already finished/);
    expect(stderrLines(fresh).at(-1)).toMatch(/: 100 records in, 50 out, /);
  });

  it("--log-level filters by level, from the client and from the worker threads; the flag wins over WEIR_LOG_LEVEL", async () => {
    const warn = await runCli(["run", FILTER_JOB, "--checkpoint-dir", tempDir(), "--log-level", "warn"], 120_000, { WEIR_LOG_LEVEL: "debug" });
    expect(warn.code, warn.stderr).toBe(0);
    expect(warn.stderr.trim()).toBe("weir: warning: a warning of the job");

    const debug = await runCli(["run", FILTER_JOB, "--checkpoint-dir", tempDir(), "--workers", "1"], 120_000, { WEIR_LOG_LEVEL: "debug" });
    expect(debug.code, debug.stderr).toBe(0);
    const lines = stderrLines(debug);
    expect(lines).toContain("weir: debug: a debug line of the job");
    expect(lines).toContain("weir: debug: the task saw its first record"); // logged in the worker thread
    expect(lines).toContain("weir: debug: [checkpoint] triggering checkpoint 1");
    expect(lines.at(-1)).toMatch(/^weir: job 'filter-chain' finished/);

    const info = await runCli(["run", FILTER_JOB, "--checkpoint-dir", tempDir()]);
    expect(info.stderr).not.toMatch(/debug/);
    expect(stderrLines(info)).toEqual([
      "weir: warning: a warning of the job",
      expect.stringMatching(/^weir: REST API and dashboard at http:\/\/127\.0\.0\.1:\d+$/),
      expect.stringMatching(/^weir: job 'filter-chain' finished/),
    ]);
  });

  it("--log-format json: every line on stderr is a JSON object with time, level and msg; the summary carries its numbers", async () => {
    const run = await runCli(["run", FILTER_JOB, "--checkpoint-dir", tempDir(), "--log-format", "json", "--log-level", "debug"]);
    expect(run.code, run.stderr).toBe(0);
    const records = stderrLines(run).map((l) => JSON.parse(l) as Record<string, unknown>);
    for (const r of records) {
      expect(r.level).toMatch(/^(error|warn|info|debug)$/);
      expect(typeof r.msg).toBe("string");
      expect(Number.isNaN(Date.parse(String(r.time)))).toBe(false);
    }
    expect(records).toContainEqual(expect.objectContaining({ level: "warn", msg: "a warning of the job" }));
    expect(records).toContainEqual(expect.objectContaining({ level: "debug", where: "task", msg: "the task saw its first record" }));
    expect(records.at(-1)).toMatchObject({ level: "info", summary: true, job: "filter-chain", outcome: "finished", exitCode: 0, recordsIn: 100, recordsOut: 50, checkpoints: 1, restarts: 0 });
    expect(jsonResult(run)).toEqual({ written: 50 }); // stdout is the job's alone
  });

  it("WEIR_LOG_FORMAT=json does the same as --log-format json; a bad level or format is a usage error (exit 2)", async () => {
    const run = await runCli(["run", FILTER_JOB, "--checkpoint-dir", tempDir()], 120_000, { WEIR_LOG_FORMAT: "json" });
    expect(run.code, run.stderr).toBe(0);
    expect(stderrLines(run).map((l) => (JSON.parse(l) as { level: string; msg: string }).msg.replace(/\d+$/, "N"))).toEqual([
      "a warning of the job",
      "REST API and dashboard at http://127.0.0.1:N",
      expect.stringMatching(/^job 'filter-chain' finished/),
    ]);
    const badFlag = await runCli(["run", FILTER_JOB, "--log-level", "loud"]);
    expect(badFlag.code).toBe(2);
    expect(badFlag.stderr).toMatch(/^weir: error: --log-level must be one of error, warn, info, debug, got 'loud'/);
    const badEnv = await runCli(["run", FILTER_JOB], 120_000, { WEIR_LOG_FORMAT: "xml" });
    expect(badEnv.code).toBe(2);
    expect(badEnv.stderr).toMatch(/^weir: error: WEIR_LOG_FORMAT must be one of text, json, got 'xml'/);
  });
});
