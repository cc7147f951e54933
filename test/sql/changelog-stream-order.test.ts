/**
 * A changelog from a stream of parallelism 1 keeps its order into the
 * table: the conversion and the stateless operators run at the stream's
 * parallelism (a rebalance would let a row's retraction overtake the row).
 */
import { expect, it } from "vitest";
import { StreamExecutionEnvironment } from "../../src/api/environment.ts";
import { Schema } from "../../src/table/api/schema.ts";
import { StreamTableEnvironment } from "../../src/table/api/table-environment.ts";
import { MultisetTable } from "../../src/table/data/changelog.ts";
import { Row } from "../../src/table/data/row.ts";

it("300 updates of one row through a parallelism-2 job fold to the last one", async () => {
  const env = StreamExecutionEnvironment.create({ parallelism: 2 });
  const tEnv = StreamTableEnvironment.create(env);
  const changes: Row[] = [Row.ofKind("+I", 1, "Ann", 0n)];
  for (let i = 1; i <= 300; i++) changes.push(Row.ofKind("-U", 1, "Ann", BigInt(i - 1)), Row.ofKind("+U", 1, "Ann", BigInt(i)));
  const accounts = tEnv.fromChangelogStream(env.fromCollection(changes), Schema.newBuilder().column("id", "INT").column("owner", "STRING").column("balance", "BIGINT").build());
  tEnv.createTemporaryView("accounts", accounts);
  const t = new MultisetTable();
  for await (const r of tEnv.executeSql("SELECT owner, SUM(balance), COUNT(*) FROM accounts WHERE balance >= 0 GROUP BY owner").collect()) {
    t.apply(r);
    const f = r.fields;
    if (r.kind === "+I" || r.kind === "+U") expect(f[2], Row.toString(r)).toBe(1);
  }
  expect(t.sortedRows().map((r) => Row.toString(r))).toEqual(["+I[Ann, 300, 1]"]);
});
