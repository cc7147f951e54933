import { expect, it } from "vitest";
import { StreamExecutionEnvironment } from "../../api/environment.ts";
import { StreamTableEnvironment } from "../api/table-environment.ts";
import { MultisetTable } from "../data/changelog.ts";
import { Row } from "../data/row.ts";

/** NOT IN follows three-valued logic: a NULL on either side makes it unknown (the row is dropped), an empty subquery keeps every row. */
it("NOT IN with NULLs on either side, and over an empty subquery", async () => {
  const tEnv = StreamTableEnvironment.create(StreamExecutionEnvironment.create({ parallelism: 2 }));
  const folded = async (sql: string) => {
    const t = new MultisetTable();
    for await (const r of tEnv.executeSql(sql).collect()) t.apply(r);
    return t.sortedRows().map((r) => Row.toString(r));
  };
  expect(await folded("SELECT a FROM (VALUES (1), (2), (CAST(NULL AS INT))) AS t(a) WHERE a NOT IN (SELECT b FROM (VALUES (2), (3)) AS s(b))")).toEqual(["+I[1]"]);
  expect(await folded("SELECT a FROM (VALUES (1), (2)) AS t(a) WHERE a NOT IN (SELECT b FROM (VALUES (2), (CAST(NULL AS INT))) AS s(b))")).toEqual([]);
  expect(await folded("SELECT a FROM (VALUES (1), (CAST(NULL AS INT))) AS t(a) WHERE a NOT IN (SELECT b FROM (VALUES (2)) AS s(b) WHERE b > 5)")).toEqual(["+I[null]", "+I[1]"]);
});
