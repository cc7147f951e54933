/** Stateless queries: projections, filters, CASE, CAST, scalar functions, UNION ALL, VALUES. */
import type { HarnessQuery } from "../../support/sql-harness.ts";

export const STATELESS: readonly HarnessQuery[] = [
  { name: "projection", flink: "SELECT user, url, n * 2 AS n2, price, ts FROM clicks" },
  { name: "filter", flink: "SELECT user, url, n FROM clicks WHERE n > 3 AND url LIKE '/prod%'" },
  {
    name: "case-coalesce",
    flink: "SELECT user, CASE WHEN n < 0 THEN 'neg' WHEN n < 10 THEN 'small' ELSE 'big' END AS size, COALESCE(url, 'none') AS url FROM clicks",
  },
  {
    name: "cast",
    flink: "SELECT CAST(n AS STRING) AS s, CAST(price AS BIGINT) AS whole, CAST(price * 3 AS DECIMAL(12, 1)) AS p3, CAST(CHAR_LENGTH(url) AS DECIMAL(5, 2)) AS len FROM clicks",
    // Flink's CAST of a DECIMAL to an integer truncates; DuckDB's rounds
    duckdb: "SELECT CAST(n AS STRING) AS s, CAST(trunc(price) AS BIGINT) AS whole, CAST(price * 3 AS DECIMAL(12, 1)) AS p3, CAST(CHAR_LENGTH(url) AS DECIMAL(5, 2)) AS len FROM clicks",
  },
  {
    name: "string-functions",
    flink: "SELECT UPPER(user), LOWER(url), CHAR_LENGTH(url), SUBSTRING(url, 2, 4), CONCAT(user, '@', url), REPLACE(url, '/', '_'), POSITION('id' IN url), TRIM(CONCAT('  ', user, ' ')) FROM clicks",
    // Flink's CONCAT is NULL when an argument is; DuckDB's skips NULLs (its || does not)
    duckdb: "SELECT UPPER(user), LOWER(url), CHAR_LENGTH(url), SUBSTRING(url, 2, 4), user || '@' || url, REPLACE(url, '/', '_'), POSITION('id' IN url), TRIM('  ' || user || ' ') FROM clicks",
  },
  { name: "math-functions", flink: "SELECT n, ABS(n), MOD(n, 7), price, ROUND(price, 1), FLOOR(price), CEIL(price), ABS(price - 500) FROM clicks" },
  {
    name: "temporal-regex-functions",
    flink:
      "SELECT ts, EXTRACT(SECOND FROM ts) AS sec, FLOOR(ts TO MINUTE) AS minute, DATE_FORMAT(ts, 'yyyy-MM-dd HH:mm:ss') AS text, ts + INTERVAL '90' SECOND AS later, REGEXP_EXTRACT(url, 'id=(\\d+)', 1) AS id, SPLIT_INDEX(url, '=', 1) AS after FROM clicks",
    // DuckDB's regexp_extract and split_part give '' where Flink's functions give NULL
    duckdb:
      "SELECT ts, EXTRACT(SECOND FROM ts) AS sec, date_trunc('minute', ts) AS minute, strftime(ts, '%Y-%m-%d %H:%M:%S') AS text, ts + INTERVAL '90' SECOND AS later, NULLIF(regexp_extract(url, 'id=(\\d+)', 1), '') AS id, NULLIF(split_part(url, '=', 2), '') AS after FROM clicks",
  },
  {
    name: "timestampdiff",
    flink: "SELECT ts, TIMESTAMPDIFF(SECOND, TIMESTAMP '2026-01-01 00:00:00', ts) AS secs, TIMESTAMPDIFF(MINUTE, ts, TIMESTAMP '2026-01-01 01:00:00') AS mins FROM clicks",
    // TIMESTAMPDIFF counts whole units elapsed (truncated)
    duckdb: "SELECT ts, (epoch_ms(ts) - epoch_ms(TIMESTAMP '2026-01-01 00:00:00')) // 1000 AS secs, (epoch_ms(TIMESTAMP '2026-01-01 01:00:00') - epoch_ms(ts)) // 60000 AS mins FROM clicks",
  },
  { name: "nullif-if-is-null", flink: "SELECT user, NULLIF(url, '/home'), IF(n > 5, 'hi', 'lo'), url IS NULL, price IS NOT NULL FROM clicks" },
  { name: "between-in-list", flink: "SELECT user, n, price FROM clicks WHERE n BETWEEN 2 AND 9 AND user IN ('Mary', 'Bob', 'Zed') OR price < 50" },
  { name: "exact-arithmetic", flink: "SELECT order_id, order_id + 1, amount * qty AS total, amount + 0.5, amount / 4 FROM orders",
    // DuckDB divides DECIMALs as DOUBLEs (exact here: a quarter of a cent amount)
  },
  { name: "union-all", flink: "SELECT user AS who, ts FROM clicks WHERE n > 10 UNION ALL SELECT name, ts FROM users UNION ALL SELECT user, ts FROM orders WHERE qty > 4" },
  { name: "values-union", flink: "SELECT user, n FROM clicks WHERE n > 15 UNION ALL VALUES ('Zoe', CAST(1 AS BIGINT)), ('Zed', CAST(2 AS BIGINT))" },
];
