import { describe, expect, it } from "vitest";
import { StreamExecutionEnvironment } from "../../api/environment.ts";
import { Schema } from "../api/schema.ts";
import { StreamTableEnvironment } from "../api/table-environment.ts";

/** A session with `Bid(bidtime rowtime, price, item)`. */
function session(): StreamTableEnvironment {
  const env = StreamExecutionEnvironment.create({ parallelism: 1 });
  const tEnv = StreamTableEnvironment.create(env);
  tEnv.createTemporaryView(
    "Bid",
    env.fromCollection<object>([]),
    Schema.newBuilder().column("bidtime", "TIMESTAMP(3)").column("price", "DECIMAL(10, 2)").column("item", "STRING").watermark("bidtime", "bidtime - INTERVAL '1' SECOND").build(),
  );
  return tEnv;
}

/** The columns of `query` over `Bid`. */
function columns(query: string): string[] {
  return session()
    .sqlQuery(query)
    .getResolvedSchema()
    .columns.map((c) => c.name);
}

/** The Rank node's line of the plan of `query`. */
function rankLine(query: string): string {
  return session()
    .explainSql(query)
    .split("\n")
    .find((l) => l.includes("Rank("))!
    .trim();
}

describe("the rank column of a Top-N subquery stays where the select list writes it", () => {
  it("after every column of `*` (Flink's window Top-N page: SELECT *, ROW_NUMBER() … AS rownum)", () => {
    expect(columns("SELECT * FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY item ORDER BY price DESC) AS rownum FROM Bid) WHERE rownum <= 3")).toEqual([
      "bidtime",
      "price",
      "item",
      "rownum",
    ]);
    expect(
      columns(`SELECT * FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY window_start, window_end ORDER BY price DESC) AS rownum
        FROM TABLE(TUMBLE(TABLE Bid, DESCRIPTOR(bidtime), INTERVAL '10' MINUTES))) WHERE rownum <= 3`),
    ).toEqual(["bidtime", "price", "item", "window_start", "window_end", "window_time", "rownum"]);
  });

  it("before `*`, and between plain columns", () => {
    expect(columns("SELECT * FROM (SELECT ROW_NUMBER() OVER (PARTITION BY item ORDER BY price DESC) AS rn, * FROM Bid) WHERE rn <= 3")).toEqual(["rn", "bidtime", "price", "item"]);
    expect(columns("SELECT * FROM (SELECT item, ROW_NUMBER() OVER (PARTITION BY item ORDER BY price DESC) AS rn, price FROM Bid) WHERE rn <= 3")).toEqual(["item", "rn", "price"]);
  });
});

describe("a rank number nobody reads is not computed (Flink prunes it: the Top-N then emits rows entering and leaving, not rank updates)", () => {
  const topTwo = (select: string, where = "rn <= 2") => `SELECT ${select} FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY item ORDER BY price DESC) AS rn FROM Bid) WHERE ${where}`;

  it("not selected: no rank number", () => {
    expect(rankLine(topTwo("item, price"))).toContain("select=[bidtime, price, item, $rk0, $ro0])");
    expect(columns(topTwo("item, price"))).toEqual(["item", "price"]);
  });

  it("selected, by `*`, in an expression or in another conjunct: the rank number", () => {
    for (const q of [topTwo("item, rn"), topTwo("*"), topTwo("item, rn * 10 AS score"), topTwo("item", "rn <= 2 AND rn <> 1 + price")]) {
      expect(rankLine(q)).toContain(", rn])");
    }
  });
});
