import { describe, expect, it } from "vitest";
import { sexpr } from "../../../test/support/sql-sexpr.ts";
import type { SelectBody, StatementOf } from "./ast.ts";
import { parseStatement, parseStatements } from "./parser.ts";

/**
 * Statements in the shapes Flink's SQL documentation uses (window TVFs, window
 * aggregation, Top-N, deduplication, joins, OVER, set operations), written
 * here for this test.
 */
const STATEMENTS: [name: string, sql: string][] = [
  ["tumble", "SELECT * FROM TABLE(TUMBLE(TABLE Bid, DESCRIPTOR(bidtime), INTERVAL '10' MINUTES))"],
  ["tumble, named", "SELECT * FROM TABLE(TUMBLE(DATA => TABLE Bid, TIMECOL => DESCRIPTOR(bidtime), SIZE => INTERVAL '10' MINUTES))"],
  ["tumble aggregation", "SELECT window_start, window_end, SUM(price) AS total_price FROM TABLE(TUMBLE(TABLE Bid, DESCRIPTOR(bidtime), INTERVAL '10' MINUTES)) GROUP BY window_start, window_end"],
  ["hop", "SELECT window_start, window_end, SUM(price) AS total_price FROM TABLE(HOP(TABLE Bid, DESCRIPTOR(bidtime), INTERVAL '5' MINUTES, INTERVAL '10' MINUTES)) GROUP BY window_start, window_end"],
  ["cumulate", "SELECT window_start, window_end, SUM(price) AS total_price FROM TABLE(CUMULATE(TABLE Bid, DESCRIPTOR(bidtime), INTERVAL '2' MINUTES, INTERVAL '10' MINUTES)) GROUP BY window_start, window_end"],
  ["session", "SELECT window_start, window_end, item, SUM(price) AS total_price FROM TABLE(SESSION(TABLE Bid PARTITION BY item, DESCRIPTOR(bidtime), INTERVAL '5' MINUTES)) GROUP BY item, window_start, window_end"],
  ["tumble, named, with offset", "SELECT * FROM TABLE(TUMBLE(DATA => TABLE Bid, TIMECOL => DESCRIPTOR(bidtime), SIZE => INTERVAL '10' MINUTES, OFFSET => INTERVAL '1' MINUTES))"],
  ["hop, named, with offset", "SELECT * FROM TABLE(HOP(DATA => TABLE Bid, TIMECOL => DESCRIPTOR(bidtime), SLIDE => INTERVAL '5' MINUTES, SIZE => INTERVAL '10' MINUTES, OFFSET => INTERVAL '1' MINUTES))"],
  ["cumulate, named, with offset", "SELECT * FROM TABLE(CUMULATE(DATA => TABLE Bid, TIMECOL => DESCRIPTOR(bidtime), STEP => INTERVAL '2' MINUTES, SIZE => INTERVAL '10' MINUTES, OFFSET => INTERVAL '1' MINUTES))"],
  ["tumble with offset", "SELECT window_start, window_end, SUM(price) AS total_price FROM TABLE(TUMBLE(TABLE Bid, DESCRIPTOR(bidtime), INTERVAL '10' MINUTES, INTERVAL '1' MINUTES)) GROUP BY window_start, window_end"],
  ["window grouping sets", "SELECT window_start, window_end, supplier_id, SUM(price) AS total_price FROM TABLE(TUMBLE(TABLE Bid, DESCRIPTOR(bidtime), INTERVAL '10' MINUTES)) GROUP BY window_start, window_end, GROUPING SETS ((supplier_id), ())"],
  ["window rollup", "SELECT window_start, window_end, supplier_id, SUM(price) AS total_price FROM TABLE(TUMBLE(TABLE Bid, DESCRIPTOR(bidtime), INTERVAL '10' MINUTES)) GROUP BY window_start, window_end, ROLLUP (supplier_id)"],
  ["window cube", "SELECT window_start, window_end, item, supplier_id, SUM(price) AS total_price FROM TABLE(TUMBLE(TABLE Bid, DESCRIPTOR(bidtime), INTERVAL '10' MINUTES)) GROUP BY window_start, window_end, CUBE (supplier_id, item)"],
  ["window top-n", `SELECT * FROM (
      SELECT *, ROW_NUMBER() OVER (PARTITION BY window_start, window_end ORDER BY price DESC) as rownum
      FROM (
        SELECT window_start, window_end, supplier_id, SUM(price) as price, COUNT(*) as cnt
        FROM TABLE(TUMBLE(TABLE Bid, DESCRIPTOR(bidtime), INTERVAL '10' MINUTES))
        GROUP BY window_start, window_end, supplier_id
      )
    ) WHERE rownum <= 3`],
  ["window deduplication", `SELECT * FROM (
      SELECT bidtime, price, item, supplier_id, window_start, window_end,
        ROW_NUMBER() OVER (PARTITION BY window_start, window_end ORDER BY bidtime DESC) AS rownum
      FROM TABLE(TUMBLE(TABLE Bid, DESCRIPTOR(bidtime), INTERVAL '10' MINUTES))
    ) WHERE rownum <= 1`],
  ["window full join", `SELECT L.num as L_Num, L.id as L_Id, R.num as R_Num, R.id as R_Id,
        COALESCE(L.window_start, R.window_start) as window_start,
        COALESCE(L.window_end, R.window_end) as window_end
      FROM (SELECT * FROM TABLE(TUMBLE(TABLE LeftTable, DESCRIPTOR(row_time), INTERVAL '5' MINUTES))) L
      FULL JOIN (SELECT * FROM TABLE(TUMBLE(TABLE RightTable, DESCRIPTOR(row_time), INTERVAL '5' MINUTES))) R
      ON L.num = R.num AND L.window_start = R.window_start AND L.window_end = R.window_end`],
  ["window semi join", `SELECT * FROM (SELECT * FROM TABLE(TUMBLE(TABLE LeftTable, DESCRIPTOR(row_time), INTERVAL '5' MINUTES))) L
      WHERE L.num IN (SELECT num FROM (SELECT * FROM TABLE(TUMBLE(TABLE RightTable, DESCRIPTOR(row_time), INTERVAL '5' MINUTES))) R
        WHERE L.window_start = R.window_start AND L.window_end = R.window_end)`],
  ["window anti join", `SELECT * FROM (SELECT * FROM TABLE(TUMBLE(TABLE LeftTable, DESCRIPTOR(row_time), INTERVAL '5' MINUTES))) L
      WHERE NOT EXISTS (SELECT * FROM (SELECT * FROM TABLE(TUMBLE(TABLE RightTable, DESCRIPTOR(row_time), INTERVAL '5' MINUTES))) R
        WHERE L.num = R.num AND L.window_start = R.window_start AND L.window_end = R.window_end)`],
  ["group aggregation", "SELECT COUNT(*) FROM Orders"],
  ["distinct aggregation", "SELECT COUNT(DISTINCT order_id) FROM Orders"],
  ["grouping sets over values", `SELECT supplier_id, rating, COUNT(*) AS total
      FROM (VALUES ('supplier1', 'product1', 4), ('supplier1', 'product2', 3), ('supplier2', 'product3', 3))
      AS Products(supplier_id, product_id, rating)
      GROUP BY GROUPING SETS ((supplier_id, rating), (supplier_id), ())`],
  ["having", "SELECT SUM(amount) FROM Orders GROUP BY users HAVING SUM(amount) > 50"],
  ["over range", `SELECT order_id, order_time, amount,
      SUM(amount) OVER (PARTITION BY product ORDER BY order_time RANGE BETWEEN INTERVAL '1' HOUR PRECEDING AND CURRENT ROW) AS one_hour_prod_amount_sum
    FROM Orders`],
  ["over window clause", `SELECT order_id, order_time, amount,
      SUM(amount) OVER w AS sum_amount, AVG(amount) OVER w AS avg_amount
    FROM Orders
    WINDOW w AS (PARTITION BY product ORDER BY order_time RANGE BETWEEN INTERVAL '1' HOUR PRECEDING AND CURRENT ROW)`],
  ["over rows", "SELECT SUM(amount) OVER (PARTITION BY product ORDER BY order_time ROWS BETWEEN 5 PRECEDING AND CURRENT ROW) FROM Orders"],
  ["top-n", `SELECT product_id, category, product_name, sales FROM (
      SELECT *, ROW_NUMBER() OVER (PARTITION BY category ORDER BY sales DESC) AS row_num FROM ShopSales)
    WHERE row_num <= 5`],
  ["deduplication", `SELECT order_id, user, product, num FROM (
      SELECT *, ROW_NUMBER() OVER (PARTITION BY order_id ORDER BY proctime ASC) AS row_num FROM Orders)
    WHERE row_num = 1`],
  ["regular join", "SELECT * FROM Orders INNER JOIN Product ON Orders.productId = Product.id"],
  ["outer joins", "SELECT * FROM Orders LEFT JOIN Product ON Orders.product_id = Product.id RIGHT JOIN P2 ON TRUE FULL OUTER JOIN P3 ON TRUE"],
  ["interval join", `SELECT * FROM Orders o, Shipments s
    WHERE o.id = s.order_id AND o.order_time BETWEEN s.ship_time - INTERVAL '4' HOUR AND s.ship_time`],
  ["temporal join", `SELECT order_id, price, orders.currency, conversion_rate, order_time
    FROM orders
    LEFT JOIN currency_rates FOR SYSTEM_TIME AS OF orders.order_time
    ON orders.currency = currency_rates.currency`],
  ["union", "(SELECT s FROM t1) UNION (SELECT s FROM t2)"],
  ["union all", "(SELECT s FROM t1) UNION ALL (SELECT s FROM t2)"],
  ["intersect / except", "(SELECT s FROM t1) INTERSECT ALL (SELECT s FROM t2) EXCEPT (SELECT s FROM t3)"],
  ["in / exists", "SELECT user, amount FROM Orders WHERE product IN (SELECT product FROM NewProducts) AND EXISTS (SELECT product FROM NewProducts)"],
  ["order by limit", "SELECT * FROM Orders ORDER BY order_time, order_id LIMIT 3"],
  ["with", `WITH orders_with_total AS (SELECT order_id, price + tax AS total FROM Orders)
    SELECT order_id, SUM(total) FROM orders_with_total GROUP BY order_id`],
  ["create table with watermark and computed columns", `CREATE TABLE Orders (
      order_id BIGINT,
      price DECIMAL(32, 2),
      currency STRING,
      order_time TIMESTAMP(3),
      proc_time AS PROCTIME(),
      WATERMARK FOR order_time AS order_time - INTERVAL '5' SECOND
    ) WITH ('connector' = 'datagen', 'rows-per-second' = '10')`],
  ["create versioned table", `CREATE TABLE currency_rates (
      currency STRING,
      conversion_rate DECIMAL(32, 2),
      update_time TIMESTAMP(3) METADATA FROM 'values.source.timestamp' VIRTUAL,
      WATERMARK FOR update_time AS update_time,
      PRIMARY KEY(currency) NOT ENFORCED
    ) WITH ('connector' = 'kafka', 'value.format' = 'debezium-json')`],
  ["create view", "CREATE VIEW t1(s) AS VALUES ('c'), ('a'), ('b'), ('b'), ('c')"],
  ["set ttl", "SET 'table.exec.state.ttl' = '1 h'"],
  ["explain changelog", "EXPLAIN CHANGELOG_MODE SELECT user, COUNT(url) FROM clicks GROUP BY user"],
];

describe("Flink documentation statement shapes", () => {
  it.each(STATEMENTS)("%s", (_name, sql) => {
    expect(() => parseStatement(sql)).not.toThrow();
  });

  it("reads a METADATA column's key and VIRTUAL flag", () => {
    const sql = STATEMENTS.find(([name]) => name === "create versioned table")![1];
    const stmt = parseStatement(sql) as StatementOf<"createTable">;
    expect(stmt.columns[2]).toMatchObject({ kind: "metadata", name: { value: "update_time" }, key: "values.source.timestamp", virtual: true });
    const bare = parseStatement("CREATE TABLE t (`timestamp` TIMESTAMP_LTZ(3) METADATA, h MAP<STRING, BYTES> METADATA FROM 'headers') WITH ()") as StatementOf<"createTable">;
    expect(bare.columns.map((c) => (c.kind === "metadata" ? [c.key, c.virtual] : c.kind))).toEqual([[undefined, false], ["headers", false]]);
  });

  it("parses the issue's three statements as one script", () => {
    const s = parseStatements(`CREATE TABLE clicks (
        user STRING, url STRING, cTime TIMESTAMP(3),
        WATERMARK FOR cTime AS cTime - INTERVAL '1' SECOND
      ) WITH ('connector' = 'filesystem', 'path' = 'clicks/', 'format' = 'json');
      CREATE TABLE counts (user STRING, cnt BIGINT)
        WITH ('connector' = 'filesystem', 'path' = 'out/', 'format' = 'debezium-json');
      INSERT INTO counts SELECT user, COUNT(url) FROM clicks GROUP BY user;`);
    expect(s.map((x) => x.kind)).toEqual(["createTable", "createTable", "insert"]);
  });

  it("reads a reserved word before => as a parameter name, quoted or not", () => {
    for (const offset of ["OFFSET", "offset", "`OFFSET`"]) {
      const s = parseStatement(`SELECT * FROM TABLE(TUMBLE(TABLE Bid, DESCRIPTOR(bidtime), SIZE => INTERVAL '10' MINUTES, ${offset} => INTERVAL '1' MINUTES))`);
      const from = s.kind === "query" ? (s.query.body as SelectBody).from : undefined;
      const call = from?.kind === "tableFunction" ? from.call : undefined;
      expect(call?.args.map((a) => a.name?.value.toUpperCase())).toEqual([undefined, undefined, "SIZE", "OFFSET"]);
    }
    expect(() => parseStatement("SELECT OFFSET FROM t")).toThrow(/reserved word 'OFFSET'/);
  });

  it("resolves OVER w to the WINDOW clause's name", () => {
    const s = parseStatement(STATEMENTS.find(([name]) => name === "over window clause")![1]);
    const body = s.kind === "query" ? (s.query.body as SelectBody) : undefined;
    const sum = body!.items[3]!.expr;
    expect(sum.kind === "call" && sum.overWindow?.value).toBe("w");
    expect(body!.windows!.map((w) => [w.name.value, w.spec.partitionBy.map(sexpr), w.spec.frame?.unit])).toEqual([["w", ["product"], "RANGE"]]);
  });
});
