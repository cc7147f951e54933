import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { renderConfigurationTables, withConfigurationTables } from "./config-docs.ts";
import { ENGINE_OPTIONS } from "./engine-options.ts";

const DOC = new URL("../../docs/configuration.md", import.meta.url);

describe("docs/configuration.md", () => {
  it("holds the table generated from the declarations (else: npm run docs:config)", () => {
    const doc = readFileSync(DOC, "utf8");
    expect(withConfigurationTables(doc) === doc, "docs/configuration.md is out of date: run npm run docs:config").toBe(true);
  });

  it("the table has one row per option, with its key, type and default", () => {
    const table = renderConfigurationTables();
    for (const o of ENGINE_OPTIONS) expect(table).toContain(`| \`${o.key}\` |`);
    expect(table).toContain("| `rest.port` | int | `8081` | ");
    expect(table).toContain("| `execution.checkpointing.timeout` | duration | `10 min` | ");
    expect(table.split("\n").filter((l) => l.startsWith("| `")).length).toBe(ENGINE_OPTIONS.length);
  });

  it("a doc without the markers is refused rather than left without a table", () => {
    expect(() => withConfigurationTables("# Configuration\n")).toThrow("lack the markers");
  });
});
