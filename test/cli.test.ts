/**
 * The `weir` command line as a user meets it: exit codes, output, and where
 * an error in a job file is.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { jsonResult, runCli } from "./support/cli-process.ts";
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

  it("an unknown flag: exit 2 with the usage", async () => {
    const run = await runCli(["run", "test/fixtures/tiny-job.ts", "--no-such-flag"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("--no-such-flag");
    expect(run.stderr).toMatch(/Usage:\n\s+weir run <job/);
    expect(run.stdout).toBe("");
  });

  it("a missing job file: a clear message naming it", async () => {
    const run = await runCli(["run", "test/fixtures/no-such-job.ts"]);
    expect(run.code).toBe(1);
    expect(run.stderr.trim()).toBe("weir: no such job file: test/fixtures/no-such-job.ts");
  });
});
