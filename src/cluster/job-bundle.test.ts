import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { bundleJob, EsbuildMissingError, JobBundleError } from "./job-bundle.ts";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** A temporary project with `files` (path → text); its absolute path. */
function project(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "weir-bundle-"));
  dirs.push(dir);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, ".."), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

const WEIR_ENTRY = fileURLToPath(new URL("../index.ts", import.meta.url));

/** Imports the bundle from a file beside the job (so that nothing resolves through the job's folder by accident) and returns what it exported. */
async function importBundle(dir: string, code: Uint8Array): Promise<Record<string, unknown>> {
  const file = join(dir, "out", `bundle-${Math.random().toString(36).slice(2)}.mjs`);
  mkdirSync(join(dir, "out"), { recursive: true });
  writeFileSync(file, code);
  return (await import(pathToFileURL(file).href)) as Record<string, unknown>;
}

describe("bundleJob", () => {
  it("bundles a TypeScript job with its local imports into one ES module; weirjs and node built-ins stay imports", async () => {
    const dir = project({
      "job.ts": [
        'import { StreamExecutionEnvironment } from "weirjs";',
        'import { readFileSync } from "node:fs";',
        'import { double } from "./lib/double.ts";',
        'import { label } from "./lib/label";',
        "export const result: string = label(double(21));",
        "export const env = typeof StreamExecutionEnvironment + typeof readFileSync;",
      ].join("\n"),
      "lib/double.ts": "export function double(n: number): number { return n * 2; }\n",
      "lib/label.ts": "interface Labelled { text: string }\nexport function label(n: number): string { const l: Labelled = { text: `n=${n}` }; return l.text; }\n",
    });
    const job = join(dir, "job.ts");
    const bundle = await bundleJob(job);
    const code = Buffer.from(bundle.code).toString("utf8");
    expect(bundle.filename).toBe("job.mjs");
    expect(bundle.sha256).toBe(createHash("sha256").update(bundle.code).digest("hex"));
    expect(bundle.files).toEqual([job, join(dir, "lib/double.ts"), join(dir, "lib/label.ts")]);
    // one module: the local imports are inside, weirjs and node:fs are imports of it
    // (node:module: the banner's createRequire, for CommonJS packages bundled in)
    const imports = [...code.matchAll(/^import [^;]* from "([^"]+)";/gm)].map((m) => m[1]);
    expect(imports.sort()).toEqual(["node:fs", "node:module", "weirjs"]);
    expect(code).not.toContain("./lib/");
    expect(code).not.toMatch(/interface Labelled|: number/);
  });

  it("the bundle runs from another folder; each module keeps its source file's import.meta.url, filename and dirname", async () => {
    const dir = project({
      "job.ts": [
        'import { readFileSync } from "node:fs";',
        'import { double, where } from "./lib/double.ts";',
        "export const result: number = double(21);",
        "export const here: string[] = [import.meta.url, import.meta.filename, import.meta.dirname];",
        "export const helperHere = where;",
        "export const fs = typeof readFileSync;",
      ].join("\n"),
      "lib/double.ts": "export function double(n: number): number { return n * 2; }\nexport const where = import.meta.url;\n",
    });
    const job = join(dir, "job.ts");
    const ns = await importBundle(dir, (await bundleJob(job)).code);
    expect(ns["result"]).toBe(42);
    expect(ns["here"]).toEqual([pathToFileURL(job).href, job, dir]);
    expect(ns["helperHere"]).toBe(pathToFileURL(join(dir, "lib/double.ts")).href);
    expect(ns["fs"]).toBe("function");
  });

  it("the same job bundles to the same bytes (a content address); a change changes the hash", async () => {
    const dir = project({ "job.ts": "export const n: number = 1;\n" });
    const a = await bundleJob(join(dir, "job.ts"));
    const b = await bundleJob(join(dir, "job.ts"));
    expect(b.sha256).toBe(a.sha256);
    writeFileSync(join(dir, "job.ts"), "export const n: number = 2;\n");
    expect((await bundleJob(join(dir, "job.ts"))).sha256).not.toBe(a.sha256);
  });

  it("an import of Weir's entry file by path becomes weirjs (one copy of Weir); a module inside Weir is refused", async () => {
    const dir = project({});
    const ok = join(dir, "job.ts");
    writeFileSync(ok, `import { StreamExecutionEnvironment } from ${JSON.stringify(WEIR_ENTRY)};\nexport const t = typeof StreamExecutionEnvironment;\n`);
    const code = Buffer.from((await bundleJob(ok)).code).toString("utf8");
    expect(code).toMatch(/^import \{ StreamExecutionEnvironment \} from "weirjs";$/m);
    expect(code).not.toContain("class StreamExecutionEnvironment");
    const inside = fileURLToPath(new URL("../api/stream-execution-environment.ts", import.meta.url));
    const bad = join(dir, "inside.ts");
    writeFileSync(bad, `import { StreamExecutionEnvironment } from ${JSON.stringify(inside)};\nexport const t = typeof StreamExecutionEnvironment;\n`);
    const error = await bundleJob(bad).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(JobBundleError);
    expect((error as JobBundleError).errors).toEqual([`${relative(process.cwd(), bad)}:1:44: ${inside} is a module inside Weir: import Weir through its package, "weirjs"`]);
  });

  it("a syntax error in an imported file is located (file:line:column, 1-based) and nothing is bundled", async () => {
    const dir = project({
      "job.ts": 'import { helper } from "./helper.ts";\nexport const x = helper();\n',
      "helper.ts": "export function helper(): number {\n  const y = 1 +;\n  return y;\n}\n",
    });
    const error = await bundleJob(join(dir, "job.ts")).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(JobBundleError);
    const e = error as JobBundleError;
    expect(e.errors).toEqual([`${relative(process.cwd(), join(dir, "helper.ts"))}:2:16: Unexpected ";"`]);
    expect(e.message).toContain("did not bundle (1 error): nothing was submitted");
  });

  it("a syntax error on the first line of a file that uses import.meta is located where it is in the file", async () => {
    const dir = project({ "job.ts": "export const = 1;\nexport const u = import.meta.url;\n" });
    const error = (await bundleJob(join(dir, "job.ts")).catch((e: unknown) => e)) as JobBundleError;
    expect(error.errors).toEqual([`${relative(process.cwd(), join(dir, "job.ts"))}:1:14: Expected identifier but found "="`]);
  });

  it("an import that does not resolve is located at the import", async () => {
    const dir = project({ "job.ts": 'export const a = 1;\nimport { nope } from "./missing.ts";\nexport const b = nope;\n' });
    const error = (await bundleJob(join(dir, "job.ts")).catch((e: unknown) => e)) as JobBundleError;
    expect(error.errors).toEqual([`${relative(process.cwd(), join(dir, "job.ts"))}:2:22: Could not resolve "./missing.ts"`]);
  });

  it("without esbuild (neither beside Weir nor through the project's tsx): a clear error saying to install tsx", async () => {
    const dir = project({ "job.ts": "export const n = 1;\n" });
    const notFound = async (specifier: string) => {
      throw Object.assign(new Error(`Cannot find package '${specifier}'`), { code: "ERR_MODULE_NOT_FOUND" });
    };
    const error = await bundleJob(join(dir, "job.ts"), notFound).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EsbuildMissingError);
    expect((error as Error).message).toMatch(/^bundling a job for a cluster needs esbuild, which comes with tsx: install tsx in the job's project \(npm i -D tsx\)/);
  });

  it("finds esbuild through the tsx of the job's project when Weir has none beside it", async () => {
    const dir = project({ "job.ts": "export const n: number = 1;\n" });
    // the project's node_modules/tsx: the repository's, linked in
    mkdirSync(join(dir, "node_modules"));
    const { symlinkSync } = await import("node:fs");
    symlinkSync(fileURLToPath(new URL("../../node_modules/tsx", import.meta.url)), join(dir, "node_modules", "tsx"));
    const importer = async (specifier: string) => {
      if (specifier === "esbuild") throw Object.assign(new Error("Cannot find package 'esbuild'"), { code: "ERR_MODULE_NOT_FOUND" });
      return import(specifier);
    };
    const bundle = await bundleJob(join(dir, "job.ts"), importer);
    expect(Buffer.from(bundle.code).toString("utf8")).toContain("var n = 1;");
  });
});
