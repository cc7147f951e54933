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

  it("with TypeScript 7 (no compiler API: its tsc command checks): the same errors, files and cache; a CommonJS project's job is checked as an ES module", () => {
    const seven = mkdtempSync(join(tmpdir(), "weir-typecheck-ts7-"));
    try {
      mkdirSync(join(seven, "node_modules"));
      symlinkSync(join(ROOT, "test/fixtures/typescript-7/node_modules/typescript"), join(seven, "node_modules/typescript"), "dir");
      writeFileSync(join(seven, "package.json"), JSON.stringify({ name: "cjs", type: "commonjs" }));
      // a tsconfig with comments and a trailing comma, extending a base
      writeFileSync(join(seven, "base.json"), '{ "compilerOptions": { "strict": true, "lib": ["ES2022"], "types": [] } }');
      writeFileSync(join(seven, "tsconfig.json"), '{\n  // the base has the strict options\n  "extends": "./base.json",\n  "compilerOptions": { "target": "ES2022", },\n}\n');
      writeFileSync(join(seven, "job.ts"), 'import { twice } from "./twice.ts";\nexport const n: number = twice(2);\nawait Promise.resolve(n);\n');
      writeFileSync(join(seven, "twice.ts"), "export function twice(n: number) {\n  return n * 2;\n}\n");
      const job = join(seven, "job.ts");
      let checks = 0;
      const check = () => typecheckJob(job, seven, () => checks++);

      expect(check()).toMatchObject({ kind: "ok", cached: false, files: 4, version: "7.0.2" });
      expect(check()).toMatchObject({ kind: "ok", cached: true, files: 4 });
      writeFileSync(join(seven, "base.json"), '{ "compilerOptions": { "strict": true, "lib": ["ES2022"], "types": [], "noImplicitReturns": true } }');
      expect(check()).toMatchObject({ kind: "ok", cached: false });
      expect(checks).toBe(2);

      writeFileSync(join(seven, "twice.ts"), "export function twice(n: number) {\n  return String(n * 2);\n}\n");
      expect(check()).toEqual({ kind: "errors", errors: ["job.ts:2:14: TS2322: Type 'string' is not assignable to type 'number'."] });

      // no tsconfig: strict defaults (an implicit any is an error)
      rmSync(join(seven, "tsconfig.json"));
      writeFileSync(join(seven, "twice.ts"), "export function twice(n) {\n  return n * 2;\n}\n");
      expect(check()).toEqual({ kind: "errors", errors: ["twice.ts:1:23: TS7006: Parameter 'n' implicitly has an 'any' type."] });
    } finally {
      rmSync(seven, { recursive: true, force: true });
    }
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
