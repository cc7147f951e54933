/**
 * A job module that runs SQL statements one after another under `weir run
 * --workers 2`: each INSERT is a job, and the worker threads of each job
 * run that job (they rebuild the module and skip the other statements' jobs).
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { runCli } from "../support/cli-process.ts";
import { tempDirs } from "../support/temp-dirs.ts";

const temp = tempDirs("weir-sql-statements-");

it("two INSERTs one after another on 2 workers: the second reads what the first wrote", async () => {
  const dir = temp();
  mkdirSync(join(dir, "input"));
  writeFileSync(join(dir, "input", "a.json"), Array.from({ length: 100 }, (_, i) => JSON.stringify({ k: `k${i % 3}`, v: i })).join("\n") + "\n");
  const run = await runCli(["run", "test/fixtures/sql-two-statements-job.ts", "--parallelism", "2", "--workers", "2", "--fresh", "--", dir]);
  expect(run.code, run.stderr).toBe(0);
  const changes = readdirSync(join(dir, "sums"))
    .flatMap((f) => readFileSync(join(dir, "sums", f), "utf8").split("\n").filter(Boolean))
    .map((l) => JSON.parse(l) as { op: string; after: { k: string; total: number } | null });
  const last = new Map<string, number>();
  for (const c of changes) if (c.after) last.set(c.after.k, Math.max(last.get(c.after.k) ?? 0, c.after.total));
  const expected = new Map<string, number>();
  for (let i = 0; i < 100; i++) expected.set(`k${i % 3}`, (expected.get(`k${i % 3}`) ?? 0) + i * 10);
  expect(new Map([...last].sort())).toEqual(new Map([...expected].sort()));
}, 120_000);
