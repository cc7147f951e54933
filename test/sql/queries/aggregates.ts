/**
 * Group aggregation with retraction: COUNT, COUNT DISTINCT, SUM, MIN, MAX,
 * AVG, FILTER, HAVING, global aggregates, GROUPING SETS/ROLLUP/CUBE,
 * aggregates of aggregates (retractions of retractions), DISTINCT.
 */
import type { HarnessQuery } from "../../support/sql-harness.ts";

export const AGGREGATES: readonly HarnessQuery[] = [
  { name: "agg-count", flink: "SELECT user, COUNT(url) AS cnt FROM clicks GROUP BY user" },
  {
    name: "agg-sum-min-max",
    flink: "SELECT user, COUNT(*) AS c, SUM(n) AS s, MIN(n) AS mi, MAX(n) AS ma, SUM(price) AS sp, MIN(price) AS mip, MAX(price) AS map, MIN(url) AS mu FROM clicks GROUP BY user",
  },
  {
    name: "agg-avg",
    flink: "SELECT user, AVG(n) AS an, AVG(price) AS ap FROM clicks GROUP BY user",
    // Flink's AVG of a BIGINT is a BIGINT (truncated); of a DECIMAL(10, 2) a DECIMAL(38, 6)
    duckdb: "SELECT user, SUM(n) // COUNT(n) AS an, ROUND(AVG(price), 6) AS ap FROM clicks GROUP BY user",
  },
  { name: "agg-count-distinct", flink: "SELECT user, COUNT(DISTINCT url) AS urls, COUNT(DISTINCT n) AS ns, COUNT(*) AS c FROM clicks GROUP BY user" },
  {
    name: "agg-filter",
    flink: "SELECT user, COUNT(*) FILTER (WHERE n > 5) AS big, SUM(price) FILTER (WHERE url = '/cart') AS cart, COUNT(DISTINCT url) FILTER (WHERE price > 100) AS dear FROM clicks GROUP BY user",
  },
  // groups enter and leave the result
  { name: "agg-having", flink: "SELECT user, COUNT(*) AS c, SUM(n) AS s FROM clicks GROUP BY user HAVING MOD(COUNT(*), 3) = 0 OR SUM(n) < 0" },
  { name: "agg-global", flink: "SELECT COUNT(*) AS c, COUNT(user) AS cu, SUM(n) AS s, MAX(price) AS mp, MIN(ts) AS first_ts, MAX(ts) AS last_ts FROM clicks" },
  { name: "agg-group-by-expression", flink: "SELECT MOD(n, 3) AS m, url, COUNT(*) AS c, MAX(price) AS mp FROM clicks GROUP BY MOD(n, 3), url" },
  { name: "agg-exact-sums", flink: "SELECT user, SUM(amount) AS total, SUM(order_id) AS ids, SUM(qty) AS q, COUNT(DISTINCT order_id) AS orders FROM orders GROUP BY user" },
  { name: "agg-grouping-sets", flink: "SELECT user, url, COUNT(*) AS c FROM clicks GROUP BY GROUPING SETS ((user, url), (user), ())" },
  { name: "agg-rollup", flink: "SELECT region, name, COUNT(*) AS c FROM users GROUP BY ROLLUP (region, name)" },
  { name: "agg-cube", flink: "SELECT user, url, SUM(n) AS s FROM clicks GROUP BY CUBE (user, url)" },
  // retractions of retractions: the inner counts update, the outer groups move
  { name: "agg-of-agg", flink: "SELECT cnt, COUNT(*) AS users FROM (SELECT user, COUNT(*) AS cnt FROM clicks GROUP BY user) GROUP BY cnt" },
  { name: "agg-min-max-of-updates", flink: "SELECT MAX(total) AS hi, MIN(total) AS lo, SUM(total) AS s, COUNT(*) AS c FROM (SELECT user, SUM(n) AS total FROM clicks GROUP BY user)" },
  { name: "agg-sum-distinct-having", flink: "SELECT url, SUM(DISTINCT n) AS sd, COUNT(DISTINCT user) AS users FROM clicks GROUP BY url HAVING COUNT(DISTINCT user) > 2" },
  {
    name: "agg-with-cte",
    flink: "WITH per_user AS (SELECT user, COUNT(*) AS c, SUM(price) AS p FROM clicks GROUP BY user), big AS (SELECT * FROM per_user WHERE c > 40) SELECT CAST(p AS DECIMAL(20, 1)) AS rounded, c * 2 AS c2, UPPER(user) AS u FROM big",
  },
  { name: "union-all-of-aggregates", flink: "SELECT user, COUNT(*) AS c FROM clicks GROUP BY user UNION ALL SELECT user, COUNT(*) FROM orders GROUP BY user" },
  { name: "distinct", flink: "SELECT DISTINCT user, url FROM clicks" },
  { name: "distinct-of-agg", flink: "SELECT DISTINCT c FROM (SELECT url, COUNT(*) AS c FROM clicks GROUP BY url)" },
];
