/**
 * The SQL twins of the DataStream queries q0, q1, q2, q5 and q7: each a
 * SELECT over the `bid` view of the `nexmark` connector (the stream of the
 * DataStream runs) whose rows are exactly the DataStream version's rows
 * (its `sqlRow` turns a twin's row into that version's output row), so that the
 * bench compares SQL and DataStream on the same work. Where the published
 * Nexmark SQL already does that (q1, q2) the twin is its SELECT; q0's twin
 * also selects `channel` and `url` (the DataStream q0 passes the whole bid on);
 * q5 and q7 are the window aggregate and the window Top-N with ties that the
 * DataStream versions compute, instead of the published joins.
 */
import type { NexmarkQueryName } from "./nexmark-query.ts";
import { nexmarkStreamSetup, type NexmarkSqlStream } from "./sql-queries.ts";

/** The twins' SELECTs by query (Weir plans each as written: no adaptation was needed). */
export const NEXMARK_SQL_TWINS = {
  q0: "SELECT auction, bidder, price, channel, url, `dateTime`, extra FROM bid",
  q1: "SELECT auction, bidder, 0.908 * price AS price, `dateTime`, extra FROM bid",
  q2: "SELECT auction, price FROM bid WHERE MOD(auction, 123) = 0",
  q5: `SELECT auction, num FROM (
  SELECT auction, num, RANK() OVER (PARTITION BY window_start, window_end ORDER BY num DESC) AS rk
  FROM (SELECT auction, COUNT(*) AS num, window_start, window_end
        FROM TABLE(HOP(TABLE bid, DESCRIPTOR(\`dateTime\`), INTERVAL '2' SECOND, INTERVAL '10' SECOND))
        GROUP BY auction, window_start, window_end))
WHERE rk <= 1`,
  q7: `SELECT auction, price, bidder, \`dateTime\`, extra FROM (
  SELECT auction, price, bidder, \`dateTime\`, extra,
         RANK() OVER (PARTITION BY window_start, window_end ORDER BY price DESC) AS rk
  FROM TABLE(TUMBLE(TABLE bid, DESCRIPTOR(\`dateTime\`), INTERVAL '10' SECOND)))
WHERE rk <= 1`,
} as const satisfies Partial<Record<NexmarkQueryName, string>>;

export type NexmarkTwinName = keyof typeof NEXMARK_SQL_TWINS;

/** The queries with a twin, in the bench's order. */
export const NEXMARK_TWIN_QUERIES = Object.keys(NEXMARK_SQL_TWINS) as NexmarkTwinName[];

/**
 * The published queries whose SELECT gives the twin's columns, so that their rows are digested
 * as the DataStream version's too (q0's published SELECT leaves out `channel` and `url`).
 */
export const PUBLISHED_SQL_WITH_TWIN_ROWS: readonly NexmarkTwinName[] = ["q1", "q2", "q5", "q7"];

/**
 * Whether `query` has a SQL twin.
 *
 * @example
 * ```ts
 * hasSqlTwin("q5"); // true
 * hasSqlTwin("q8"); // false
 * ```
 */
export function hasSqlTwin(query: string): query is NexmarkTwinName {
  return Object.hasOwn(NEXMARK_SQL_TWINS, query);
}

/**
 * The statements of `query`'s twin on `stream`: the stream's table and views, then the SELECT.
 *
 * @example
 * ```ts
 * const s = nexmarkTwinScript("q7", { events: 100_000, eventsPerSecond: 1_000, outOfOrdernessMs: 4_000 });
 * for (const statement of s.setup) tEnv.executeSql(statement);
 * tEnv.toChangelogStream(tEnv.sqlQuery(s.select));
 * ```
 */
export function nexmarkTwinScript(query: NexmarkTwinName, stream: Omit<NexmarkSqlStream, "dir">): { setup: string[]; select: string } {
  return { setup: nexmarkStreamSetup(stream), select: NEXMARK_SQL_TWINS[query] };
}
