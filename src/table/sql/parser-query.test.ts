import { describe, expect, it } from "vitest";
import { selectList, sexpr } from "../../../test/support/sql-sexpr.ts";
import type { FromItem, Query, SelectBody } from "./ast.ts";
import { parseStatement } from "./parser.ts";

function query(sql: string): Query {
  const s = parseStatement(sql);
  if (s.kind !== "query") throw new Error(`not a query: ${s.kind}`);
  return s.query;
}
function select(sql: string): SelectBody {
  const q = query(sql);
  if (q.body.kind !== "select") throw new Error(`not a select: ${q.body.kind}`);
  return q.body;
}
/** A compact rendering of a FROM tree. */
function from(f: FromItem | undefined): string {
  if (f === undefined) return "-";
  const alias = "alias" in f && f.alias ? ` ${f.alias.value}` : "";
  switch (f.kind) {
    case "table":
      return f.name.map((n) => n.value).join(".") + (f.systemTime ? ` @${sexpr(f.systemTime)}` : "") + alias;
    case "subquery":
      return `(query)${alias}`;
    case "tableFunction":
      return `${f.lateral ? "LATERAL " : ""}TABLE(${sexpr(f.call)})${alias}`;
    case "join":
      return `[${from(f.left)} ${f.comma ? "," : f.joinType} ${from(f.right)}${f.on ? ` ON ${sexpr(f.on)}` : ""}${f.using ? ` USING ${f.using.map((u) => u.value)}` : ""}]`;
  }
}

describe("SELECT", () => {
  it("parses items with and without aliases, DISTINCT, WHERE, GROUP BY, HAVING", () => {
    const s = select("SELECT DISTINCT a, b AS bee, c cee, t.* FROM t WHERE a > 1 GROUP BY a, b HAVING COUNT(*) > 2");
    expect(s.distinct).toBe(true);
    expect(s.items.map((i) => `${sexpr(i.expr)}${i.alias ? ` AS ${i.alias.value}` : ""}`)).toEqual(["a", "b AS bee", "c AS cee", "t.*"]);
    expect(sexpr(s.where!)).toBe("(> a 1)");
    expect(s.groupBy!.map((g) => (g.kind === "expr" ? sexpr(g.expr) : g.kind))).toEqual(["a", "b"]);
    expect(sexpr(s.having!)).toBe("(> COUNT(*) 2)");
  });

  it("parses SELECT * and a SELECT without FROM", () => {
    expect(selectList(query("SELECT * FROM t"))).toEqual(["*"]);
    expect(select("SELECT 1 + 1").from).toBeUndefined();
  });

  it("parses GROUPING SETS, ROLLUP and CUBE", () => {
    const g = select("SELECT a FROM t GROUP BY GROUPING SETS ((a, b), (a), ()), ROLLUP (a, b), CUBE (c), ()").groupBy!;
    expect(g[0]).toMatchObject({ kind: "groupingSets" });
    expect(g[0]!.kind === "groupingSets" && g[0]!.sets.map((s) => s.map(sexpr))).toEqual([["a", "b"], ["a"], []]);
    expect(g[1]!.kind === "rollup" && g[1]!.exprs.map(sexpr)).toEqual(["a", "b"]);
    expect(g[2]!.kind === "cube" && g[2]!.exprs.map(sexpr)).toEqual(["c"]);
    expect(g[3]).toEqual({ kind: "groupingSets", sets: [[]] });
  });

  it("parses ORDER BY, LIMIT, OFFSET and FETCH", () => {
    const q = query("SELECT a FROM t ORDER BY a DESC, b NULLS FIRST LIMIT 10");
    expect(q.orderBy.map((o) => [sexpr(o.expr), o.descending, o.nulls])).toEqual([
      ["a", true, undefined],
      ["b", false, "FIRST"],
    ]);
    expect(sexpr(q.limit!)).toBe("10");
    const f = query("SELECT a FROM t ORDER BY a OFFSET 5 ROWS FETCH FIRST 3 ROWS ONLY");
    expect([sexpr(f.offset!), sexpr(f.limit!)]).toEqual(["5", "3"]);
  });

  it("parses WITH queries", () => {
    const q = query("WITH a AS (SELECT x FROM t), b (y) AS (SELECT x FROM a) SELECT y FROM b");
    expect(q.with.map((c) => c.name.value)).toEqual(["a", "b"]);
    expect(q.with[1]!.columns!.map((c) => c.value)).toEqual(["y"]);
    expect(from((q.body as SelectBody).from)).toBe("b");
  });

  it("parses set operations with INTERSECT binding tighter than UNION and EXCEPT", () => {
    const q = query("SELECT a FROM x UNION ALL SELECT a FROM y INTERSECT SELECT a FROM z EXCEPT SELECT a FROM w");
    const b = q.body;
    if (b.kind !== "setOperation") throw new Error("no set operation");
    expect([b.op, b.all]).toEqual(["EXCEPT", false]);
    const l = b.left;
    if (l.kind !== "setOperation") throw new Error("no set operation");
    expect([l.op, l.all, l.right.kind === "setOperation" && l.right.op]).toEqual(["UNION", true, "INTERSECT"]);
  });

  it("parses parenthesized queries with their own ORDER BY", () => {
    const q = query("(SELECT a FROM x ORDER BY a LIMIT 1) UNION (SELECT a FROM y)");
    expect(q.body.kind === "setOperation" && q.body.left.kind).toBe("query");
  });

  it("parses VALUES", () => {
    const q = query("VALUES (1, 'a'), (2, 'b')");
    expect(q.body.kind === "values" && q.body.rows.length).toBe(2);
    expect(from(select("SELECT * FROM (VALUES (1), (2)) AS v (x)").from)).toBe("(query) v");
  });
});

describe("FROM", () => {
  it.each([
    ["t", "t"],
    ["t AS a", "t a"],
    ["cat.db.t x", "cat.db.t x"],
    ["a JOIN b ON a.id = b.id", "[a INNER b ON (= a.id b.id)]"],
    ["a INNER JOIN b USING (id)", "[a INNER b USING id]"],
    ["a LEFT OUTER JOIN b ON TRUE RIGHT JOIN c ON x FULL JOIN d ON y", "[[[a LEFT b ON TRUE] RIGHT c ON x] FULL d ON y]"],
    ["a CROSS JOIN b", "[a CROSS b]"],
    ["a, b, c", "[[a , b] , c]"],
    ["(SELECT 1) s", "(query) s"],
    ["orders o JOIN rates FOR SYSTEM_TIME AS OF o.order_time AS r ON o.currency = r.currency", "[orders o INNER rates @o.order_time r ON (= o.currency r.currency)]"],
    ["t, LATERAL TABLE(split(s)) AS x(word)", "[t , LATERAL TABLE(split(s)) x]"],
    ["(a JOIN b ON x)", "[a INNER b ON x]"],
  ])("%s", (sql, want) => {
    expect(from(select(`SELECT * FROM ${sql}`).from)).toBe(want);
  });

  it("parses window TVFs with positional arguments and offsets", () => {
    const cases: [string, string][] = [
      ["TUMBLE(TABLE Bid, DESCRIPTOR(bidtime), INTERVAL '10' MINUTES)", "TUMBLE(TABLE Bid, DESCRIPTOR(bidtime), (INTERVAL '10' MINUTE))"],
      ["TUMBLE(TABLE Bid, DESCRIPTOR(bidtime), INTERVAL '10' MINUTE)", "TUMBLE(TABLE Bid, DESCRIPTOR(bidtime), (INTERVAL '10' MINUTE))"],
      ["TUMBLE(TABLE Bid, DESCRIPTOR(bidtime), INTERVAL '10' MINUTE, INTERVAL '1' MINUTE)", "TUMBLE(TABLE Bid, DESCRIPTOR(bidtime), (INTERVAL '10' MINUTE), (INTERVAL '1' MINUTE))"],
      ["HOP(TABLE Bid, DESCRIPTOR(bidtime), INTERVAL '5' MINUTE, INTERVAL '10' MINUTE)", "HOP(TABLE Bid, DESCRIPTOR(bidtime), (INTERVAL '5' MINUTE), (INTERVAL '10' MINUTE))"],
      ["CUMULATE(TABLE Bid, DESCRIPTOR(bidtime), INTERVAL '2' MINUTE, INTERVAL '10' MINUTE)", "CUMULATE(TABLE Bid, DESCRIPTOR(bidtime), (INTERVAL '2' MINUTE), (INTERVAL '10' MINUTE))"],
      ["SESSION(TABLE Bid PARTITION BY item, DESCRIPTOR(bidtime), INTERVAL '5' MINUTE)", "SESSION(TABLE Bid PARTITION BY item, DESCRIPTOR(bidtime), (INTERVAL '5' MINUTE))"],
      ["SESSION(TABLE Bid PARTITION BY (a, b), DESCRIPTOR(bidtime), INTERVAL '5' MINUTE)", "SESSION(TABLE Bid PARTITION BY a b, DESCRIPTOR(bidtime), (INTERVAL '5' MINUTE))"],
    ];
    for (const [call, want] of cases) {
      expect(from(select(`SELECT * FROM TABLE(${call})`).from)).toBe(`TABLE(${want})`);
    }
  });

  it("parses window TVFs with named arguments", () => {
    const s = select("SELECT * FROM TABLE(TUMBLE(DATA => TABLE Bid, TIMECOL => DESCRIPTOR(bidtime), SIZE => INTERVAL '10' MINUTES))");
    expect(from(s.from)).toBe("TABLE(TUMBLE(DATA=>TABLE Bid, TIMECOL=>DESCRIPTOR(bidtime), SIZE=>(INTERVAL '10' MINUTE)))");
  });
});

describe("nexmark query shapes", () => {
  it("q0: pass-through SELECT", () => {
    expect(selectList(query("SELECT auction, bidder, price, dateTime, extra FROM bid"))).toEqual(["auction", "bidder", "price", "dateTime", "extra"]);
  });

  it("q1: currency conversion", () => {
    expect(selectList(query("SELECT auction, bidder, 0.908 * price as price, dateTime, extra FROM bid"))).toContain("(* 0.908 price) AS price");
  });

  it("q2: selection", () => {
    expect(sexpr(select("SELECT auction, price FROM bid WHERE MOD(auction, 123) = 0").where!)).toBe("(= MOD(auction, 123) 0)");
  });

  it("q5: hot items over HOP windows, with a join of two window aggregates", () => {
    const sql = `
SELECT AuctionBids.auction, AuctionBids.num
 FROM (
   SELECT auction, count(*) AS num, window_start AS starttime, window_end AS endtime
     FROM TABLE(HOP(TABLE bid, DESCRIPTOR(dateTime), INTERVAL '2' SECOND, INTERVAL '10' SECOND))
     GROUP BY auction, window_start, window_end
 ) AS AuctionBids
 JOIN (
   SELECT max(CountBids.num) AS maxn, CountBids.starttime, CountBids.endtime
     FROM (
       SELECT count(*) AS num, window_start AS starttime, window_end AS endtime
         FROM TABLE(HOP(TABLE bid, DESCRIPTOR(dateTime), INTERVAL '2' SECOND, INTERVAL '10' SECOND))
         GROUP BY auction, window_start, window_end
     ) AS CountBids
   GROUP BY CountBids.starttime, CountBids.endtime
 ) AS MaxBids
 ON AuctionBids.starttime = MaxBids.starttime AND AuctionBids.endtime = MaxBids.endtime AND AuctionBids.num >= MaxBids.maxn`;
    const s = select(sql);
    expect(from(s.from)).toMatch(/^\[\(query\) AuctionBids INNER \(query\) MaxBids ON \(AND \(AND/);
    const left = s.from!.kind === "join" ? s.from!.left : undefined;
    const inner = left?.kind === "subquery" ? (left.query.body as SelectBody) : undefined;
    expect(from(inner?.from)).toBe("TABLE(HOP(TABLE bid, DESCRIPTOR(dateTime), (INTERVAL '2' SECOND), (INTERVAL '10' SECOND)))");
  });

  it("q7: highest bid per TUMBLE window", () => {
    const sql = `
SELECT B.auction, B.price, B.bidder, B.dateTime, B.extra
from bid B
JOIN (
  SELECT MAX(price) AS maxprice, window_end as dateTime
  FROM TABLE(TUMBLE(TABLE bid, DESCRIPTOR(dateTime), INTERVAL '10' SECOND))
  GROUP BY window_start, window_end
) B1
ON B.price = B1.maxprice
WHERE B.dateTime BETWEEN B1.dateTime  - INTERVAL '10' SECOND AND B1.dateTime`;
    const s = select(sql);
    expect(from(s.from)).toBe("[bid B INNER (query) B1 ON (= B.price B1.maxprice)]");
    expect(sexpr(s.where!)).toBe("(BETWEEN B.dateTime (- B1.dateTime (INTERVAL '10' SECOND)) B1.dateTime)");
  });

  it("window Top-N and deduplication shapes", () => {
    const s = select(`SELECT * FROM (
      SELECT *, ROW_NUMBER() OVER (PARTITION BY window_start, window_end ORDER BY price DESC) as rownum
      FROM (SELECT window_start, window_end, supplier_id, SUM(price) as price, COUNT(*) as cnt
            FROM TABLE(TUMBLE(TABLE Bid, DESCRIPTOR(bidtime), INTERVAL '10' MINUTE))
            GROUP BY window_start, window_end, supplier_id)
    ) WHERE rownum <= 3`);
    expect(sexpr(s.where!)).toBe("(<= rownum 3)");
  });

  it("a group aggregation with COUNT DISTINCT and FILTER", () => {
    expect(selectList(query("SELECT user, COUNT(DISTINCT url) FILTER (WHERE url LIKE '%.html') AS pages FROM clicks GROUP BY user"))).toEqual([
      "user",
      "COUNT(DISTINCT url) FILTER (LIKE url '%.html') AS pages",
    ]);
  });
});
