/**
 * One configuration from the command line to every thread: `-D key=value` and
 * the flags (shorthands of keys) reach the client and the worker threads, win
 * over the job's own SQL `SET`, and show in `weir sql`'s `SET;`; an unknown
 * key is refused before anything runs, naming the key meant.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli, type CliRun } from "./support/cli-process.ts";
import { tempDirs } from "./support/temp-dirs.ts";

const tempDir = tempDirs("weir-cli-config-");
const JOB = "test/fixtures/config-echo-job.ts";

interface Echo {
  sqlInterval: string;
  maxParallelism: number;
  configuration: Record<string, string>;
}

/** What each thread of the run wrote, by file name (`client-0.json`, `worker-1.json`, …). */
function echoes(dir: string): Record<string, Echo> {
  return Object.fromEntries(readdirSync(dir).map((f) => [f, JSON.parse(readFileSync(join(dir, f), "utf8")) as Echo]));
}

function stderrLines(run: CliRun): string[] {
  return run.stderr.trim().split("\n");
}

describe("weir run: the command line's configuration", () => {
  for (const [name, flags] of [
    ["-D execution.checkpointing.interval=500ms", ["-D", "execution.checkpointing.interval=500ms"]],
    ["--checkpoint-interval 500", ["--checkpoint-interval", "500"]],
  ] as const) {
    it(`${name} reaches the client and both worker threads (--workers 2) and wins over the job's SQL SET`, async () => {
      const dir = tempDir();
      const run = await runCli(["run", JOB, "--workers", "2", "-p", "2", ...flags, "--checkpoint-dir", tempDir(), "--", dir]);
      expect(run.code, run.stderr).toBe(0);
      const seen = echoes(dir);
      expect(Object.keys(seen).filter((f) => f.startsWith("client-"))).toHaveLength(1);
      expect(Object.keys(seen).filter((f) => f.startsWith("worker-"))).toHaveLength(2);
      for (const [file, echo] of Object.entries(seen)) {
        expect(echo.configuration["execution.checkpointing.interval"], file).toBe("500 ms");
        expect(echo.configuration["weir.workers"], file).toBe("2");
        expect(echo.configuration["parallelism.default"], file).toBe("2");
        expect(echo.sqlInterval, file).toBe("500 ms"); // SET '… = 1 h' in the job lost to the command line
        expect(echo.maxParallelism, file).toBe(64); // the job's own SET applies where the command line says nothing
      }
    });
  }

  it("a misspelt key: exit 2 before the job runs, one line naming the key meant", async () => {
    const dir = tempDir();
    const run = await runCli(["run", JOB, "-D", "execution.checkpointing.intervall=1s", "--", dir]);
    expect(run.code).toBe(2);
    expect(stderrLines(run)).toEqual([
      "weir: error: -D execution.checkpointing.intervall=1s: unknown configuration key 'execution.checkpointing.intervall' (did you mean 'execution.checkpointing.interval'?)",
      "Run 'weir run --help' for the usage.",
    ]);
    expect(readdirSync(dir)).toEqual([]);
    const bad = await runCli(["run", JOB, "-D", "execution.checkpointing.interval=soon", "--", dir]);
    expect(bad.code).toBe(2);
    expect(stderrLines(bad)[0]).toBe(
      "weir: error: -D execution.checkpointing.interval=soon: invalid value 'soon' for 'execution.checkpointing.interval': expected a duration such as '1 s', '500 ms' or '1 min'",
    );
    const noValue = await runCli(["run", JOB, "-D", "parallelism.default", "--", dir]);
    expect(stderrLines(noValue)[0]).toBe("weir: error: -D parallelism.default: expected -D key=value");
  });
});

describe("weir sql: the command line's configuration", () => {
  it("SET; lists the command line's keys, and SET of the same key does not override them", async () => {
    const run = await runCli(["sql", "-D", "execution.checkpointing.interval=500ms", "-e", "SET 'execution.checkpointing.interval' = '1 h';\nSET 'table.exec.state.ttl' = '1 h';\nSET;"]);
    expect(run.code, run.stderr).toBe(0);
    // the tableau cuts long keys: `execution.checkpointing.int...`
    expect(run.stdout).toMatch(/\| execution\.checkpointing\.int\.\.\. \|\s+500 ms \|/);
    expect(run.stdout).toMatch(/\|\s+table\.exec\.state\.ttl \|\s+1 h \|/);
    expect(run.stdout.match(/ 1 h /g)).toHaveLength(1);
  });
});
