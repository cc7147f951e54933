/**
 * User-defined functions (registered by the harness): a scalar function in
 * a projection and a grouping key, a table function joined with LATERAL
 * TABLE (inner and LEFT … ON TRUE). DuckDB's texts compute the same with a
 * macro and with string_split_regex/unnest.
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
];
