/**
 * Projection push-down: a table source decodes only the columns a job
 * reads; the others are NULL in its rows (so no operator carries them). A
 * column no query reads is never parsed.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { StreamExecutionEnvironment } from "../../src/api/environment.ts";
import { StreamTableEnvironment } from "../../src/table/api/table-environment.ts";
import { Row } from "../../src/table/data/row.ts";
import { tempDirs } from "../support/temp-dirs.ts";

const temp = tempDirs("weir-projection-");

it("a column the query does not read is not decoded (json and csv)", async () => {
  const dir = temp();
  writeFileSync(join(dir, "a.json"), '{"k": "a", "v": 1, "bad": "not a number"}\n{"k": "a", "v": 2, "bad": "x"}\n');
  writeFileSync(join(dir, "b.csv"), "a,1,not a number\nb,2,x\n");
  const tEnv = StreamTableEnvironment.create(StreamExecutionEnvironment.create({ parallelism: 1 }));
  tEnv.executeSql(`CREATE TABLE j (k STRING, v INT, bad INT) WITH ('connector' = 'filesystem', 'path' = '${join(dir, "a.json")}', 'format' = 'json')`);
  tEnv.executeSql(`CREATE TABLE c (k STRING, v INT, bad INT) WITH ('connector' = 'filesystem', 'path' = '${join(dir, "b.csv")}', 'format' = 'csv')`);
  const rows = async (sql: string) => {
    const out: string[] = [];
    for await (const r of tEnv.executeSql(sql).collect()) out.push(Row.toString(r));
    return out;
  };
  expect(await rows("SELECT k, v * 10 FROM j")).toEqual(["+I[a, 10]", "+I[a, 20]"]);
  expect(await rows("SELECT v FROM c WHERE k = 'b'")).toEqual(["+I[2]"]);
  await expect(rows("SELECT k, bad FROM j")).rejects.toThrow(/bad/);
});
