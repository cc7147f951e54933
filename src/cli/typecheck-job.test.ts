import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { typecheckJob } from "./typecheck-job.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "weir-typecheck-unit-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("typecheckJob", () => {
  it("with a tsconfig that extends a base: checks, then answers from the cache until a checked file or a config changes", () => {
    mkdirSync(join(dir, "node_modules"));
    symlinkSync(join(ROOT, "node_modules/typescript"), join(dir, "node_modules/typescript"), "dir");
    // a small program: no DOM, no @types (each check then takes about a second)
    writeFileSync(join(dir, "base.json"), JSON.stringify({ compilerOptions: { strict: true, lib: ["ES2022"], types: [] } }));
    writeFileSync(join(dir, "tsconfig.json"), JSON.stringify({ extends: "./base.json", compilerOptions: { module: "NodeNext", target: "ES2022" } }));
    writeFileSync(join(dir, "job.ts"), 'import { twice } from "./twice.ts";\nexport const n: number = twice(2);\n');
    writeFileSync(join(dir, "twice.ts"), "export function twice(n: number) {\n  return n * 2;\n}\n");
    const job = join(dir, "job.ts");
    let checks = 0;
    const check = () => typecheckJob(job, dir, () => checks++);

    expect(check()).toMatchObject({ kind: "ok", cached: false, files: 3 });
    expect(check()).toMatchObject({ kind: "ok", cached: true, files: 3 });
    expect(checks).toBe(1);

    writeFileSync(join(dir, "base.json"), JSON.stringify({ compilerOptions: { strict: true, lib: ["ES2022"], types: [], noImplicitReturns: true } }));
    expect(check()).toMatchObject({ kind: "ok", cached: false });
    expect(checks).toBe(2);

    writeFileSync(join(dir, "twice.ts"), "export function twice(n: number) {\n  return String(n * 2);\n}\n");
    expect(check()).toEqual({ kind: "errors", errors: ["job.ts:2:14: TS2322: Type 'string' is not assignable to type 'number'."] });
    expect(check()).toMatchObject({ kind: "errors" }); // errors are never cached
    expect(checks).toBe(4);
  });

  it("no typescript package in the job's project: nothing to check with", () => {
    const bare = mkdtempSync(join(tmpdir(), "weir-typecheck-bare-"));
    try {
      writeFileSync(join(bare, "job.ts"), "export const n: number = 'x';\n");
      expect(typecheckJob(join(bare, "job.ts"), bare)).toEqual({ kind: "no-typescript" });
    } finally {
      rmSync(bare, { recursive: true, force: true });
    }
  });
});
