// Writes the table of engine options into docs/configuration.md (between its marker comments),
// from the declarations in src/config/options/. Run: npm run docs:config
import { readFileSync, writeFileSync } from "node:fs";
import { withConfigurationTables } from "../src/config/config-docs.ts";

const file = new URL("../docs/configuration.md", import.meta.url);
const before = readFileSync(file, "utf8");
const after = withConfigurationTables(before);
if (after !== before) writeFileSync(file, after);
process.stdout.write(after === before ? "docs/configuration.md is up to date\n" : "docs/configuration.md: table regenerated\n");
