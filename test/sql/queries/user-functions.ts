/**
 * User-defined functions (registered by the harness): a scalar function in
 * a projection and a grouping key, a table function joined with LATERAL
 * TABLE (inner and LEFT … ON TRUE), an aggregate function over inserts, over
 * a changelog (retract) and in windows. DuckDB's texts compute the same with
 * a macro, string_split_regex/unnest and SUM of squares.
 */
import type { HarnessQuery } from "../../support/sql-harness.ts";

/** url_parts(url) of each click in DuckDB: the non-empty parts with their 1-based position. */
const PARTS = "SELECT c.*, p.part, p.pos FROM clicks c, LATERAL (SELECT * FROM (SELECT unnest(string_split_regex(c.url, '[/?=]')) AS part, generate_subscripts(string_split_regex(c.url, '[/?=]'), 1) AS pos) WHERE part <> '') p";

export const USER_FUNCTIONS: readonly HarnessQuery[] = [
  { name: "udf-scalar-group", flink: "SELECT user, url_depth(url) AS depth, COUNT(*) AS c, SUM(n) AS s FROM clicks GROUP BY user, url_depth(url)" },
  {
    name: "udtf-lateral",
    flink: "SELECT c.user, t.part, t.pos FROM clicks c, LATERAL TABLE(url_parts(c.url)) AS t(part, pos) WHERE c.n > 10",
    duckdb: `SELECT user, part, pos FROM (${PARTS}) WHERE n > 10`,
  },
  {
    name: "udtf-left-aggregate",
    flink: "SELECT part, COUNT(*) AS c, COUNT(DISTINCT user) AS users FROM clicks LEFT JOIN LATERAL TABLE(url_parts(url)) AS t(part, pos) ON TRUE GROUP BY part",
    duckdb:
      "SELECT part, COUNT(*) AS c, COUNT(DISTINCT user) AS users FROM clicks c LEFT JOIN LATERAL (SELECT * FROM (SELECT unnest(string_split_regex(c.url, '[/?=]')) AS part) WHERE part <> '') p ON TRUE GROUP BY part",
  },
  { name: "udaf-group", flink: "SELECT user, sum_sq(qty) AS sq, COUNT(*) AS c FROM orders GROUP BY user", duckdb: "SELECT user, SUM(qty * qty) AS sq, COUNT(*) AS c FROM orders GROUP BY user" },
  {
    name: "udaf-retract",
    flink: "SELECT tier, sum_sq(CAST(id AS INT)) AS sq FROM accounts GROUP BY tier",
    duckdb: "SELECT tier, SUM(CAST(id AS INT) * CAST(id AS INT)) AS sq FROM accounts GROUP BY tier",
  },
  {
    name: "udaf-window",
    flink: "SELECT window_start, window_end, sum_sq(qty) AS sq FROM TABLE(HOP(TABLE orders, DESCRIPTOR(ts), INTERVAL '2' SECOND, INTERVAL '6' SECOND)) GROUP BY window_start, window_end",
    duckdb:
      "SELECT window_start, window_end, SUM(qty * qty) AS sq FROM (SELECT t.*, epoch_ms(epoch_ms(tumble_start(ts, 2000)) - k * 2000) AS window_start, epoch_ms(epoch_ms(tumble_start(ts, 2000)) - k * 2000 + 6000) AS window_end FROM orders t, range(0, 3) AS r(k)) GROUP BY window_start, window_end",
  },
];
