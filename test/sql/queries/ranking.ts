/**
 * Top-N (ROW_NUMBER with rn <= N; unique order keys, so the result is
 * deterministic), Top-N over an updating input, deduplication keep-first
 * and keep-last on the rowtime.
 */
import type { HarnessQuery } from "../../support/sql-harness.ts";

export const RANKING: readonly HarnessQuery[] = [
  { name: "top-n", flink: "SELECT user, url, n, ts FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY user ORDER BY n DESC, ts ASC) AS rn FROM clicks) WHERE rn <= 3" },
  { name: "top-n-with-rank", flink: "SELECT user, order_id, amount, rn FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY user ORDER BY amount DESC, order_id) AS rn FROM orders) WHERE rn <= 2" },
  { name: "top-n-global", flink: "SELECT order_id, qty, amount FROM (SELECT *, ROW_NUMBER() OVER (ORDER BY qty DESC, amount ASC, order_id) AS rn FROM orders) WHERE rn <= 5" },
  {
    name: "top-n-of-updates",
    flink: "SELECT user, cnt, rn FROM (SELECT user, cnt, ROW_NUMBER() OVER (ORDER BY cnt DESC, user) AS rn FROM (SELECT user, COUNT(*) AS cnt FROM clicks WHERE user IS NOT NULL GROUP BY user)) WHERE rn <= 3",
  },
  // ties share a rank: the result is deterministic without unique order keys
  { name: "top-n-rank", flink: "SELECT user, order_id, qty FROM (SELECT *, RANK() OVER (PARTITION BY user ORDER BY qty DESC) AS r FROM orders) WHERE r <= 2" },
  { name: "top-n-dense-rank", flink: "SELECT user, order_id, qty, r FROM (SELECT *, DENSE_RANK() OVER (PARTITION BY user ORDER BY qty ASC) AS r FROM orders) WHERE r <= 2" },
  { name: "top-n-range", flink: "SELECT user, url, ts, rn FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY user ORDER BY ts DESC) AS rn FROM clicks) WHERE rn > 1 AND rn <= 3" },
  {
    name: "top-n-last-of-updates",
    flink: "SELECT user, c FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY c ORDER BY user DESC) AS rn FROM (SELECT user, COUNT(*) AS c FROM orders WHERE user IS NOT NULL GROUP BY user)) WHERE rn = 1",
  },
  { name: "dedup-keep-first", flink: "SELECT user, url, n, ts FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY user ORDER BY ts ASC) AS rn FROM clicks) WHERE rn = 1" },
  { name: "dedup-keep-last", flink: "SELECT name, region, ts FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY name ORDER BY ts DESC) AS rn FROM users) WHERE rn = 1" },
  {
    name: "agg-of-dedup",
    flink: "SELECT region, COUNT(*) AS users FROM (SELECT name, region FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY name ORDER BY ts DESC) AS rn FROM users) WHERE rn = 1) GROUP BY region",
  },
];
