import { describe, expect, it } from "vitest";
import { StreamExecutionEnvironment } from "../../api/environment.ts";
import { StreamTableEnvironment } from "../api/table-environment.ts";
import { Row } from "../data/row.ts";
import { pruneColumns } from "./prune-columns.ts";
import { sourceNestedProjections } from "./read-nested-fields.ts";

/** A `nexmark` table whose `person` and `bid` are ROWs, with a rowtime computed from their fields, and a view of the bids. */
function session(): StreamTableEnvironment {
  const tEnv = StreamTableEnvironment.create(StreamExecutionEnvironment.create({ parallelism: 1, log: () => {} }));
  tEnv.executeSql(`CREATE TABLE t (event_type INT,
    person ROW<id BIGINT, name VARCHAR, \`dateTime\` TIMESTAMP(3)>,
    bid ROW<auction BIGINT, bidder BIGINT, price BIGINT, url VARCHAR, \`dateTime\` TIMESTAMP(3)>,
    \`dateTime\` AS CASE WHEN event_type = 0 THEN person.\`dateTime\` ELSE bid.\`dateTime\` END,
    WATERMARK FOR \`dateTime\` AS \`dateTime\` - INTERVAL '4' SECOND)
    WITH ('connector' = 'nexmark', 'events.num' = '2000')`);
  tEnv.executeSql("CREATE VIEW bids AS SELECT bid.auction, bid.bidder, bid.price, bid.url, `dateTime` FROM t WHERE event_type = 2");
  return tEnv;
}

/** The ROW fields read of the table's source, by column name and field name. */
function nestedReads(tEnv: StreamTableEnvironment, sql: string): Record<string, string[]> {
  const [root] = pruneColumns([tEnv.sqlQuery(sql).node()]);
  const projections = [...sourceNestedProjections([root!]).values()];
  expect(projections).toHaveLength(1);
  const names = ["event_type", "person", "bid"];
  const fields: Record<string, string[]> = { person: ["id", "name", "dateTime"], bid: ["auction", "bidder", "price", "url", "dateTime"] };
  return Object.fromEntries([...projections[0]!].map(([c, read]) => [names[c]!, read.map((f) => fields[names[c]!]![f]!)]));
}

describe("nested projection push-down: the fields of a source's ROW columns that a job reads", () => {
  it("follows field reads through views, filters, the computed rowtime and the watermark", () => {
    const tEnv = session();
    expect(nestedReads(tEnv, "SELECT auction, price FROM bids WHERE MOD(auction, 123) = 0")).toEqual({ person: ["dateTime"], bid: ["auction", "price", "dateTime"] });
    expect(nestedReads(tEnv, "SELECT person.name FROM t WHERE person.id > 1000")).toEqual({ person: ["id", "name", "dateTime"], bid: ["dateTime"] });
  });

  it("a ROW value read as a whole (selected, or read by a stateful operator) reads all its fields", () => {
    const tEnv = session();
    expect(nestedReads(tEnv, "SELECT bid FROM t WHERE event_type = 2")).toEqual({ person: ["dateTime"] });
    expect(nestedReads(tEnv, "SELECT bid.price, COUNT(*) FROM t GROUP BY bid.price")).toEqual({ person: ["dateTime"], bid: ["price", "dateTime"] });
    expect(nestedReads(tEnv, "SELECT MAX(t.bid.price), t.person FROM t GROUP BY t.person")).toEqual({ bid: ["price", "dateTime"] });
  });

  it("the source leaves the fields nothing reads NULL: the results are those of the whole rows", async () => {
    const tEnv = session();
    const collect = async (sql: string) => {
      const out: string[] = [];
      for await (const r of tEnv.executeSql(sql).collect()) out.push(Row.toString(r));
      return out.sort();
    };
    const whole = await collect("SELECT bid FROM t WHERE event_type = 2 AND MOD(bid.auction, 7) = 0");
    const fields = await collect("SELECT ROW(bid.auction, bid.bidder, bid.price, bid.url, bid.`dateTime`) FROM t WHERE event_type = 2 AND MOD(bid.auction, 7) = 0");
    const some = await collect("SELECT auction, price FROM bids WHERE MOD(auction, 7) = 0");
    expect(whole.length).toBeGreaterThan(10);
    expect(fields).toEqual(whole);
    const pairs = whole.map((r) => {
      const [, auction, , price] = /(\d+), (\d+), (\d+)/.exec(r)!;
      return `+I[${auction}, ${price}]`;
    });
    expect(some).toEqual(pairs.sort());
  });
});
