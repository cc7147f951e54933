/**
 * `CREATE FUNCTION f AS 'module#export'`: a JavaScript or TypeScript
 * module's export becomes a SQL function, as the nexmark project's q14
 * declares `count_char`; `DROP FUNCTION` removes it. Errors name the module,
 * the export and the place in the statement.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { StreamExecutionEnvironment } from "../../src/api/environment.ts";
import { StreamTableEnvironment } from "../../src/table/api/table-environment.ts";
import { Row } from "../../src/table/data/row.ts";
import { tempDirs } from "../support/temp-dirs.ts";

const temp = tempDirs("weir-create-function-");

function session(): { tEnv: StreamTableEnvironment; dir: string } {
  const dir = temp();
  writeFileSync(
    join(dir, "udfs.mjs"),
    `export class CountChar {
  resultType = "BIGINT";
  eval(s, c) { return s === null ? null : BigInt(s.split(c).length - 1); }
}
export const twice = { resultType: "STRING", eval: (s) => s + s };
`,
  );
  writeFileSync(join(dir, "split.ts"), `export default { kind: "table", resultType: "ROW<part STRING>", eval: (s: string): string[][] => s.split("-").map((p) => [p]) };\n`);
  writeFileSync(join(dir, "words.json"), ['{"w":"abcabc"}', '{"w":"c-d"}', '{"w":"xyz"}'].join("\n") + "\n");
  const tEnv = StreamTableEnvironment.create(StreamExecutionEnvironment.create({ parallelism: 1 }));
  tEnv.executeSql(`CREATE TABLE words (w STRING) WITH ('connector' = 'filesystem', 'path' = '${dir}/words.json', 'format' = 'json')`);
  return { tEnv, dir };
}

async function rows(tEnv: StreamTableEnvironment, sql: string): Promise<string[]> {
  const out: string[] = [];
  for await (const r of tEnv.executeSql(sql).collect()) out.push(Row.toString(r));
  return out.sort();
}

it("a module's class, object and TypeScript default export become functions until dropped", async () => {
  const { tEnv, dir } = session();
  tEnv.executeSql(`CREATE FUNCTION count_char AS '${dir}/udfs.mjs#CountChar'`);
  tEnv.executeSql(`CREATE TEMPORARY SYSTEM FUNCTION IF NOT EXISTS twice AS '${dir}/udfs.mjs#twice' LANGUAGE JAVASCRIPT`);
  tEnv.executeSql(`CREATE TEMPORARY FUNCTION parts AS '${dir}/split.ts' LANGUAGE TYPESCRIPT`);
  tEnv.executeSql(`CREATE FUNCTION IF NOT EXISTS twice AS 'never-loaded.mjs'`);
  expect(await rows(tEnv, "SELECT w, count_char(w, 'c'), twice(w) FROM words")).toEqual(["+I[abcabc, 2, abcabcabcabc]", "+I[c-d, 1, c-dc-d]", "+I[xyz, 0, xyzxyz]"]);
  expect(await rows(tEnv, "SELECT part FROM words, LATERAL TABLE(parts(w))")).toEqual(["+I[abcabc]", "+I[c]", "+I[d]", "+I[xyz]"]);
  tEnv.executeSql("DROP FUNCTION count_char");
  tEnv.executeSql("DROP TEMPORARY SYSTEM FUNCTION IF EXISTS count_char");
  expect(() => tEnv.sqlQuery("SELECT count_char(w, 'c') FROM words")).toThrow(/No match found for function 'COUNT_CHAR'/);
  expect(() => tEnv.executeSql("DROP FUNCTION count_char")).toThrow("line 1, column 15: Function 'count_char' does not exist");
});

it("errors name the module, the export and the place", () => {
  const { tEnv, dir } = session();
  expect(() => tEnv.executeSql(`CREATE FUNCTION f AS '${dir}/udfs.mjs#Nope'`)).toThrow(`line 1, column 22: Module '${dir}/udfs.mjs' has no export 'Nope'; its exports are 'CountChar', 'twice'`);
  expect(() => tEnv.executeSql(`CREATE FUNCTION f AS './missing.mjs#f'`)).toThrow(/^line 1, column 22: Cannot load function module '.\/missing.mjs': Cannot find module/);
  expect(() => tEnv.executeSql(`CREATE FUNCTION f AS 'com.example.F' LANGUAGE JAVA`)).toThrow("line 1, column 1: LANGUAGE JAVA is not supported: a function is a JavaScript or TypeScript module's export");
  expect(() => tEnv.executeSql(`CREATE FUNCTION f AS 'x.mjs' USING JAR 'f.jar'`)).toThrow(/CREATE FUNCTION \.\.\. USING JAR/);
  tEnv.executeSql(`CREATE FUNCTION twice AS '${dir}/udfs.mjs#twice'`);
  expect(() => tEnv.executeSql(`CREATE FUNCTION twice AS '${dir}/udfs.mjs#twice'`)).toThrow("line 1, column 17: Function 'twice' already exists");
});
