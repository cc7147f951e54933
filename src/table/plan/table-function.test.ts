import { expect, it } from "vitest";
import { StreamExecutionEnvironment } from "../../api/environment.ts";
import { Schema } from "../api/schema.ts";
import { StreamTableEnvironment } from "../api/table-environment.ts";
import { MultisetTable } from "../data/changelog.ts";
import { Row } from "../data/row.ts";
import { TableFunction } from "../functions/table-function.ts";

class Split extends TableFunction {
  readonly resultType = "ROW<word STRING, length INT>";
  *eval(s: string | null) {
    for (const w of s?.split(" ").filter(Boolean) ?? []) yield [w, w.length];
  }
}

function session() {
  const env = StreamExecutionEnvironment.create({ parallelism: 2 });
  const tEnv = StreamTableEnvironment.create(env);
  tEnv.createTemporaryView("lines", env.fromCollection([{ id: 1, line: "to be or" }, { id: 2, line: "" }, { id: 3, line: "not" }]), Schema.newBuilder().column("id", "INT").column("line", "STRING").build());
  tEnv.createTemporarySystemFunction("split", new Split());
  tEnv.createTemporarySystemFunction("digits", { kind: "table", resultType: "INT", argumentTypes: ["INT"], *eval(n: number) { for (let i = 0; i < n; i++) yield i; } });
  return tEnv;
}

async function folded(tEnv: StreamTableEnvironment, sql: string): Promise<string[]> {
  const t = new MultisetTable();
  for await (const r of tEnv.executeSql(sql).collect()) t.apply(r);
  return t.sortedRows().map((r) => Row.toString(r));
}

it("LATERAL TABLE joins each row with the rows the function gives for it; LEFT keeps the rows it gives none for", async () => {
  const tEnv = session();
  expect(await folded(tEnv, "SELECT id, word, length FROM lines, LATERAL TABLE(split(line))")).toEqual(["+I[1, be, 2]", "+I[1, or, 2]", "+I[1, to, 2]", "+I[3, not, 3]"]);
  expect(await folded(tEnv, "SELECT id, w FROM lines LEFT JOIN LATERAL TABLE(split(line)) AS T(w, n) ON TRUE WHERE id < 3")).toEqual(["+I[1, be]", "+I[1, or]", "+I[1, to]", "+I[2, null]"]);
  expect(await folded(tEnv, "SELECT word, COUNT(*) FROM lines, LATERAL TABLE(split(line)) GROUP BY word HAVING COUNT(*) > 0")).toHaveLength(4);
  expect(await folded(tEnv, "SELECT f0 FROM TABLE(digits(3))")).toEqual(["+I[0]", "+I[1]", "+I[2]"]);
});

it("a table function's planning errors", () => {
  const tEnv = session();
  expect(() => tEnv.sqlQuery("SELECT * FROM lines LEFT JOIN LATERAL TABLE(split(line)) ON id > 1")).toThrow(/supports only ON TRUE/);
  expect(() => tEnv.sqlQuery("SELECT * FROM TABLE(digits(1, 2))")).toThrow(/takes 1 arguments, got 2/);
  expect(() => tEnv.createTemporarySystemFunction("SPLIT", new Split())).toThrow(/already exists/);
});
