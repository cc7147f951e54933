/**
 * The Nexmark SQL queries (bench/jobs/nexmark/sql-queries.ts) as one test
 * job: the nexmark project's DDL, views and queries on a bounded `nexmark`
 * table, each query's changelog into a collect sink; and DuckDB's batch
 * result of each query over the same events, written into `person`,
 * `auction` and `bid` tables, with window semantics written out in DuckDB SQL.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { NEXMARK_SQL_QUERIES, NEXMARK_SQL_REFUSED, nexmarkSideInput, nexmarkSqlScript, type NexmarkSqlQueryName, type NexmarkSqlStream } from "../../bench/jobs/nexmark/sql-queries.ts";
import { collectSink } from "../../src/connectors/builtin/collect-sink.ts";
import { NexmarkGenerator } from "../../src/connectors/nexmark/nexmark-generator.ts";
import type { StreamExecutionEnvironment } from "../../src/api/environment.ts";
import { StreamTableEnvironment } from "../../src/table/api/table-environment.ts";
import type { Row } from "../../src/table/data/row.ts";
import { formatTimestamp } from "../../src/table/types/temporal.ts";
import type { SqlValue } from "../../src/table/types/sql-value.ts";
import { openOracle, type OracleTable } from "./duckdb-oracle.ts";
import type { HarnessRun } from "./sql-harness.ts";

/**
 * The stream of the test: 4 000 events, 80 per second of event time (50 s:
 * five 10 s tumbling windows, many sessions), in order within each reader
 * unless `outOfOrdernessMs` is given (a lag lets two bids of one bidder on one
 * auction share a time, and q18's top-1 by time then depends on arrival order).
 */
export function nexmarkTestStream(dir: string, outOfOrdernessMs = 0): NexmarkSqlStream {
  return { events: 4_000, eventsPerSecond: 80, dir, ...(outOfOrdernessMs > 0 ? { outOfOrdernessMs } : {}) };
}

/** Writes q13's side input under `dir`. */
export function writeSideInput(dir: string): void {
  mkdirSync(join(dir, "data"), { recursive: true });
  writeFileSync(join(dir, "data", "side_input.txt"), nexmarkSideInput());
}

/**
 * Plans every query on `env` (one table environment: one `nexmark` source
 * shared by all), each query's changelog into the collect sink named after it
 * (parallelism 1). Returns the planning errors by query.
 */
export function addNexmarkQueries(env: StreamExecutionEnvironment, stream: NexmarkSqlStream, queries: readonly NexmarkSqlQueryName[] = NEXMARK_SQL_QUERIES): Map<string, string> {
  const tEnv = StreamTableEnvironment.create(env);
  const done = new Set<string>();
  const errors = new Map<string, string>();
  for (const q of queries) {
    const script = nexmarkSqlScript(q, stream);
    try {
      for (const s of script.setup) {
        if (done.has(s)) continue;
        done.add(s);
        tEnv.executeSql(s);
      }
      tEnv.toChangelogStream(tEnv.sqlQuery(script.select)).sinkTo(collectSink<Row>(q)).uid(`sink-${q}`).name(`sink-${q}`).setParallelism(1);
    } catch (e) {
      errors.set(q, (e as Error).message);
    }
  }
  return errors;
}

/**
 * Runs the queries on `env` (its parallelism, exactly-once checkpoints every
 * second, in-memory storage big enough for the collected rows). In a worker
 * thread of a job module the promise never settles.
 */
export async function runNexmarkQueries(env: StreamExecutionEnvironment, stream: NexmarkSqlStream, queries: readonly NexmarkSqlQueryName[] = NEXMARK_SQL_QUERIES): Promise<HarnessRun> {
  env.enableCheckpointing(1_000, "exactly-once");
  env.getCheckpointConfig().setCheckpointStorage({ type: "jobmanager", maxStateSize: 2 ** 30 });
  const planErrors = addNexmarkQueries(env, stream, queries);
  const result = await env.execute("nexmark-sql-queries");
  const changelogs = new Map<string, Row[]>();
  for (const q of queries) if (!planErrors.has(q)) changelogs.set(q, result.getCollected<Row>(q));
  return { restarts: result.restarts, changelogs, planErrors };
}

const ts = (ms: number): string => formatTimestamp(ms, 3);

/** The events of the stream as DuckDB tables `person`, `auction`, `bid` (the views' columns) and q13's `side_input`. */
export function nexmarkOracleTables(stream: NexmarkSqlStream): OracleTable[] {
  const g = new NexmarkGenerator({ events: stream.events, eventsPerSecond: stream.eventsPerSecond, maxOutOfOrdernessMs: stream.outOfOrdernessMs ?? 0 });
  const person: SqlValue[][] = [];
  const auction: SqlValue[][] = [];
  const bid: SqlValue[][] = [];
  for (let n = 0; n < stream.events; n++) {
    const e = g.event(n);
    if (e.type === 0) {
      const p = e.person;
      person.push([BigInt(p.id), p.name, p.emailAddress, p.creditCard, p.city, p.state, ts(p.dateTime), p.extra]);
    } else if (e.type === 1) {
      const a = e.auction;
      auction.push([BigInt(a.id), a.itemName, a.description, BigInt(a.initialBid), BigInt(a.reserve), ts(a.dateTime), ts(a.expires), BigInt(a.seller), BigInt(a.category), a.extra]);
    } else {
      const b = e.bid;
      bid.push([BigInt(b.auction), BigInt(b.bidder), BigInt(b.price), b.channel, b.url, ts(b.dateTime), b.extra]);
    }
  }
  return [
    { name: "person", columns: `id BIGINT, name VARCHAR, emailAddress VARCHAR, creditCard VARCHAR, city VARCHAR, state VARCHAR, "dateTime" TIMESTAMP, extra VARCHAR`, rows: person },
    {
      name: "auction",
      columns: `id BIGINT, itemName VARCHAR, description VARCHAR, initialBid BIGINT, reserve BIGINT, "dateTime" TIMESTAMP, expires TIMESTAMP, seller BIGINT, category BIGINT, extra VARCHAR`,
      rows: auction,
    },
    { name: "bid", columns: `auction BIGINT, bidder BIGINT, price BIGINT, channel VARCHAR, url VARCHAR, "dateTime" TIMESTAMP, extra VARCHAR`, rows: bid },
  ];
}

/** q13's side input in DuckDB (the lines `i,i` of `nexmarkSideInput`). */
const DUCKDB_SETUP = [`CREATE TABLE side_input AS SELECT i AS "key", CAST(i AS VARCHAR) AS "value" FROM range(10000) t(i)`];

/** Epoch ms of a TIMESTAMP column in DuckDB. */
const ms = (column: string) => `epoch_ms(${column})`;
/** Flink's AVG of a BIGINT: a BIGINT, the quotient truncated. */
const avgBigint = (column: string) => `CAST(trunc(SUM(${column}) / COUNT(${column})) AS BIGINT)`;
/** Flink's SPLIT_INDEX(s, sep, i): the i-th (0-based) part, NULL beyond the last. */
const splitIndex = (s: string, sep: string, i: number) => `CASE WHEN len(string_split(${s}, '${sep}')) > ${i} THEN string_split(${s}, '${sep}')[${i + 1}] END`;
/** Flink's REGEXP_EXTRACT: NULL when the pattern does not match (DuckDB's gives ''). */
const regexpExtract = (s: string, p: string, g: number) => `CASE WHEN regexp_matches(${s}, '${p}') THEN regexp_extract(${s}, '${p}', ${g}) END`;
const day = `strftime("dateTime", '%Y-%m-%d')`;
const rank = (cond: string) => `FILTER (WHERE ${cond})`;
const RANKS = ["price < 10000", "price >= 10000 and price < 1000000", "price >= 1000000"];

/** The same queries in DuckDB's SQL, with the windows written out (tumbling and hopping windows by the floor of epoch ms). */
export const NEXMARK_DUCKDB: Readonly<Partial<Record<NexmarkSqlQueryName, string>>> = {
  q0: `SELECT auction, bidder, price, "dateTime", extra FROM bid`,
  q1: `SELECT auction, bidder, 0.908 * price AS price, "dateTime", extra FROM bid`,
  q2: `SELECT auction, price FROM bid WHERE auction % 123 = 0`,
  q3: `SELECT P.name, P.city, P.state, A.id FROM auction AS A INNER JOIN person AS P on A.seller = P.id
       WHERE A.category = 10 and (P.state = 'OR' OR P.state = 'ID' OR P.state = 'CA')`,
  q4: `SELECT Q.category, ${avgBigint("Q.final")} FROM (
         SELECT MAX(B.price) AS final, A.category FROM auction A, bid B
         WHERE A.id = B.auction AND B."dateTime" BETWEEN A."dateTime" AND A.expires GROUP BY A.id, A.category) Q
       GROUP BY Q.category`,
  q5: `WITH w AS (SELECT auction, unnest(generate_series((${ms(`"dateTime"`)} // 2000) * 2000 - 8000, (${ms(`"dateTime"`)} // 2000) * 2000, 2000)) AS ws FROM bid),
       c AS (SELECT auction, ws, count(*) AS num FROM w GROUP BY auction, ws),
       m AS (SELECT ws, max(num) AS maxn FROM c GROUP BY ws)
       SELECT c.auction, c.num FROM c JOIN m ON c.ws = m.ws AND c.num >= m.maxn`,
  q7: `SELECT B.auction, B.price, B.bidder, B."dateTime", B.extra FROM bid B
       JOIN (SELECT MAX(price) AS maxprice, epoch_ms((${ms(`"dateTime"`)} // 10000 + 1) * 10000) AS "dateTime" FROM bid GROUP BY ${ms(`"dateTime"`)} // 10000) B1
       ON B.price = B1.maxprice WHERE B."dateTime" BETWEEN B1."dateTime" - INTERVAL 10 SECOND AND B1."dateTime"`,
  q8: `WITH P AS (SELECT DISTINCT id, name, (${ms(`"dateTime"`)} // 10000) * 10000 AS ws FROM person),
       A AS (SELECT DISTINCT seller, (${ms(`"dateTime"`)} // 10000) * 10000 AS ws FROM auction)
       SELECT P.id, P.name, epoch_ms(P.ws) FROM P JOIN A ON P.id = A.seller AND P.ws = A.ws`,
  q9: `SELECT id, itemName, description, initialBid, reserve, "dateTime", expires, seller, category, extra, auction, bidder, price, bid_dateTime, bid_extra
       FROM (SELECT A.*, B.auction, B.bidder, B.price, B."dateTime" AS bid_dateTime, B.extra AS bid_extra,
               ROW_NUMBER() OVER (PARTITION BY A.id ORDER BY B.price DESC, B."dateTime" ASC) AS rownum
             FROM auction A, bid B WHERE A.id = B.auction AND B."dateTime" BETWEEN A."dateTime" AND A.expires)
       WHERE rownum <= 1`,
  q10: `SELECT auction, bidder, price, "dateTime", extra, ${day}, strftime("dateTime", '%H:%M') FROM bid`,
  q11: `WITH o AS (SELECT bidder, ${ms(`"dateTime"`)} AS t,
                  CASE WHEN ${ms(`"dateTime"`)} - lag(${ms(`"dateTime"`)}) OVER (PARTITION BY bidder ORDER BY "dateTime") <= 10000 THEN 0 ELSE 1 END AS new FROM bid),
        s AS (SELECT bidder, t, sum(new) OVER (PARTITION BY bidder ORDER BY t ROWS UNBOUNDED PRECEDING) AS sid FROM o)
        SELECT bidder, count(*), epoch_ms(min(t)), epoch_ms(max(t) + 10000) FROM s GROUP BY bidder, sid`,
  q13: `SELECT B.auction, B.bidder, B.price, B."dateTime", S."value" FROM bid B JOIN side_input S ON B.auction % 10000 = S."key"`,
  q14: `SELECT auction, bidder, 0.908 * price AS price,
          CASE WHEN hour("dateTime") >= 8 AND hour("dateTime") <= 18 THEN 'dayTime'
               WHEN hour("dateTime") <= 6 OR hour("dateTime") >= 20 THEN 'nightTime' ELSE 'otherTime' END AS bidTimeType,
          "dateTime", extra, length(extra) - length(replace(extra, 'c', '')) AS c_counts
        FROM bid WHERE 0.908 * price > 1000000 AND 0.908 * price < 50000000`,
  q15: `SELECT ${day} AS "day", count(*), ${RANKS.map((r) => `count(*) ${rank(r)}`).join(", ")},
          count(distinct bidder), ${RANKS.map((r) => `count(distinct bidder) ${rank(r)}`).join(", ")},
          count(distinct auction), ${RANKS.map((r) => `count(distinct auction) ${rank(r)}`).join(", ")}
        FROM bid GROUP BY ${day}`,
  q16: `SELECT channel, ${day} AS "day", max(strftime("dateTime", '%H:%M')), count(*), ${RANKS.map((r) => `count(*) ${rank(r)}`).join(", ")},
          count(distinct bidder), ${RANKS.map((r) => `count(distinct bidder) ${rank(r)}`).join(", ")},
          count(distinct auction), ${RANKS.map((r) => `count(distinct auction) ${rank(r)}`).join(", ")}
        FROM bid GROUP BY channel, ${day}`,
  q17: `SELECT auction, ${day} AS "day", count(*), ${RANKS.map((r) => `count(*) ${rank(r)}`).join(", ")},
          min(price), max(price), ${avgBigint("price")}, sum(price)
        FROM bid GROUP BY auction, ${day}`,
  q18: `SELECT auction, bidder, price, channel, url, "dateTime", extra
        FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY bidder, auction ORDER BY "dateTime" DESC) AS rank_number FROM bid)
        WHERE rank_number <= 1`,
  q19: `SELECT * FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY auction ORDER BY price DESC) AS rank_number FROM bid) WHERE rank_number <= 10`,
  q20: `SELECT auction, bidder, price, channel, url, B."dateTime", B.extra,
          itemName, description, initialBid, reserve, A."dateTime", expires, seller, category, A.extra
        FROM bid AS B INNER JOIN auction AS A on B.auction = A.id WHERE A.category = 10`,
  q21: `SELECT auction, bidder, price, channel,
          CASE WHEN lower(channel) = 'apple' THEN '0' WHEN lower(channel) = 'google' THEN '1'
               WHEN lower(channel) = 'facebook' THEN '2' WHEN lower(channel) = 'baidu' THEN '3'
               ELSE ${regexpExtract("url", "(&|^)channel_id=([^&]*)", 2)} END AS channel_id
        FROM bid WHERE ${regexpExtract("url", "(&|^)channel_id=([^&]*)", 2)} IS NOT NULL OR lower(channel) IN ('apple', 'google', 'facebook', 'baidu')`,
  q22: `SELECT auction, bidder, price, channel, ${splitIndex("url", "/", 3)} AS dir1, ${splitIndex("url", "/", 4)} AS dir2, ${splitIndex("url", "/", 5)} AS dir3 FROM bid`,
};

/** DuckDB's batch result of each of `queries` that runs, by query, over the events of `stream`. */
export async function nexmarkBatchResults(stream: NexmarkSqlStream, queries: readonly NexmarkSqlQueryName[] = NEXMARK_SQL_QUERIES): Promise<Map<NexmarkSqlQueryName, Row[]>> {
  const oracle = await openOracle(nexmarkOracleTables(stream), DUCKDB_SETUP);
  try {
    const out = new Map<NexmarkSqlQueryName, Row[]>();
    for (const q of queries) {
      const sql = NEXMARK_DUCKDB[q];
      if (sql !== undefined && NEXMARK_SQL_REFUSED[q] === undefined) out.set(q, await oracle.result(sql));
    }
    return out;
  } finally {
    oracle.close();
  }
}
