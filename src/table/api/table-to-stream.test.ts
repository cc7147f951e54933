import { expect, it } from "vitest";
import { StreamExecutionEnvironment } from "../../api/environment.ts";
import { collectSink } from "../../connectors/builtin/collect-sink.ts";
import type { Row } from "../data/row.ts";
import { Schema } from "./schema.ts";
import { StreamTableEnvironment } from "./table-environment.ts";

/** The rows of `sql` over `t` (name, n) as `toChangelogStream` gives them: kind, fields and names. */
async function rows(sql: string): Promise<{ kind: string; fields: unknown[]; names: string[] | undefined }[]> {
  const env = StreamExecutionEnvironment.create({ parallelism: 1 });
  const tEnv = StreamTableEnvironment.create(env);
  tEnv.createTemporaryView("t", env.fromCollection<object>([{ name: "a", n: 1 }, { name: "b", n: 2 }, { name: "a", n: 3 }]), Schema.newBuilder().column("name", "STRING").column("n", "BIGINT").build());
  tEnv.toChangelogStream(tEnv.sqlQuery(sql)).sinkTo(collectSink<Row>("rows"));
  const result = await env.execute("to-stream");
  return result.getCollected<Row>("rows").map((r) => ({ kind: r.kind, fields: r.fields, names: r.names }));
}

it("a table's rows as a stream carry its field names, whether a Calc or another operator makes them", async () => {
  expect(await rows("SELECT n + 1 AS m, name FROM t WHERE n > 1")).toEqual([
    { kind: "+I", fields: [3, "b"], names: ["m", "name"] },
    { kind: "+I", fields: [4, "a"], names: ["m", "name"] },
  ]);
  expect(await rows("SELECT * FROM t WHERE n <> 2")).toEqual([
    { kind: "+I", fields: ["a", 1], names: ["name", "n"] },
    { kind: "+I", fields: ["a", 3], names: ["name", "n"] },
  ]);
  expect((await rows("SELECT name, COUNT(*) AS c FROM t GROUP BY name")).map((r) => r.names)).toEqual(Array(4).fill(["name", "c"]));
});
