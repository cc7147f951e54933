/** Folding a `debezium-json` filesystem sink's committed changelog into the table it stands for. */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { MultisetTable } from "../../src/table/data/changelog.ts";
import type { Row } from "../../src/table/data/row.ts";

/**
 * The committed changelog in `dir` (part files in the order they were
 * finished), folded; `row` makes a table row of a Debezium record's image.
 */
export function foldDebezium(dir: string, row: (image: Record<string, unknown>, kind: "+I" | "-D") => Row): Row[] {
  const parts = readdirSync(dir)
    .filter((f) => !f.startsWith("."))
    .map((f) => ({ f, t: statSync(join(dir, f)).mtimeMs }))
    .sort((a, b) => a.t - b.t || (a.f < b.f ? -1 : 1));
  const table = new MultisetTable();
  for (const { f } of parts) {
    for (const line of readFileSync(join(dir, f), "utf8").split("\n")) {
      if (line === "") continue;
      const e = JSON.parse(line) as { op: string; before: Record<string, unknown> | null; after: Record<string, unknown> | null };
      table.apply(e.op === "d" ? row(e.before!, "-D") : row(e.after!, "+I"));
    }
  }
  return table.sortedRows();
}

