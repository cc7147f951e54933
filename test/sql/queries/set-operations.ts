/** UNION, INTERSECT and EXCEPT (distinct), and an aggregate over UNION ALL. */
import type { HarnessQuery } from "../../support/sql-harness.ts";

export const SET_OPERATIONS: readonly HarnessQuery[] = [
  { name: "union", flink: "SELECT user FROM clicks UNION SELECT name FROM users" },
  { name: "intersect", flink: "SELECT user FROM clicks INTERSECT SELECT user FROM orders" },
  { name: "except", flink: "SELECT name FROM users EXCEPT SELECT user FROM orders WHERE qty > 2" },
  { name: "intersect-all", flink: "SELECT user FROM clicks WHERE n > 5 INTERSECT ALL SELECT user FROM orders" },
  { name: "except-all", flink: "SELECT user FROM orders EXCEPT ALL SELECT user FROM clicks WHERE url = '/cart'" },
  { name: "union-all-agg", flink: "SELECT u, COUNT(*) AS c FROM (SELECT user AS u FROM clicks UNION ALL SELECT user FROM orders) GROUP BY u" },
];
