/**
 * A table read twice in one query (a self-join under two aliases) is read
 * by one source, whose rows both sides see.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { StreamExecutionEnvironment } from "../../src/api/environment.ts";
import { StreamTableEnvironment } from "../../src/table/api/table-environment.ts";
import { Row } from "../../src/table/data/row.ts";
import { tempDirs } from "../support/temp-dirs.ts";

const temp = tempDirs("weir-source-reuse-");

it("a self-join of a filesystem table reads it once", async () => {
  const dir = temp();
  writeFileSync(join(dir, "a.json"), Array.from({ length: 10 }, (_, i) => JSON.stringify({ id: i })).join("\n") + "\n");
  const env = StreamExecutionEnvironment.create({ parallelism: 2 });
  const tEnv = StreamTableEnvironment.create(env);
  tEnv.executeSql(`CREATE TABLE t (id BIGINT) WITH ('connector' = 'filesystem', 'path' = '${dir}', 'format' = 'json')`);
  const rows: string[] = [];
  for await (const r of tEnv.executeSql("SELECT a.id, b.id FROM t a JOIN t b ON a.id = b.id + 1").collect()) rows.push(Row.toString(r));
  expect(rows.sort()).toEqual(Array.from({ length: 9 }, (_, i) => `+I[${i + 1}, ${i}]`).sort());
  expect(env.graph.nodes.filter((n) => n.isSource)).toHaveLength(1);
});
