/**
 * `weir run job.ts` type-checks the job and its local imports first when the
 * job's project has the typescript package: a type error stops it before
 * anything runs, `--no-typecheck` runs it anyway, an unchanged job is checked
 * from the cache under the job's `.weir/`.
 */
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT, runCli } from "./support/cli-process.ts";
import { tempDirs } from "./support/temp-dirs.ts";

const tempDir = tempDirs("weir-typecheck-");

/** A project (with typescript installed, linked from Weir's own, unless told not to), a job that prints half of 10, and its local import. */
function project(halfOf: string, withTypescript = true): string {
  const dir = tempDir();
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "typed", private: true, type: "module" }));
  if (withTypescript) {
    mkdirSync(join(dir, "node_modules"));
    symlinkSync(join(ROOT, "node_modules/typescript"), join(dir, "node_modules/typescript"), "dir");
  }
  writeFileSync(join(dir, "half.ts"), "export function half(n: number): number {\n  return n / 2;\n}\n");
  writeFileSync(join(dir, "job.ts"), `import { half } from "./half.ts";\n\nconst n: number = half(${halfOf});\nconsole.log("half:", n);\n`);
  return dir;
}

describe("weir run: type check of a .ts job", () => {
  it("checks a job that type-checks, then runs it; unchanged, from the cache; a type error in a local import: exit 1, job.ts:line:col, nothing ran", async () => {
    const dir = project("10");
    const debug = ["run", "job.ts", "--log-level", "debug"];
    const first = await runCli(debug, 60_000, {}, { cwd: dir, typecheck: true });
    expect(first.stdout).toBe("half: 5\n");
    expect(first.stderr).toContain("weir: debug: typecheck: job.ts and its local imports (2 files) type-check (TypeScript ");
    expect(first.stderr).toContain("weir: type-checking job.ts and its local imports (--no-typecheck skips this)");
    expect(first.stderr).not.toContain("cached");
    const second = await runCli(debug, 60_000, {}, { cwd: dir, typecheck: true });
    expect(second.stdout).toBe("half: 5\n");
    expect(second.stderr).toContain("unchanged since the last check: cached");
    expect(second.stderr).not.toContain("type-checking");
    writeFileSync(join(dir, "half.ts"), "export function half(n: number): string {\n  return String(n / 2);\n}\n");
    const changed = await runCli(debug, 60_000, {}, { cwd: dir, typecheck: true });
    expect(changed.code).toBe(1);
    expect(changed.stderr).toContain("weir: error: job.ts:3:7: TS2322: Type 'string' is not assignable to type 'number'.");
    expect(changed.stderr).toContain("job.ts: 1 type error; the job did not run (--no-typecheck runs it anyway)");
    expect(changed.stdout).toBe("");
  });

  it("--no-typecheck runs a job with a type error (which prints NaN)", async () => {
    const dir = project('"ten"');
    const unchecked = await runCli(["run", "--no-typecheck", "job.ts"], 60_000, {}, { cwd: dir, typecheck: true });
    expect(unchecked.stdout).toBe("half: NaN\n");
  });

  it("without typescript in the job's project the job runs unchecked", async () => {
    const dir = project('"ten"', false);
    const run = await runCli(["run", "job.ts"], 60_000, {}, { cwd: dir, typecheck: true });
    expect(run.stdout).toBe("half: NaN\n");
  });
});
