/**
 * Queries over a changelog input (`accounts`: inserts, updates and deletes
 * read with fromChangelogStream): every operator retracts what its input
 * retracts (retractions of retractions downstream).
 */
import type { HarnessQuery } from "../../support/sql-harness.ts";

export const CHANGELOG_INPUT: readonly HarnessQuery[] = [
  { name: "changelog-filter", flink: "SELECT id, owner, balance FROM accounts WHERE tier IS NOT NULL AND balance > 10" },
  { name: "changelog-agg", flink: "SELECT owner, COUNT(*) AS c, SUM(balance) AS s, MIN(balance) AS lo, MAX(balance) AS hi, MAX(tier) AS t FROM accounts GROUP BY owner" },
  { name: "changelog-count-distinct", flink: "SELECT tier, COUNT(DISTINCT owner) AS owners, COUNT(*) AS c FROM accounts GROUP BY tier" },
  { name: "changelog-agg-of-agg", flink: "SELECT c, COUNT(*) AS owners FROM (SELECT owner, COUNT(*) AS c FROM accounts GROUP BY owner) GROUP BY c" },
  { name: "changelog-distinct", flink: "SELECT DISTINCT owner, tier FROM accounts" },
  { name: "changelog-join", flink: "SELECT a.id, a.owner, o.order_id FROM accounts a JOIN orders o ON a.owner = o.user WHERE o.qty > 4" },
  { name: "changelog-left-join", flink: "SELECT u.name, a.id, a.balance FROM (SELECT DISTINCT name FROM users) u LEFT JOIN accounts a ON u.name = a.owner" },
  { name: "changelog-full-join", flink: "SELECT a.id, a.tier, c.cnt FROM accounts a FULL JOIN (SELECT user, COUNT(*) AS cnt FROM clicks GROUP BY user) c ON a.owner = c.user" },
  { name: "changelog-top-n", flink: "SELECT owner, id, balance FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY owner ORDER BY balance DESC, id) AS rn FROM accounts) WHERE rn <= 2" },
  { name: "changelog-in", flink: "SELECT order_id, user FROM orders WHERE user IN (SELECT owner FROM accounts WHERE tier = 'gold')" },
  { name: "changelog-not-exists", flink: "SELECT name, region FROM users u WHERE NOT EXISTS (SELECT * FROM accounts a WHERE a.owner = u.name AND a.tier = 'silver')" },
  { name: "changelog-except", flink: "SELECT owner FROM accounts EXCEPT SELECT user FROM orders WHERE amount > 470" },
];
