/** OVER aggregations on the rowtime: ROWS and RANGE frames, bounded and unbounded. */
import type { HarnessQuery } from "../../support/sql-harness.ts";

export const OVER: readonly HarnessQuery[] = [
  { name: "over-rows", flink: "SELECT user, ts, n, SUM(n) OVER (PARTITION BY user ORDER BY ts ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) AS s3 FROM clicks" },
  {
    name: "over-range",
    flink:
      "SELECT user, ts, COUNT(*) OVER w AS c3, MAX(price) OVER w AS mp FROM clicks WINDOW w AS (PARTITION BY user ORDER BY ts RANGE BETWEEN INTERVAL '3' SECOND PRECEDING AND CURRENT ROW)",
  },
  {
    name: "over-unbounded",
    flink: "SELECT name, region, ts, COUNT(*) OVER (PARTITION BY name ORDER BY ts RANGE UNBOUNDED PRECEDING) AS c, MIN(region) OVER (PARTITION BY name ORDER BY ts RANGE UNBOUNDED PRECEDING) AS mr FROM users",
  },
  { name: "over-rows-global", flink: "SELECT order_id, ts, SUM(amount) OVER (ORDER BY ts ROWS BETWEEN 4 PRECEDING AND CURRENT ROW) AS s5 FROM orders" },
  // a click paired with several orders repeats its time: a RANGE frame (peers included) keeps the result deterministic
  {
    name: "over-of-interval-join",
    flink:
      "WITH paired AS (SELECT c.user, c.ts, o.qty FROM clicks c, orders o WHERE c.user = o.user AND o.ts BETWEEN c.ts - INTERVAL '1' SECOND AND c.ts) SELECT user, ts, qty, SUM(qty) OVER (PARTITION BY user ORDER BY ts RANGE BETWEEN INTERVAL '1' SECOND PRECEDING AND CURRENT ROW) AS s1 FROM paired",
  },
  {
    name: "over-avg",
    flink: "SELECT user, ts, AVG(n) OVER (PARTITION BY user ORDER BY ts ROWS BETWEEN 3 PRECEDING AND CURRENT ROW) AS a4 FROM clicks",
    // Flink's AVG of a BIGINT truncates
    duckdb: "SELECT user, ts, SUM(n) OVER w // COUNT(n) OVER w AS a4 FROM clicks WINDOW w AS (PARTITION BY user ORDER BY ts ROWS BETWEEN 3 PRECEDING AND CURRENT ROW)",
  },
];
