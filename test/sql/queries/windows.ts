/**
 * Window table functions (TUMBLE, HOP, CUMULATE, SESSION) with aggregation,
 * window Top-N, window deduplication, window joins. DuckDB has no window
 * TVFs: its texts write the windows out (`tumble_start`/`plus_ms` are macros
 * of the harness, see DUCKDB_SETUP), hopping and cumulating windows as a join
 * with the window numbers, sessions with LAG and a running sum.
 */
import type { HarnessQuery } from "../../support/sql-harness.ts";

/** A window relation in both dialects. */
interface Windows {
  flink: string;
  duckdb: string;
}

const tumble = (table: string, sizeS: number, offsetS = 0): Windows => {
  const size = sizeS * 1000;
  const offset = offsetS * 1000;
  const start = offset === 0 ? `tumble_start(ts, ${size})` : `epoch_ms(((epoch_ms(ts) - ${offset}) // ${size}) * ${size} + ${offset})`;
  return {
    flink: `TABLE(TUMBLE(TABLE ${table}, DESCRIPTOR(ts), INTERVAL '${sizeS}' SECOND${offset === 0 ? "" : `, INTERVAL '${offsetS}' SECOND`}))`,
    duckdb: `(SELECT *, ${start} AS window_start, plus_ms(${start}, ${size}) AS window_end, plus_ms(${start}, ${size - 1}) AS window_time FROM ${table})`,
  };
};

const hop = (table: string, slideS: number, sizeS: number): Windows => {
  const [slide, size] = [slideS * 1000, sizeS * 1000];
  const start = `epoch_ms(epoch_ms(tumble_start(ts, ${slide})) - k * ${slide})`;
  return {
    flink: `TABLE(HOP(TABLE ${table}, DESCRIPTOR(ts), INTERVAL '${slideS}' SECOND, INTERVAL '${sizeS}' SECOND))`,
    duckdb: `(SELECT t.*, ${start} AS window_start, plus_ms(${start}, ${size}) AS window_end FROM ${table} t, range(0, ${size / slide}) AS r(k))`,
  };
};

const cumulate = (table: string, stepS: number, maxS: number): Windows => {
  const [step, max] = [stepS * 1000, maxS * 1000];
  return {
    flink: `TABLE(CUMULATE(TABLE ${table}, DESCRIPTOR(ts), INTERVAL '${stepS}' SECOND, INTERVAL '${maxS}' SECOND))`,
    duckdb:
      `(SELECT t.*, tumble_start(ts, ${max}) AS window_start, plus_ms(tumble_start(ts, ${max}), k * ${step}) AS window_end ` +
      `FROM ${table} t, range(1, ${max / step + 1}) AS r(k) WHERE epoch_ms(ts) < epoch_ms(tumble_start(ts, ${max})) + k * ${step})`,
  };
};

/** Sessions (per `key`, if any): a row more than the gap after the previous one starts a new session (Flink merges windows that touch). */
const session = (table: string, key: string | undefined, gapS: number): Windows => {
  const gap = gapS * 1000;
  const partition = key === undefined ? "" : `PARTITION BY ${key}`;
  const numbered =
    `SELECT *, SUM(CASE WHEN prev IS NULL OR epoch_ms(ts) - epoch_ms(prev) > ${gap} THEN 1 ELSE 0 END) OVER (${partition} ORDER BY ts ROWS UNBOUNDED PRECEDING) AS sid ` +
    `FROM (SELECT *, LAG(ts) OVER (${partition} ORDER BY ts) AS prev FROM ${table})`;
  return {
    flink: `TABLE(SESSION(TABLE ${table}${key === undefined ? "" : ` PARTITION BY ${key}`}, DESCRIPTOR(ts), INTERVAL '${gapS}' SECOND))`,
    duckdb: `(SELECT *, MIN(ts) OVER (PARTITION BY ${key === undefined ? "" : `${key}, `}sid) AS window_start, plus_ms(MAX(ts) OVER (PARTITION BY ${key === undefined ? "" : `${key}, `}sid), ${gap}) AS window_end FROM (${numbered}))`,
  };
};

/** A query over window relations: `{W}`, `{W2}` in `text` stand for them. */
function windowed(name: string, text: string, w: Windows, w2?: Windows): HarnessQuery {
  const fill = (dialect: keyof Windows) => text.replaceAll("{W}", w[dialect]).replaceAll("{W2}", w2?.[dialect] ?? "");
  return { name, flink: fill("flink"), duckdb: fill("duckdb") };
}

const CLICKS_5S = tumble("clicks", 5);
const ORDERS_5S = tumble("orders", 5);
/** Clicks per user and 5-second window. */
const CLICK_COUNTS = "SELECT window_start, window_end, user, COUNT(*) AS cnt FROM {W} WHERE user IS NOT NULL GROUP BY window_start, window_end, user";

export const WINDOWS: readonly HarnessQuery[] = [
  windowed("tumble", "SELECT window_start, window_end, user, COUNT(*) AS c, SUM(n) AS s, MAX(price) AS mp, MIN(url) AS mu FROM {W} GROUP BY window_start, window_end, user", CLICKS_5S),
  windowed("tumble-window-time", "SELECT window_start, window_time, COUNT(DISTINCT user) AS users, SUM(price) AS sp FROM {W} GROUP BY window_start, window_end, window_time", CLICKS_5S),
  windowed("tumble-offset", "SELECT window_start, window_end, SUM(amount) AS total, COUNT(*) AS c FROM {W} GROUP BY window_start, window_end", tumble("orders", 5, 1)),
  windowed("hop", "SELECT window_start, window_end, user, COUNT(*) AS c, SUM(n) AS s FROM {W} GROUP BY window_start, window_end, user", hop("clicks", 2, 6)),
  windowed("cumulate", "SELECT window_start, window_end, user, SUM(amount) AS total, COUNT(*) AS c FROM {W} GROUP BY window_start, window_end, user", cumulate("orders", 2, 8)),
  windowed("session", "SELECT window_start, window_end, user, COUNT(*) AS c, MAX(n) AS mn FROM {W} GROUP BY window_start, window_end, user", session("clicks", "user", 1)),
  windowed("hop-cube", "SELECT window_start, window_end, user, url, COUNT(*) AS c, SUM(n) AS s FROM {W} GROUP BY window_start, window_end, CUBE (user, url)", hop("clicks", 5, 10)),
  windowed("cumulate-global", "SELECT window_start, window_end, COUNT(DISTINCT user) AS users, MAX(n) AS mn, MIN(price) AS mp FROM {W} GROUP BY window_start, window_end", cumulate("clicks", 1, 4)),
  windowed("session-global", "SELECT window_start, window_end, COUNT(*) AS c, SUM(amount) AS total FROM {W} GROUP BY window_start, window_end", session("orders", undefined, 1)),
  windowed(
    "window-cascade",
    "SELECT window_start, window_end, SUM(c) AS total, COUNT(*) AS users, MAX(c) AS top FROM (SELECT window_start, window_end, window_time, user, COUNT(*) AS c FROM {W} GROUP BY window_start, window_end, window_time, user) GROUP BY window_start, window_end",
    CLICKS_5S,
  ),
  windowed(
    "tumble-of-filtered-view",
    "WITH positive AS (SELECT user, url, n, ts FROM clicks WHERE n > 0) SELECT window_start, window_end, url, COUNT(DISTINCT user) FILTER (WHERE n > 3) AS users, SUM(n) AS s FROM {W} GROUP BY window_start, window_end, url",
    tumble("positive", 5),
  ),
  windowed(
    "tumble-of-interval-join",
    "WITH paired AS (SELECT c.user, c.ts, o.amount FROM clicks c, orders o WHERE c.user = o.user AND o.ts BETWEEN c.ts - INTERVAL '1' SECOND AND c.ts) SELECT window_start, window_end, user, SUM(amount) AS total, COUNT(*) AS c FROM {W} GROUP BY window_start, window_end, user",
    tumble("paired", 5),
  ),
  windowed(
    // Nexmark q7's shape: a rowtime bounded by a window aggregation's window_end (a regular join whose orders expire)
    "highest-amount-per-window",
    "SELECT o.order_id, o.user, o.amount, m.wend FROM orders o JOIN (SELECT MAX(amount) AS top, window_end AS wend FROM {W} GROUP BY window_start, window_end) m ON o.amount = m.top WHERE o.ts BETWEEN m.wend - INTERVAL '5' SECOND AND m.wend",
    ORDERS_5S,
  ),
  windowed(
    "window-end-bounds-clicks",
    "SELECT m.user, m.c, k.url, k.n FROM (SELECT user, COUNT(*) AS c, window_end AS wend FROM {W} GROUP BY user, window_start, window_end) m JOIN clicks k ON m.user = k.user AND k.ts > m.wend - INTERVAL '3' SECOND AND k.ts <= m.wend + INTERVAL '1' SECOND AND k.n >= m.c",
    CLICKS_5S,
  ),
  windowed(
    "window-join-then-aggregate",
    "SELECT c.user, COUNT(*) AS pairs, COUNT(DISTINCT c.window_start) AS windows FROM (SELECT * FROM {W}) c JOIN (SELECT * FROM {W2}) o ON c.user = o.user AND c.window_start = o.window_start AND c.window_end = o.window_end GROUP BY c.user",
    CLICKS_5S,
    ORDERS_5S,
  ),
  windowed(
    "tumble-grouping-sets",
    "SELECT window_start, window_end, user, url, COUNT(*) AS c FROM {W} GROUP BY window_start, window_end, GROUPING SETS ((user, url), (user), ())",
    CLICKS_5S,
  ),
  windowed(
    "window-top-n",
    `SELECT window_start, window_end, user, cnt, rn FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY window_start, window_end ORDER BY cnt DESC, user) AS rn FROM (${CLICK_COUNTS})) WHERE rn <= 2`,
    CLICKS_5S,
  ),
  windowed(
    "window-top-n-on-tvf",
    "SELECT window_start, window_end, order_id, amount FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY window_start, window_end ORDER BY amount DESC, order_id) AS rn FROM {W}) WHERE rn <= 3",
    ORDERS_5S,
  ),
  windowed(
    "window-top-n-rank",
    `SELECT window_start, window_end, user, cnt FROM (SELECT *, RANK() OVER (PARTITION BY window_start, window_end ORDER BY cnt DESC) AS r FROM (${CLICK_COUNTS})) WHERE r <= 2`,
    CLICKS_5S,
  ),
  windowed(
    "window-dedup",
    "SELECT window_start, window_end, user, url, ts FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY window_start, window_end, user ORDER BY ts ASC) AS rn FROM {W}) WHERE rn = 1",
    CLICKS_5S,
  ),
  windowed(
    "window-dedup-last",
    "SELECT window_start, window_end, user, order_id, ts FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY window_start, window_end, user ORDER BY ts DESC) AS rn FROM {W}) WHERE rn = 1",
    ORDERS_5S,
  ),
  windowed(
    "window-join",
    "SELECT c.window_start, c.user, c.url, o.order_id FROM (SELECT * FROM {W}) c JOIN (SELECT * FROM {W2}) o ON c.user = o.user AND c.window_start = o.window_start AND c.window_end = o.window_end",
    CLICKS_5S,
    ORDERS_5S,
  ),
  windowed(
    "window-left-join",
    "SELECT o.window_start, o.order_id, c.url FROM (SELECT * FROM {W}) o LEFT JOIN (SELECT * FROM {W2}) c ON o.user = c.user AND o.window_start = c.window_start AND o.window_end = c.window_end",
    ORDERS_5S,
    CLICKS_5S,
  ),
  // Flink's legacy group windows (GROUP BY TUMBLE(ts, …) with TUMBLE_START …), the same windows as the TVFs
  {
    name: "group-window-tumble",
    flink: "SELECT user, TUMBLE_START(ts, INTERVAL '5' SECOND) AS ws, TUMBLE_END(ts, INTERVAL '5' SECOND) AS we, COUNT(*) AS c, SUM(n) AS s FROM clicks GROUP BY TUMBLE(ts, INTERVAL '5' SECOND), user HAVING COUNT(*) > 1",
    duckdb: "SELECT user, window_start AS ws, window_end AS we, COUNT(*) AS c, SUM(n) AS s FROM " + CLICKS_5S.duckdb + " GROUP BY window_start, window_end, user HAVING COUNT(*) > 1",
  },
  {
    name: "group-window-hop",
    flink: "SELECT HOP_START(ts, INTERVAL '2' SECOND, INTERVAL '6' SECOND) AS ws, HOP_END(ts, INTERVAL '2' SECOND, INTERVAL '6' SECOND) AS we, user, COUNT(*) AS c FROM clicks GROUP BY user, HOP(ts, INTERVAL '2' SECOND, INTERVAL '6' SECOND)",
    duckdb: "SELECT window_start AS ws, window_end AS we, user, COUNT(*) AS c FROM " + hop("clicks", 2, 6).duckdb + " GROUP BY window_start, window_end, user",
  },
  {
    name: "group-window-session",
    flink: "SELECT user, COUNT(*) AS c, SESSION_START(ts, INTERVAL '1' SECOND) AS ws, SESSION_END(ts, INTERVAL '1' SECOND) AS we FROM clicks GROUP BY user, SESSION(ts, INTERVAL '1' SECOND)",
    duckdb: "SELECT user, COUNT(*) AS c, window_start AS ws, window_end AS we FROM " + session("clicks", "user", 1).duckdb + " GROUP BY window_start, window_end, user",
  },
  {
    name: "group-window-rowtime-cascade",
    flink: "SELECT TUMBLE_START(rt, INTERVAL '10' SECOND) AS ws, SUM(c) AS total, MAX(c) AS top FROM (SELECT user, TUMBLE_ROWTIME(ts, INTERVAL '5' SECOND) AS rt, COUNT(*) AS c FROM clicks GROUP BY user, TUMBLE(ts, INTERVAL '5' SECOND)) GROUP BY TUMBLE(rt, INTERVAL '10' SECOND)",
    duckdb: "SELECT tumble_start(rt, 10000) AS ws, SUM(c) AS total, MAX(c) AS top FROM (SELECT user, plus_ms(window_start, 4999) AS rt, COUNT(*) AS c FROM " + CLICKS_5S.duckdb + " GROUP BY window_start, window_end, user) GROUP BY tumble_start(rt, 10000)",
  },
  windowed(
    "window-join-aggregates",
    `SELECT c.window_start, c.user, c.cnt, o.total FROM (${CLICK_COUNTS}) c JOIN (SELECT window_start, window_end, user, SUM(amount) AS total FROM {W2} GROUP BY window_start, window_end, user) o ON c.user = o.user AND c.window_start = o.window_start AND c.window_end = o.window_end`,
    CLICKS_5S,
    ORDERS_5S,
  ),
];
