/**
 * The folders of src/ form layers, and a module imports only from its own folder or a lower layer
 * (docs/architecture.md, "Layers"): an upward import would tie, say, the runtime to the way jobs are
 * launched. Type-only imports count too: they are dependencies of the design even if erased.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const SRC = fileURLToPath(new URL("../src/", import.meta.url));

/** Lowest first; folders in one layer may not import each other. `(root)` is src/index.ts. */
const LAYERS: readonly (readonly string[])[] = [
  ["util"],
  ["config", "metrics"],
  ["state"],
  ["core"],
  ["checkpoint", "time", "graph"],
  ["runtime"],
  ["connectors"],
  ["deploy"],
  ["cluster"],
  ["api"],
  ["table"],
  ["sql-client"],
  ["rest", "web"],
  ["demo"],
  ["cli"],
  ["(root)"],
];

function layerOf(folder: string): number {
  const i = LAYERS.findIndex((l) => l.includes(folder));
  if (i < 0) throw new Error(`src/${folder}/ has no layer: add it to LAYERS in test/import-layers.test.ts and to docs/architecture.md`);
  return i;
}

function folderOf(file: string): string {
  const parts = relative(SRC, file).split("/");
  return parts.length === 1 ? "(root)" : parts[0]!;
}

/** The source of every module of src/ (not tests), by absolute path. */
function sourceFiles(): Map<string, string> {
  const files = readdirSync(SRC, { recursive: true, encoding: "utf8" }).filter((f) => /\.(ts|mjs)$/.test(f) && !f.endsWith(".test.ts"));
  return new Map(files.map((f) => [join(SRC, f), readFileSync(join(SRC, f), "utf8")]));
}

/** `a/b.ts -> c/d.ts` for every import of a module in another folder that is not below the importer's layer. */
function upwardImports(sources: ReadonlyMap<string, string>): string[] {
  const found: string[] = [];
  for (const [file, text] of sources) {
    const from = folderOf(file);
    for (const m of text.matchAll(/(?:\bfrom|\bimport\(?)\s*["'](\.\.?\/[^"']+)["']/g)) {
      const target = resolve(dirname(file), m[1]!);
      const to = folderOf(target);
      if (to !== from && layerOf(to) >= layerOf(from)) found.push(`${relative(SRC, file)} -> ${relative(SRC, target)}`);
    }
  }
  return found;
}

describe("import layers of src/", () => {
  it("every folder has a layer and no module imports upward or sideways", () => {
    expect(upwardImports(sourceFiles())).toEqual([]);
  });

  it("names upward, sideways and dynamic imports, and lets downward ones pass", () => {
    const sources = new Map([
      [join(SRC, "runtime/task/t.ts"), `import { startJob } from "../../deploy/start-job.ts";\nimport type { Clock } from "../../util/clock.ts";`],
      [join(SRC, "checkpoint/c.ts"), `const g = await import("../graph/job-graph.ts");`],
      [join(SRC, "cli/m.ts"), `import { a } from "./a.ts";\nimport { run } from "../deploy/x.ts";`],
    ]);
    expect(upwardImports(sources)).toEqual(["runtime/task/t.ts -> deploy/start-job.ts", "checkpoint/c.ts -> graph/job-graph.ts"]);
  });
});
