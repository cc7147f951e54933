/**
 * Consumers of one stream of rows that all leave their records alone share each
 * row instead of a copy each (src/runtime/task/operator-chain.test.ts shows the
 * sharing and the copies): the planner marks its joins, aggregations, window
 * table functions and projecting Calcs over rows of immutable values
 * (`StreamNode.isolatesInput`), nothing over rows with objects (DECIMAL,
 * ARRAY, …), which code after them could change.
 */
import { expect, it } from "vitest";
import { StreamExecutionEnvironment } from "../../src/api/environment.ts";
import { collectSink } from "../../src/connectors/builtin/collect-sink.ts";
import { Schema } from "../../src/table/api/schema.ts";
import { StreamTableEnvironment } from "../../src/table/api/table-environment.ts";
import { MultisetTable } from "../../src/table/data/changelog.ts";
import { Row } from "../../src/table/data/row.ts";

const N = 600;

/** `query` over `t (id INT, v <columnType>)` with the view `doubled` (id, w = 2 v): the operators marked, and the rows. */
async function run(columnType: "BIGINT" | "DECIMAL(10, 0)", query: string) {
  const env = StreamExecutionEnvironment.create({ parallelism: 2 });
  const tEnv = StreamTableEnvironment.create(env);
  const rows = Array.from({ length: N }, (_, i) => (columnType === "BIGINT" ? Row.of(i % 7, i) : Row.of(i % 7, { unscaled: BigInt(i), scale: 0 })));
  tEnv.createTemporaryView("t", tEnv.fromChangelogStream(env.fromCollection(rows), Schema.newBuilder().column("id", "INT").column("v", columnType).build()));
  tEnv.createTemporaryView("doubled", tEnv.sqlQuery("SELECT id, v * 2 AS w FROM t"));
  tEnv.toChangelogStream(tEnv.sqlQuery(query)).sinkTo(collectSink("out"));
  const marked = env.graph.nodes.filter((n) => n.isolatesInput === true).map((n) => n.name);
  const result = await env.execute("isolating");
  return { marked, rows: new MultisetTable().applyAll(result.getCollected<Row>("out")).sortedRows().map((r) => Row.toString(r)) };
}

/** Per id: how many values, and 2 × their sum. */
function perId(): { count: number; sum: number }[] {
  return Array.from({ length: 7 }, (_, id) => {
    let count = 0;
    let sum = 0;
    for (let i = id; i < N; i += 7) (count++, (sum += 2 * i));
    return { count, sum };
  });
}

it("a self-join of a view and an aggregation over it: one Calc feeds both sides of the join, which share its rows", async () => {
  const r = await run("BIGINT", "SELECT a.id, SUM(b.w) AS total FROM doubled a JOIN doubled b ON a.id = b.id GROUP BY a.id");
  expect(r.marked.filter((n) => n.startsWith("Calc")).length).toBeGreaterThan(0);
  expect(r.marked.some((n) => n.includes("Join"))).toBe(true);
  expect(r.marked.some((n) => n.includes("GroupAggregate"))).toBe(true);
  expect(r.rows).toEqual(perId().map(({ count, sum }, id) => `+I[${id}, ${count * sum}]`).sort());
});

it("operators over rows with a DECIMAL (an object code after them could change) are not marked", async () => {
  const decimal = await run("DECIMAL(10, 0)", "SELECT id, SUM(w) AS total FROM doubled GROUP BY id");
  expect(decimal.marked).toEqual([]);
  expect(decimal.rows).toEqual(perId().map(({ sum }, id) => `+I[${id}, ${sum}]`).sort());
});
