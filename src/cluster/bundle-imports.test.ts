import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** Runs ES module `code` in a child Node with tsx (Weir from source), in the repository; its standard output. */
async function runChild(code: string): Promise<string> {
  const { stdout } = await promisify(execFile)(process.execPath, ["--import", "tsx", "--input-type=module", "-e", code], { cwd: fileURLToPath(new URL("../../", import.meta.url)), timeout: 60_000 });
  return stdout.trim();
}

describe("registerBundleImports", () => {
  it("a bundle's import of weirjs resolves to the loading process's own Weir, only in the registered folder", async () => {
    const jars = mkdtempSync(join(tmpdir(), "weir-jars-"));
    const other = mkdtempSync(join(tmpdir(), "weir-other-"));
    dirs.push(jars, other);
    const bundle = 'export { StreamExecutionEnvironment as E } from "weirjs";\n';
    writeFileSync(join(jars, "a.mjs"), bundle);
    writeFileSync(join(other, "b.mjs"), bundle);
    const own = new URL("bundle-imports.ts", import.meta.url).href;
    const index = new URL("../index.ts", import.meta.url).href;
    const out = await runChild(`
      const { registerBundleImports } = await import(${JSON.stringify(own)});
      registerBundleImports(${JSON.stringify(jars)});
      registerBundleImports(${JSON.stringify(jars)}); // once per folder
      const bundle = await import(${JSON.stringify(pathToFileURL(join(jars, "a.mjs")).href)});
      const weir = await import(${JSON.stringify(index)});
      const elsewhere = await import(${JSON.stringify(pathToFileURL(join(other, "b.mjs")).href)}).then(() => "loaded", (e) => e.code);
      console.log(JSON.stringify({ same: bundle.E === weir.StreamExecutionEnvironment, elsewhere }));
    `);
    expect(JSON.parse(out)).toEqual({ same: true, elsewhere: "ERR_MODULE_NOT_FOUND" });
  });
});
