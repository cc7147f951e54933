/**
 * Lookup joins (`JOIN t FOR SYSTEM_TIME AS OF l.proc_time`, as the nexmark
 * project's q13): each row looks up a `filesystem` table's rows by key
 * expressions, INNER and LEFT, with a residual condition; the table is read
 * whole by each task, also after a restart, so an injected failure changes
 * nothing.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { StreamExecutionEnvironment } from "../../src/api/environment.ts";
import { RestartStrategies } from "../../src/index.ts";
import { StreamTableEnvironment } from "../../src/table/api/table-environment.ts";
import { Row } from "../../src/table/data/row.ts";
import { seededRandom, testSeed } from "../../src/util/seeded-random.ts";
import { tempDirs } from "../support/temp-dirs.ts";

const temp = tempDirs("weir-lookup-join-");
/** Whether the failure was injected (once per test). */
const state = { failed: false };

interface Bid {
  auction: number;
  price: number;
}

function session(bids: Bid[], failAt?: number): StreamTableEnvironment {
  const dir = temp();
  writeFileSync(join(dir, "side.csv"), Array.from({ length: 7 }, (_, k) => `${k},v${k}\n`).join("") + "3,w3\n");
  writeFileSync(join(dir, "bids.json"), bids.map((b) => JSON.stringify(b)).join("\n") + "\n");
  const env = StreamExecutionEnvironment.create({ parallelism: 2 });
  env.enableCheckpointing(20, "exactly-once");
  env.setRestartStrategy(RestartStrategies.fixedDelayRestart(2, 0));
  const tEnv = StreamTableEnvironment.create(env);
  let seen = 0;
  tEnv.createTemporarySystemFunction("fail_at", {
    resultType: "BIGINT",
    eval: (n: bigint) => {
      if (++seen === failAt && !state.failed) {
        state.failed = true;
        throw new Error("injected failure");
      }
      return n;
    },
  });
  tEnv.executeSql(`CREATE TABLE side_input (key BIGINT, \`value\` STRING) WITH ('connector' = 'filesystem', 'path' = '${join(dir, "side.csv")}', 'format' = 'csv')`);
  tEnv.executeSql(`CREATE TABLE bid (auction BIGINT, price BIGINT, p_time AS PROCTIME()) WITH ('connector' = 'filesystem', 'path' = '${join(dir, "bids.json")}', 'format' = 'json')`);
  return tEnv;
}

async function rows(tEnv: StreamTableEnvironment, sql: string): Promise<string[]> {
  const out: string[] = [];
  for await (const r of tEnv.executeSql(sql).collect()) out.push(Row.toString(r));
  return out.sort();
}

it("rows look up a file's rows by a key expression, INNER and LEFT, through a restart", async () => {
  const seed = testSeed();
  const random = seededRandom(seed);
  const bids = Array.from({ length: 400 }, () => ({ auction: Math.floor(random() * 30), price: Math.floor(random() * 100) }));
  const side = new Map<number, string[]>(Array.from({ length: 7 }, (_, k) => [k, [`v${k}`]]));
  side.get(3)!.push("w3");
  const inner = bids.flatMap((b) => (side.get(b.auction % 10) ?? []).filter((v) => b.price > 10 || v !== "v1").map((v) => `+I[${b.auction}, ${b.price}, ${v}]`)).sort();
  const left = bids.flatMap((b) => (side.get(b.auction % 10) ?? ["null"]).map((v) => `+I[${b.auction}, ${b.price}, ${v}]`)).sort();
  state.failed = false;
  const q13 = "SELECT B.auction, B.price, S.`value` FROM (SELECT *, PROCTIME() AS pt FROM bid WHERE fail_at(price) >= 0) B JOIN side_input FOR SYSTEM_TIME AS OF B.pt AS S ON mod(B.auction, 10) = S.key AND (B.price > 10 OR S.`value` <> 'v1')";
  expect(await rows(session(bids, 150), q13), `seed ${seed}`).toEqual(inner);
  expect(state.failed).toBe(true);
  const leftJoin = "SELECT b.auction, b.price, s.`value` FROM bid b LEFT JOIN side_input FOR SYSTEM_TIME AS OF b.p_time AS s ON s.key = b.auction - 10 * (b.auction / 10)";
  expect(await rows(session(bids), leftJoin), `seed ${seed}`).toEqual(left);
});

it("EXPLAIN names the lookup; tables that cannot be looked up are refused", () => {
  const tEnv = session([]);
  expect(tEnv.explainSql("SELECT * FROM bid b JOIN side_input FOR SYSTEM_TIME AS OF b.p_time AS s ON s.key = b.auction")).toMatch(
    /LookupJoin\(table=\[default_catalog\.default_database\.side_input\], joinType=\[InnerJoin\], lookup=\[key=b\.auction\]/,
  );
  tEnv.executeSql("CREATE VIEW sv AS SELECT * FROM side_input");
  expect(() => tEnv.explainSql("SELECT * FROM bid b JOIN sv FOR SYSTEM_TIME AS OF b.p_time AS s ON s.key = b.auction")).toThrow(/needs a table without computed columns, not a view/);
  expect(() => tEnv.explainSql("SELECT * FROM bid b JOIN side_input FOR SYSTEM_TIME AS OF b.p_time AS s ON s.key > b.auction")).toThrow(/needs an equality between a column of 'default_catalog.default_database.side_input' and the left row/);
});
