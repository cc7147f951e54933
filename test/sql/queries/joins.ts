/**
 * Regular joins with retraction (inner, left, right, full, on updating
 * inputs), IN / NOT IN / EXISTS / NOT EXISTS subqueries, interval joins.
 */
import type { HarnessQuery } from "../../support/sql-harness.ts";

/** The latest region of each user (deduplication keep-last: an updating input). */
const LATEST_REGION = "SELECT name, region FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY name ORDER BY ts DESC) AS rn FROM users) WHERE rn = 1";

export const JOINS: readonly HarnessQuery[] = [
  { name: "join-inner", flink: "SELECT c.user, c.url, u.region FROM clicks c JOIN users u ON c.user = u.name WHERE c.n > 8" },
  { name: "join-left", flink: "SELECT u.name, u.region, o.order_id, o.amount FROM users u LEFT JOIN orders o ON u.name = o.user AND o.qty > 3" },
  { name: "join-right", flink: "SELECT o.order_id, o.user, u.region FROM users u RIGHT JOIN orders o ON u.name = o.user AND u.region = 'EU'" },
  { name: "join-full", flink: "SELECT u.name, u.region, o.user, o.qty FROM users u FULL JOIN orders o ON u.name = o.user AND o.qty < CHAR_LENGTH(u.region)" },
  {
    name: "join-aggregates",
    flink: "SELECT a.user, a.cnt, b.total FROM (SELECT user, COUNT(*) AS cnt FROM clicks GROUP BY user) a JOIN (SELECT user, SUM(amount) AS total FROM orders GROUP BY user) b ON a.user = b.user",
  },
  {
    name: "join-left-aggregate",
    flink: "SELECT u.name, c.cnt FROM (SELECT DISTINCT name FROM users) u LEFT JOIN (SELECT user, COUNT(*) AS cnt FROM clicks WHERE url = '/cart' GROUP BY user) c ON u.name = c.user",
  },
  { name: "join-latest-region", flink: `SELECT o.order_id, o.user, r.region FROM orders o JOIN (${LATEST_REGION}) r ON o.user = r.name` },
  {
    name: "join-full-aggregates",
    flink: "SELECT COALESCE(a.user, b.user) AS who, a.cnt, b.total FROM (SELECT user, COUNT(*) AS cnt FROM clicks WHERE n > 12 GROUP BY user) a FULL JOIN (SELECT user, SUM(qty) AS total FROM orders GROUP BY user) b ON a.user = b.user",
  },
  { name: "left-join-is-null", flink: "SELECT u.name, u.region FROM users u LEFT JOIN orders o ON u.name = o.user AND o.qty = 6 WHERE o.order_id IS NULL" },
  {
    name: "join-updating-non-equi",
    flink: "SELECT a.user, a.cnt, b.q FROM (SELECT user, COUNT(*) AS cnt FROM clicks GROUP BY user) a JOIN (SELECT user, SUM(qty) AS q FROM orders GROUP BY user) b ON a.user = b.user AND a.cnt > b.q / 4",
  },
  { name: "in-subquery", flink: "SELECT user, url FROM clicks WHERE user IN (SELECT name FROM users WHERE region = 'EU')" },
  {
    name: "not-in-subquery",
    flink: "SELECT order_id, user FROM orders WHERE user NOT IN (SELECT name FROM users WHERE region = 'US' AND name IS NOT NULL)",
  },
  // a NULL in the subquery empties the result (three-valued logic): rows come and go
  {
    name: "not-in-null-aware",
    flink: "SELECT order_id, user FROM orders WHERE user NOT IN (SELECT name FROM users WHERE region = 'APAC')",
  },
  { name: "exists", flink: "SELECT o.order_id, o.user FROM orders o WHERE EXISTS (SELECT * FROM clicks c WHERE c.user = o.user AND c.url = '/cart')" },
  { name: "not-exists", flink: "SELECT u.name, u.region FROM users u WHERE NOT EXISTS (SELECT * FROM orders o WHERE o.user = u.name AND o.qty > 4)" },
  {
    name: "interval-join",
    flink: "SELECT c.user, c.url, o.order_id, c.ts AS click_ts, o.ts AS order_ts FROM clicks c, orders o WHERE c.user = o.user AND o.ts BETWEEN c.ts - INTERVAL '1' SECOND AND c.ts + INTERVAL '2' SECOND",
  },
  {
    name: "interval-join-on",
    flink: "SELECT o.order_id, c.url FROM orders o JOIN clicks c ON o.user = c.user AND c.ts > o.ts - INTERVAL '3' SECOND AND c.ts <= o.ts",
  },
  {
    name: "interval-join-non-equi",
    flink: "SELECT c.user, c.n, o.qty FROM clicks c JOIN orders o ON c.user = o.user AND c.n > o.qty AND c.ts BETWEEN o.ts - INTERVAL '2' SECOND AND o.ts + INTERVAL '2' SECOND",
  },
  {
    name: "temporal-join",
    flink: "SELECT o.order_id, o.user, r.region FROM orders o JOIN user_versions FOR SYSTEM_TIME AS OF o.ts AS r ON o.user = r.name",
    // the version of the user at the order's time: its latest row up to then
    duckdb: "SELECT o.order_id, o.user, r.region FROM orders o JOIN users r ON o.user = r.name AND r.ts = (SELECT MAX(u.ts) FROM users u WHERE u.name = o.user AND u.ts <= o.ts)",
  },
  {
    name: "temporal-join-left",
    flink: "SELECT o.order_id, o.user, r.region FROM orders o LEFT JOIN user_versions FOR SYSTEM_TIME AS OF o.ts AS r ON o.user = r.name",
    duckdb: "SELECT o.order_id, o.user, r.region FROM orders o LEFT JOIN users r ON o.user = r.name AND r.ts = (SELECT MAX(u.ts) FROM users u WHERE u.name = o.user AND u.ts <= o.ts)",
  },
  {
    name: "temporal-join-versioned-view",
    flink: `WITH versions AS (${LATEST_REGION.replace("SELECT name, region FROM", "SELECT name, region, ts FROM")}) SELECT o.order_id, o.user, r.region FROM orders o LEFT JOIN versions FOR SYSTEM_TIME AS OF o.ts AS r ON o.user = r.name`,
    duckdb: "SELECT o.order_id, o.user, r.region FROM orders o LEFT JOIN users r ON o.user = r.name AND r.ts = (SELECT MAX(u.ts) FROM users u WHERE u.name = o.user AND u.ts <= o.ts)",
  },
  {
    name: "interval-join-left",
    flink: "SELECT o.order_id, o.user, c.url FROM orders o LEFT JOIN clicks c ON o.user = c.user AND c.ts BETWEEN o.ts - INTERVAL '1' SECOND AND o.ts + INTERVAL '1' SECOND",
  },
  // column pruning: the fields nothing reads are NULL in the rows joins keep (the retractions too)
  {
    name: "join-pruned-updating-side",
    flink: "SELECT o.order_id, r.name FROM orders o JOIN (SELECT name, region, ts FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY name ORDER BY ts DESC) AS rn FROM users) WHERE rn = 1) r ON o.user = r.name AND o.qty > 2",
  },
  {
    name: "join-pruned-aggregates-mixed",
    flink: "SELECT a.user, b.total FROM (SELECT user, COUNT(*) AS cnt, MAX(url) AS last_url FROM clicks GROUP BY user) a JOIN (SELECT user, SUM(amount) AS total, MAX(qty) AS q FROM orders GROUP BY user) b ON a.user = b.user AND a.cnt > 1",
  },
  {
    name: "join-pruned-star-above",
    flink: "SELECT * FROM (SELECT c.user, c.url, u.region FROM (SELECT user, url, n, ts FROM clicks WHERE n > 3) c JOIN (SELECT name, region, ts FROM users) u ON c.user = u.name)",
  },
  {
    name: "interval-join-full",
    flink: "SELECT u.name, u.region, o.order_id FROM users u FULL JOIN orders o ON u.name = o.user AND o.ts BETWEEN u.ts AND u.ts + INTERVAL '2' SECOND",
  },
];
