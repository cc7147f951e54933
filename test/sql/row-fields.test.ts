/**
 * Fields of ROW columns (`person.id`, `t.person.id`) resolve in every place a
 * column does: computed columns and watermarks (as the nexmark project's
 * DDL reads `person.dateTime`), projections, conditions and grouping.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { StreamExecutionEnvironment } from "../../src/api/environment.ts";
import { StreamTableEnvironment } from "../../src/table/api/table-environment.ts";
import { Row } from "../../src/table/data/row.ts";
import { tempDirs } from "../support/temp-dirs.ts";

const temp = tempDirs("weir-row-fields-");

function session(): StreamTableEnvironment {
  const dir = temp();
  const events = [
    { kind: 0, person: { id: 1, name: "ann", at: "2026-12-01 10:00:01" } },
    { kind: 1, item: { id: 7, seller: 1, at: "2026-12-01 10:00:02" } },
    { kind: 0, person: { id: 2, name: "bob", at: "2026-12-01 10:00:03" } },
    { kind: 1, item: { id: 8, seller: 1, at: "2026-12-01 10:00:04" } },
  ];
  writeFileSync(join(dir, "e.json"), events.map((e) => JSON.stringify(e)).join("\n") + "\n");
  const tEnv = StreamTableEnvironment.create(StreamExecutionEnvironment.create({ parallelism: 1 }));
  tEnv.executeSql(`CREATE TABLE e (
      kind INT,
      person ROW<id BIGINT, name STRING, \`at\` TIMESTAMP(3)>,
      item ROW<id BIGINT, seller BIGINT, \`at\` TIMESTAMP(3)>,
      ts AS CASE WHEN kind = 0 THEN person.\`at\` ELSE item.\`at\` END,
      WATERMARK FOR ts AS ts - INTERVAL '1' SECOND
    ) WITH ('connector' = 'filesystem', 'path' = '${dir}', 'format' = 'json')`);
  return tEnv;
}

async function rows(tEnv: StreamTableEnvironment, sql: string): Promise<string[]> {
  const out: string[] = [];
  for await (const r of tEnv.executeSql(sql).collect()) out.push(Row.toString(r));
  return out.sort();
}

it("a computed column and its watermark read ROW fields; queries read them qualified or not", async () => {
  const tEnv = session();
  tEnv.executeSql("CREATE VIEW person AS SELECT person.id, person.name, ts FROM e WHERE kind = 0");
  tEnv.executeSql("CREATE VIEW item AS SELECT e.item.id, e.item.seller, ts FROM e WHERE kind = 1");
  expect(await rows(tEnv, "SELECT p.name, COUNT(*) FROM person p JOIN item i ON p.id = i.seller GROUP BY p.name")).toEqual(["+I[ann, 1]", "+U[ann, 2]", "-U[ann, 1]"]);
  expect(await rows(tEnv, "SELECT window_start, COUNT(*) FROM TABLE(TUMBLE(TABLE e, DESCRIPTOR(ts), INTERVAL '2' SECOND)) GROUP BY window_start, window_end")).toEqual([
    "+I[1796119200000, 1]",
    "+I[1796119202000, 2]",
    "+I[1796119204000, 1]",
  ]);
});

it("an unknown field of a ROW column is located and names the nearest field", () => {
  expect(() => session().sqlQuery("SELECT person.nam FROM e")).toThrow(/^line 1, column 15: Unknown field 'nam' of <ROW<.*>>; did you mean 'name'\?/);
});
