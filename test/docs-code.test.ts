/**
 * The code in the docs is code: every ```ts/```typescript/```js block of
 * README.md and docs/ (and every TSDoc `@example` of src/ that imports from
 * "weirjs") type-checks under strict NodeNext against this repository's API,
 * and the blocks marked `<!-- run -->` run to their end with `weir run` in a
 * fresh project. The markers are described in docs/architecture.md, "Code in
 * the docs".
 */
import { mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { ROOT, runCli } from "./support/cli-process.ts";
import { docModules, markdownBlocks, readMarkdownBlocks, sourceLine, tsdocExamples, type DocBlock, type DocModule } from "./support/doc-code-blocks.ts";
import { typeCheckDocModules, type DocDiagnostic } from "./support/doc-type-check.ts";
import { tempDirs } from "./support/temp-dirs.ts";

/** Blocks left unchecked on purpose, as `file: reason` (keep this list short). */
const ALLOWED_FRAGMENTS: readonly string[] = [];

/** Deadline of one runnable block (they take a few seconds). */
const RUN_DEADLINE_MS = 60_000;

const markdownFiles = [
  join(ROOT, "README.md"),
  ...readdirSync(join(ROOT, "docs"), { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".md")).sort().map((f) => join(ROOT, "docs", f)),
];
const sourceFiles = readdirSync(join(ROOT, "src"), { recursive: true, encoding: "utf8" })
  .filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts"))
  .sort()
  .map((f) => join("src", f));

const blocks: DocBlock[] = [
  ...readMarkdownBlocks(ROOT, markdownFiles),
  ...sourceFiles.flatMap((f) => tsdocExamples(f, readFileSync(join(ROOT, f), "utf8"))),
];
const modules = docModules(blocks);

/**
 * Canaries checked in the same program as the docs: a continuation that uses
 * the API wrongly and an implicit any must be reported at their lines, which
 * proves that "weirjs" resolves to the real API, that continued blocks join,
 * that lines map back and that `strict` is on.
 */
const CANARY = [
  "```ts",
  'import { StreamExecutionEnvironment } from "weirjs";',
  "const env = StreamExecutionEnvironment.getExecutionEnvironment();",
  "```",
  "",
  "<!-- continues -->",
  "```ts",
  "env.fromSequence(1, 3).map((n) => n.toUpperCase());",
  "export function untyped(x) { return x; }",
  "```",
].join("\n");
const canaries = docModules(markdownBlocks("canary.md", CANARY));

describe("code blocks in the docs", () => {
  let diagnostics: DocDiagnostic[] = [];
  beforeAll(() => {
    diagnostics = typeCheckDocModules(ROOT, [...modules, ...canaries]);
  }, 120_000);

  it("finds the blocks of README.md, docs/ and TSDoc examples", () => {
    const files = new Set(modules.flatMap((m) => m.parts.map((p) => p.block.file)));
    expect(files).toContain("README.md");
    expect(files).toContain("docs/connectors.md");
    expect(files).toContain("src/index.ts");
  });

  it("reports a wrong block at its file:line (canaries)", () => {
    const found = diagnostics.filter((d) => d.at.startsWith("canary.md:"));
    expect(found.map((d) => `${d.at} ${d.message.slice(0, 6)}`)).toEqual(["canary.md:8 TS2339", "canary.md:9 TS7006"]);
  });

  it("type-checks every block (strict, NodeNext, against src/index.ts)", () => {
    const found = diagnostics.filter((d) => !d.at.startsWith("canary.md:"));
    expect(found.map((d) => `${d.at}: ${d.message}`).join("\n")).toBe("");
  });

  it("leaves only the listed fragments unchecked", () => {
    const fragments = blocks.filter((b) => b.fragment !== undefined).map((b) => `${b.file}: ${b.fragment}`);
    expect(fragments).toEqual(ALLOWED_FRAGMENTS);
  });
});

describe("markers above a block", () => {
  const md = (...lines: string[]) => lines.join("\n");

  it("joins a continued block and maps its lines back; leaves a fragment out; runs what is marked", () => {
    const text = md("<!-- run -->", "```ts", "const a = 1;", "```", "<!-- continues -->", "", "```typescript", "const b = a;", "```", "<!-- fragment: shows a call -->", "```js", "f();", "```");
    const blocks = markdownBlocks("x.md", text);
    expect(blocks.map((b) => [b.line, b.continues, b.run, b.fragment])).toEqual([[3, false, true, undefined], [8, true, false, undefined], [12, false, false, "shows a call"]]);
    const [module, ...rest] = docModules(blocks);
    expect(rest).toEqual([]);
    expect(module!.code).toBe("const a = 1;\nconst b = a;");
    expect([sourceLine(module!, 0), sourceLine(module!, 1)]).toEqual(["x.md:3", "x.md:8"]);
  });

  it("refuses an unknown marker, a fragment without a reason, a marker on an unchecked block and a continuation of nothing", () => {
    expect(() => markdownBlocks("x.md", md("<!-- contineus -->", "```ts", "```"))).toThrow(/x\.md:2: unknown marker/);
    expect(() => markdownBlocks("x.md", md("<!-- fragment -->", "```ts", "```"))).toThrow(/needs a reason/);
    expect(() => markdownBlocks("x.md", md("<!-- run -->", "```sh", "```"))).toThrow(/not checked/);
    expect(() => docModules(markdownBlocks("x.md", md("<!-- continues -->", "```ts", "```")))).toThrow(/without a previous checked block/);
  });
});

describe("runnable blocks (<!-- run -->) end without error under weir run", () => {
  const tempDir = tempDirs("weir-docs-run-");
  const runnable = modules.filter((m) => m.run);

  it("has runnable blocks", () => {
    expect(runnable.length).toBeGreaterThan(0);
  });

  it.each(runnable.map((m) => [m.name, m] as const))("%s", async (_name, module) => {
    const dir = tempDir();
    const job = writeJobProject(dir, module);
    const run = await runCli(["run", job, "--restart-attempts", "0"], RUN_DEADLINE_MS, {}, { cwd: dir, shipped: true });
    const stderr = run.stderr.replace(/\bjob\.(?:ts|mjs):(\d+)/g, (_, line: string) => sourceLine(module, Number(line) - 1));
    expect(run.code, `exit ${run.code}\nstderr:\n${stderr}`).toBe(0);
  }, RUN_DEADLINE_MS + 10_000);
});

/** A fresh ES-module project in `dir` whose node_modules/weirjs is this repository, with the module as its job file. */
function writeJobProject(dir: string, module: DocModule): string {
  writeFileSync(join(dir, "package.json"), JSON.stringify({ type: "module", private: true }));
  mkdirSync(join(dir, "node_modules"));
  symlinkSync(ROOT, join(dir, "node_modules", "weirjs"), "dir");
  const job = module.lang === "ts" ? "job.ts" : "job.mjs";
  writeFileSync(join(dir, job), module.code);
  return job;
}
