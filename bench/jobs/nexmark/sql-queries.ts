/**
 * The Nexmark queries in SQL as the nexmark project publishes them
 * (bench/jobs/nexmark/sql/: `ddl_gen.sql`, `ddl_views.sql`, `q0.sql` …
 * `q22.sql`, adapted where Weir differs, each adaptation marked by a
 * `-- Weir adaptation:` comment), made into statements for a given stream:
 * the `datagen` table on the `nexmark` connector, the `person`, `auction`
 * and `bid` views, and each query's own statements (its sink table, views,
 * functions) and INSERT. Used by the bench and by test/sql/nexmark-queries.test.ts.
 */
import { readFileSync } from "node:fs";
import { parseStatements } from "../../../src/table/sql/parser.ts";

/** The published queries. */
export const NEXMARK_SQL_QUERIES = [
  "q0", "q1", "q2", "q3", "q4", "q5", "q6", "q7", "q8", "q9", "q10", "q11",
  "q12", "q13", "q14", "q15", "q16", "q17", "q18", "q19", "q20", "q21", "q22",
] as const;
export type NexmarkSqlQueryName = (typeof NEXMARK_SQL_QUERIES)[number];

/**
 * The queries Weir refuses, with the error: q6 is invalid SQL (its inner SELECT
 * filters on `rownum`, an alias of its own SELECT list; Flink rejects it too), q12
 * windows on processing time (`PROCTIME()`), whose result would depend on the wall clock.
 */
export const NEXMARK_SQL_REFUSED: Readonly<Partial<Record<NexmarkSqlQueryName, RegExp>>> = {
  q6: /Column 'rownum' not found in any table/,
  q12: /Processing-time windows are not supported: TUMBLE needs an event-time attribute/,
};

/** The queries that run. */
export const NEXMARK_SQL_RUNNABLE: readonly NexmarkSqlQueryName[] = NEXMARK_SQL_QUERIES.filter((q) => NEXMARK_SQL_REFUSED[q] === undefined);

/** The stream of a run: the `${…}` variables of the nexmark project's scripts, and Weir's options. */
export interface NexmarkSqlStream {
  /** `events.num`: events in the stream. */
  readonly events: number;
  /** `first-event.rate` and `next-event.rate`: events per second of event time. */
  readonly eventsPerSecond: number;
  /** `events.max-out-of-orderness` in ms (Weir's option; 0 when absent): at most the DDL's 4 s watermark delay, so that no event is late. */
  readonly outOfOrdernessMs?: number;
  /** `rate.limited`: emit each event when due on the wall clock (at `eventsPerSecond`) instead of as fast as the job takes them. */
  readonly rateLimited?: boolean;
  /** The directory of q10's output files (`${NEXMARK_DIR}`) and q13's side input (`${FLINK_HOME}/data/side_input.txt`). */
  readonly dir: string;
}

/** A query's statements. */
export interface NexmarkSqlScript {
  /** `CREATE TABLE datagen …`, the three views, then the query's own statements before its INSERT. */
  readonly setup: readonly string[];
  /** The INSERT INTO the query's sink. */
  readonly insert: string;
  /** The query of the INSERT (what a test collects). */
  readonly select: string;
}

const SQL_DIR = new URL("./sql/", import.meta.url);

function sqlFile(name: string): string {
  return readFileSync(new URL(`${name}.sql`, SQL_DIR), "utf8");
}

/** The published `ddl_gen.sql` for the stream, with Weir's options when the stream asks for them. */
function ddl(stream: Omit<NexmarkSqlStream, "dir">): string {
  const text = sqlFile("ddl_gen");
  const extra: string[] = [];
  if (stream.outOfOrdernessMs) extra.push(`'events.max-out-of-orderness' = '${stream.outOfOrdernessMs} ms'`);
  if (stream.rateLimited) extra.push(`'rate.limited' = 'true'`);
  if (extra.length === 0) return text;
  const end = text.lastIndexOf(")");
  return `${text.slice(0, end).trimEnd()},\n    ${extra.join(",\n    ")}\n${text.slice(end)}`;
}

/** The statements of a script, each without its `;`. */
function statements(text: string): { text: string; queryOffset?: number }[] {
  const parsed = parseStatements(text);
  return parsed.map((s, i) => {
    const end = i + 1 < parsed.length ? parsed[i + 1]!.loc.offset : text.length;
    const start = s.loc.offset;
    const body = text.slice(start, end).replace(/;\s*(--[^\n]*\n\s*)*$/, "").trim();
    return s.kind === "insert" ? { text: body, queryOffset: s.query.loc.offset - start } : { text: body };
  });
}

/**
 * The statements of `query` on `stream`.
 *
 * @example
 * ```ts
 * const s = nexmarkSqlScript("q5", { events: 100_000, eventsPerSecond: 1_000, dir: "/tmp/nexmark" });
 * for (const statement of s.setup) tEnv.executeSql(statement);
 * tEnv.executeSql(s.insert); // a bounded job into the blackhole sink
 * ```
 */
export function nexmarkSqlScript(query: NexmarkSqlQueryName, stream: NexmarkSqlStream): NexmarkSqlScript {
  const all = statements(withVariables([ddl(stream), sqlFile("ddl_views"), sqlFile(query)].join(";\n"), stream));
  const insert = all.at(-1)!;
  if (insert.queryOffset === undefined) throw new Error(`nexmark ${query}: the script does not end with an INSERT`);
  return { setup: all.slice(0, -1).map((s) => s.text), insert: insert.text, select: insert.text.slice(insert.queryOffset) };
}

/**
 * The statements every query starts with: `CREATE TABLE datagen …` on `stream`, then the
 * `person`, `auction` and `bid` views (what a query of its own on the same stream needs).
 *
 * @example
 * ```ts
 * for (const statement of nexmarkStreamSetup({ events: 100_000, eventsPerSecond: 1_000 })) tEnv.executeSql(statement);
 * tEnv.sqlQuery("SELECT auction, price FROM bid");
 * ```
 */
export function nexmarkStreamSetup(stream: Omit<NexmarkSqlStream, "dir">): string[] {
  return statements(withVariables([ddl(stream), sqlFile("ddl_views")].join(";\n"), { ...stream, dir: "" })).map((s) => s.text);
}

/** `text` with the `${…}` variables of the nexmark project's scripts set for `stream`. */
function withVariables(text: string, stream: NexmarkSqlStream): string {
  const vars: Record<string, string> = {
    TPS: String(stream.eventsPerSecond),
    EVENTS_NUM: String(stream.events),
    PERSON_PROPORTION: "1",
    AUCTION_PROPORTION: "3",
    BID_PROPORTION: "46",
    NEXMARK_TABLE: "datagen",
    NEXMARK_DIR: stream.dir,
    SUBMIT_TIME: "q10",
    FLINK_HOME: stream.dir,
  };
  return text.replace(/\$\{(\w+)\}/g, (whole, name: string) => vars[name] ?? whole);
}

/** The side input of q13 (the nexmark project's `SideInputGenerator --num 10000`): lines `i,i` for i in 0 … 9 999, under `${dir}/data/side_input.txt`. */
export function nexmarkSideInput(): string {
  return Array.from({ length: 10_000 }, (_, i) => `${i},${i}\n`).join("");
}
