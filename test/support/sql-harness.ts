/**
 * The "continuous = batch" harness of the SQL suites (issue 10): random input
 * tables drawn from a seed are streamed slowly into ONE job that runs many
 * queries at once (exactly-once checkpoints, one injected failure); each
 * query's changelog is folded into the table it describes and compared with
 * the same query run in batch by DuckDB over the same input.
 *
 * The input never has late rows: event times grow with a disorder bounded
 * below the watermark delay, since Flink drops late rows and batch would not.
 * One table, `accounts`, is a changelog (inserts, updates, deletes), read
 * with `fromChangelogStream`: its batch table is the changelog folded.
 */
import { createHash, randomUUID } from "node:crypto";
import { renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  collectSink,
  RestartStrategies,
  type DataStream,
  Schema,
  StreamExecutionEnvironment,
  StreamTableEnvironment,
  WatermarkStrategy,
  type Row,
  type SqlValue,
} from "../../src/index.ts";
import { ChangelogRetractionError, MultisetTable } from "../../src/table/data/changelog.ts";
import { decimal, decimalToString, isDecimal } from "../../src/table/types/decimal.ts";
import { randomInt, seededRandom } from "../../src/util/seeded-random.ts";
import { throttledSequence } from "../fixtures/throttled-sequence-source.ts";
import { openOracle, type OracleTable } from "./duckdb-oracle.ts";
import { FailOnce } from "./fail-once.ts";

/** A query of the harness: its Flink SQL and, where DuckDB's dialect differs, DuckDB's SQL for the same result. */
export interface HarnessQuery {
  /** Unique name (also its collect sink's), e.g. `agg-count-distinct`. */
  readonly name: string;
  readonly flink: string;
  /** The DuckDB text when it differs from `flink`. */
  readonly duckdb?: string;
  /**
   * One line describing the Weir bug that makes this query's folded changelog
   * differ from the batch result: the test then asserts that it still differs,
   * so fixing the bug turns the test red until this mark is removed.
   */
  readonly knownBug?: string;
}

/** A click (the `clicks` table). */
export interface Click {
  user: string | null;
  url: string | null;
  n: bigint;
  price: string | null;
  ts: number;
}

/** A row of the `users` table: a user's region from `ts` on. */
export interface UserRow {
  name: string | null;
  region: string | null;
  ts: number;
}

/** An order (the `orders` table). */
export interface Order {
  order_id: bigint;
  user: string | null;
  amount: string;
  qty: number;
  ts: number;
}

/** A change of the `accounts` changelog table: `Row`s of (id BIGINT, owner STRING, balance DECIMAL(12, 2), tier STRING). */
export type AccountChange = Row;

/** The input of one run. */
export interface HarnessInput {
  clicks: Click[];
  users: UserRow[];
  orders: Order[];
  accounts: AccountChange[];
}

/** Numbers of rows per table. */
export interface InputSizes {
  clicks: number;
  users: number;
  orders: number;
  /** Changes to accounts (an update is two). */
  accountChanges: number;
}

export const DEFAULT_SIZES: InputSizes = { clicks: 240, users: 40, orders: 120, accountChanges: 150 };

/** The watermark delay of every table (`ts - INTERVAL '2' SECOND`), in ms. */
const WATERMARK_DELAY = 2_000;
/** How far a row's event time may lie behind an earlier row's: less than the watermark delay, so no row is late. */
const MAX_DISORDER = 1_500;
const T0 = Date.UTC(2026, 0, 1);
const SPAN = 60_000;
const USERS = ["Mary", "Bob", "Liz", "Tom", "Ann"];
const URLS = ["/home", "/cart", "/prod?id=1", "/prod?id=2", "/prod?id=13"];
const REGIONS = ["EU", "US", "APAC"];
/** Order ids start beyond 2^53: exact BIGINT arithmetic shows. */
const FIRST_ORDER_ID = 2n ** 53n + 1n;

/** The seeded input of a run. */
export function generateInput(seed: number, sizes: InputSizes = DEFAULT_SIZES): HarnessInput {
  const random = seededRandom(seed);
  const pick = <T>(xs: readonly T[], nullRate: number): T | null => (random() < nullRate ? null : xs[randomInt(random, 0, xs.length - 1)]!);
  const cents = (lo: number, hi: number) => {
    const c = randomInt(random, lo, hi);
    return `${Math.floor(c / 100)}.${String(c % 100).padStart(2, "0")}`;
  };
  // clicks now and then pause longer than the session gap (1 s), so sessions end
  const clickTimes = eventTimes(random, sizes.clicks, () => (random() < 0.06 ? randomInt(random, 1_200, 3_000) : randomInt(random, 20, 250)));
  const clicks = clickTimes.map(
    (ts): Click => ({
      user: pick(USERS, 0.05),
      url: pick(URLS, 0.05),
      // some values beyond 2^53; their sums stay far below 2^63
      n: random() < 0.1 ? (random() < 0.5 ? -1n : 1n) * (2n ** 54n + BigInt(randomInt(random, 0, 1_000_000))) : BigInt(randomInt(random, -5, 20)),
      price: random() < 0.08 ? null : cents(0, 99_999),
      ts,
    }),
  );
  const userStep = (2 * SPAN) / sizes.users;
  const users = eventTimes(random, sizes.users, () => randomInt(random, 0, userStep)).map(
    (ts): UserRow => ({ name: pick([...USERS, "Eve", "Joe"], 0.03), region: pick(REGIONS, 0.1), ts }),
  );
  const orderStep = (2 * SPAN) / sizes.orders;
  const orders = eventTimes(random, sizes.orders, () => randomInt(random, 0, orderStep)).map(
    (ts, i): Order => ({ order_id: FIRST_ORDER_ID + BigInt(i * 7), user: pick([...USERS, "Zed"], 0.04), amount: cents(100, 50_000), qty: randomInt(random, 1, 6), ts }),
  );
  // early, so that every prefix has them: a NULL user ordering, a NULL name in APAC, a named user in the US
  orders[Math.min(2, orders.length - 1)]!.user = null;
  const at = (i: number) => Math.min(i, users.length - 1);
  users[at(1)] = { ...users[at(1)]!, name: users[at(1)]!.name ?? "Bob", region: "US" };
  users[at(3)] = { ...users[at(3)]!, name: null, region: "APAC" };
  return { clicks, users, orders, accounts: accountChanges(random, sizes.accountChanges, pick, () => cents(0, 20_000)) };
}

/**
 * About `count` changes to accounts 1..12: an absent account is inserted, a
 * present one updated (`-U` then `+U`) or deleted.
 */
function accountChanges(random: () => number, count: number, pick: <T>(xs: readonly T[], nullRate: number) => T | null, balance: () => string): AccountChange[] {
  const current = new Map<number, SqlValue[]>();
  const out: AccountChange[] = [];
  const fresh = (id: number): SqlValue[] => [BigInt(id), pick(USERS, 0.05), balance(), pick(["gold", "silver"], 0.2)];
  while (out.length < count) {
    const id = randomInt(random, 1, 12);
    const old = current.get(id);
    if (old === undefined) {
      const row = fresh(id);
      current.set(id, row);
      out.push({ kind: "+I", fields: row });
    } else if (random() < 0.7) {
      const row = random() < 0.5 ? [old[0]!, old[1]!, balance(), old[3]!] : fresh(id);
      current.set(id, row);
      out.push({ kind: "-U", fields: old }, { kind: "+U", fields: row });
    } else {
      current.delete(id);
      out.push({ kind: "-D", fields: old });
    }
  }
  return out;
}

/**
 * `count` distinct event times in arrival order: a clock advancing by
 * `step()`, each time up to {@link MAX_DISORDER} behind it.
 */
function eventTimes(random: () => number, count: number, step: () => number): number[] {
  const seen = new Set<number>();
  const out: number[] = [];
  let clock = T0 + MAX_DISORDER;
  for (let i = 0; i < count; i++) {
    clock += step();
    let ts: number;
    do ts = clock - randomInt(random, 0, MAX_DISORDER);
    while (seen.has(ts));
    seen.add(ts);
    out.push(ts);
  }
  return out;
}

/** The first `fraction` of every table (at least one row each): the input seen so far at some moment. */
export function prefixOf(input: HarnessInput, fraction: number): HarnessInput {
  const cut = <T>(rows: T[]) => rows.slice(0, Math.max(1, Math.floor(rows.length * fraction)));
  return { clicks: cut(input.clicks), users: cut(input.users), orders: cut(input.orders), accounts: cut(input.accounts) };
}

/** An input table: its records, its schema for Weir, its columns and rows for DuckDB. */
interface InputTable {
  readonly name: keyof HarnessInput;
  /** The stream's records: plain objects, or `Row`s of a changelog. */
  rows(input: HarnessInput): readonly object[];
  /** The records are a changelog (`fromChangelogStream`). */
  readonly changelog?: boolean;
  schema(): Schema;
  readonly duckColumns: string;
  /** The rows of the batch table. */
  duckRows(input: HarnessInput): SqlValue[][];
}

const tsText = (ms: number) => new Date(ms).toISOString().replace("T", " ").replace("Z", "");
const watermark = `ts - INTERVAL '${WATERMARK_DELAY / 1000}' SECOND`;

const TABLES: readonly InputTable[] = [
  {
    name: "clicks",
    rows: (i) => i.clicks,
    schema: () =>
      Schema.newBuilder()
        .column("user", "STRING")
        .column("url", "STRING")
        .column("n", "BIGINT")
        .column("price", "DECIMAL(10, 2)")
        .column("ts", "TIMESTAMP(3)")
        .watermark("ts", watermark)
        .build(),
    duckColumns: `"user" VARCHAR, url VARCHAR, n BIGINT, price DECIMAL(10, 2), ts TIMESTAMP`,
    duckRows: (i) => i.clicks.map((c) => [c.user, c.url, c.n, c.price === null ? null : decimalOf(c.price), tsText(c.ts)]),
  },
  {
    name: "users",
    rows: (i) => i.users,
    schema: () => Schema.newBuilder().column("name", "STRING").column("region", "STRING").column("ts", "TIMESTAMP(3)").watermark("ts", watermark).build(),
    duckColumns: `name VARCHAR, region VARCHAR, ts TIMESTAMP`,
    duckRows: (i) => i.users.map((u) => [u.name, u.region, tsText(u.ts)]),
  },
  {
    name: "orders",
    rows: (i) => i.orders,
    schema: () =>
      Schema.newBuilder()
        .column("order_id", "BIGINT")
        .column("user", "STRING")
        .column("amount", "DECIMAL(12, 2)")
        .column("qty", "INT")
        .column("ts", "TIMESTAMP(3)")
        .watermark("ts", watermark)
        .build(),
    duckColumns: `order_id BIGINT, "user" VARCHAR, amount DECIMAL(12, 2), qty INTEGER, ts TIMESTAMP`,
    duckRows: (i) => i.orders.map((o) => [o.order_id, o.user, decimalOf(o.amount), o.qty, tsText(o.ts)]),
  },
  {
    name: "accounts",
    rows: (i) => i.accounts,
    changelog: true,
    schema: () => Schema.newBuilder().column("id", "BIGINT").column("owner", "STRING").column("balance", "DECIMAL(12, 2)").column("tier", "STRING").build(),
    duckColumns: `id BIGINT, owner VARCHAR, balance DECIMAL(12, 2), tier VARCHAR`,
    duckRows: (i) =>
      new MultisetTable()
        .applyAll(i.accounts)
        .rows()
        .map((r) => [r.fields[0]!, r.fields[1]!, decimalOf(r.fields[2] as string), r.fields[3]!]),
  },
];

function decimalOf(text: string): SqlValue {
  const [int, frac = ""] = text.split(".");
  return decimal(BigInt(int! + frac), frac.length);
}

/**
 * DuckDB helpers for writing Flink's windows out (DuckDB has no window TVFs):
 * `tumble_start(ts, size_ms)` is the start of ts's tumbling window,
 * `plus_ms(ts, ms)` a timestamp moved by ms.
 */
export const DUCKDB_SETUP: readonly string[] = [
  "CREATE MACRO tumble_start(t, size_ms) AS epoch_ms((epoch_ms(t) // size_ms) * size_ms)",
  "CREATE MACRO plus_ms(t, ms) AS epoch_ms(epoch_ms(t) + ms)",
  // the user-defined functions of the harness (see registerFunctions)
  "CREATE MACRO url_depth(s) AS length(s) - length(replace(s, '/', ''))",
];

/**
 * User-defined functions the queries may call: `url_depth(url)` (INT, the
 * number of slashes), the table function `url_parts(url)` (rows
 * `(part STRING, pos INT)`: the non-empty parts between `/`, `?` and `=`, with
 * their 1-based position among all parts) and the aggregate function
 * `sum_sq(INT)` (BIGINT, the sum of squares; retractable and mergeable).
 */
export function registerFunctions(tEnv: StreamTableEnvironment): void {
  tEnv.createTemporarySystemFunction("url_depth", { resultType: "INT", eval: (s: string | null) => (s === null ? null : s.split("/").length - 1) });
  tEnv.createTemporarySystemFunction("url_parts", {
    kind: "table",
    resultType: "ROW<part STRING, pos INT>",
    argumentTypes: ["STRING"],
    *eval(s: string | null) {
      if (s === null) return;
      const parts = s.split(/[/?=]/);
      for (let i = 0; i < parts.length; i++) if (parts[i] !== "") yield [parts[i]!, i + 1];
    },
  });
  tEnv.createTemporarySystemFunction("sum_sq", {
    resultType: "BIGINT",
    argumentTypes: ["INT"],
    createAccumulator: () => ({ sum: 0 }),
    accumulate: (acc: { sum: number }, v: number | null) => {
      if (v !== null) acc.sum += v * v;
    },
    retract: (acc: { sum: number }, v: number | null) => {
      if (v !== null) acc.sum -= v * v;
    },
    merge: (acc: { sum: number }, others: Iterable<{ sum: number }>) => {
      for (const o of others) acc.sum += o.sum;
    },
    getValue: (acc: { sum: number }) => acc.sum,
  });
}

/** How a run reads its input. */
export interface StreamOptions {
  /** A directory for the files of the filesystem tables (`user_versions`). */
  dir: string;
  /** The clicks source fails once at this row or later, after a checkpoint completed (-1: never). */
  failAt: number;
  /** Rows per poll of each source (then a 1 ms pause). */
  perPoll?: number;
}

/**
 * Registers the tables of `input` as views of `tEnv`: each a slow,
 * replayable source (parallelism 1) whose clicks may fail once.
 */
export function registerInput(env: StreamExecutionEnvironment, tEnv: StreamTableEnvironment, input: HarnessInput, options: StreamOptions): void {
  for (const t of TABLES) {
    const rows = t.rows(input);
    const stream = env
      .fromSource(throttledSequence(0, rows.length - 1, options.perPoll ?? 3, 1), WatermarkStrategy.noWatermarks(), t.name)
      .uid(`${t.name}-source`)
      .setParallelism(1)
      .map(new FailOnce(rows, t.name === "clicks" ? options.failAt : -1))
      .uid(`${t.name}-rows`)
      .setParallelism(1);
    if (t.changelog !== true) {
      tEnv.createTemporaryView(t.name, stream, t.schema());
      continue;
    }
    // The conversion runs at the default parallelism (2): partitioned by id first, each
    // account's changes stay in order (a rebalance could let a -U overtake its +I)
    const byAccount = (stream as DataStream<Row>)
      .keyBy((r) => String(r.fields[0]))
      .map((r: Row) => r)
      .uid(`${t.name}-by-id`);
    tEnv.createTemporaryView(t.name, tEnv.fromChangelogStream(byAccount, t.schema()));
  }
  // the users with a name as a versioned table (primary key and rowtime) for temporal joins:
  // a JSON file in options.dir (written whole under a temporary name, then renamed, since
  // the client and every worker thread write it)
  const text = input.users
    .filter((u) => u.name !== null)
    .map((u) => JSON.stringify({ name: u.name, region: u.region, ts: tsText(u.ts) }))
    .join("\n");
  const file = join(options.dir, `user_versions-${createHash("sha256").update(text).digest("hex").slice(0, 16)}.json`);
  const partial = `${file}.${randomUUID()}`;
  writeFileSync(partial, `${text}\n`);
  renameSync(partial, file);
  tEnv.executeSql(
    `CREATE TABLE user_versions (name STRING, region STRING, ts TIMESTAMP(3), WATERMARK FOR ts AS ${watermark}, PRIMARY KEY (name) NOT ENFORCED) ` +
      `WITH ('connector' = 'filesystem', 'path' = '${file}', 'format' = 'json')`,
  );
}

/**
 * Adds each query's changelog to the job, into the collect sink named after
 * the query (parallelism 1: one changelog, in order per key). Returns the
 * planning errors by query name (those queries have no sink).
 */
export function addQueries(tEnv: StreamTableEnvironment, queries: readonly HarnessQuery[]): Map<string, string> {
  const errors = new Map<string, string>();
  for (const q of queries) {
    try {
      tEnv
        .toChangelogStream(tEnv.sqlQuery(q.flink))
        .sinkTo(collectSink<Row>(q.name))
        .uid(`sink-${q.name}`)
        .name(`sink-${q.name}`)
        .setParallelism(1);
    } catch (e) {
      errors.set(q.name, (e as Error).message);
    }
  }
  return errors;
}

/** What a run produced: each query's changelog (or why it has none) and the number of restarts. */
export interface HarnessRun {
  restarts: number;
  changelogs: Map<string, Row[]>;
  planErrors: Map<string, string>;
}

/**
 * Builds the job of `queries` over `input` on `env` (exactly-once checkpoints
 * every 50 ms, restarts without delay, watermarks every 20 ms) and runs it.
 * In a worker thread of a job module the returned promise never settles.
 */
export async function runJob(env: StreamExecutionEnvironment, input: HarnessInput, queries: readonly HarnessQuery[], options: StreamOptions): Promise<HarnessRun> {
  env.enableCheckpointing(50, "exactly-once");
  env.setRestartStrategy(RestartStrategies.fixedDelayRestart(3, 0));
  env.setAutoWatermarkInterval(20);
  const tEnv = StreamTableEnvironment.create(env);
  registerFunctions(tEnv);
  registerInput(env, tEnv, input, options);
  const planErrors = addQueries(tEnv, queries);
  const result = await env.execute("continuous-equals-batch");
  const changelogs = new Map<string, Row[]>();
  for (const q of queries) if (!planErrors.has(q.name)) changelogs.set(q.name, result.getCollected<Row>(q.name));
  return { restarts: result.restarts, changelogs, planErrors };
}

/** {@link runJob} in-process at parallelism 2. */
export function runInProcess(input: HarnessInput, queries: readonly HarnessQuery[], options: StreamOptions): Promise<HarnessRun> {
  return runJob(StreamExecutionEnvironment.create({ parallelism: 2 }), input, queries, options);
}

/** A run as one JSON line (what the job module of the worker configuration prints). */
export function encodeRun(run: HarnessRun): string {
  return JSON.stringify({
    restarts: run.restarts,
    changelogs: Object.fromEntries([...run.changelogs].map(([name, rows]) => [name, encodeChangelog(rows)])),
    planErrors: Object.fromEntries(run.planErrors),
  });
}

/** The inverse of {@link encodeRun}. */
export function decodeRun(data: { restarts: number; changelogs: Record<string, unknown[]>; planErrors: Record<string, string> }): HarnessRun {
  return {
    restarts: data.restarts,
    changelogs: new Map(Object.entries(data.changelogs).map(([name, rows]) => [name, decodeChangelog(rows)])),
    planErrors: new Map(Object.entries(data.planErrors)),
  };
}

/** DuckDB's batch result of every query over `input` (or the error DuckDB gave), by query name. */
export async function batchResults(input: HarnessInput, queries: readonly HarnessQuery[]): Promise<Map<string, Row[] | Error>> {
  const tables: OracleTable[] = TABLES.map((t) => ({ name: t.name, columns: t.duckColumns, rows: t.duckRows(input) }));
  const oracle = await openOracle(tables, DUCKDB_SETUP);
  const out = new Map<string, Row[] | Error>();
  try {
    for (const q of queries) {
      try {
        out.set(q.name, await oracle.result(q.duckdb ?? q.flink));
      } catch (e) {
        out.set(q.name, e as Error);
      }
    }
  } finally {
    oracle.close();
  }
  return out;
}

/**
 * A value's text for comparing results of two engines: numbers by value
 * whatever their type (INT, BIGINT, DECIMAL: `12.50` is `12.5`), non-integer
 * doubles to 12 significant digits (floating sums depend on the order of
 * addition), strings quoted, NULL as `NULL`.
 */
export function canonicalValue(v: SqlValue): string {
  if (v === null) return "NULL";
  if (typeof v === "string") return JSON.stringify(v);
  if (typeof v === "bigint" || typeof v === "boolean") return String(v);
  if (typeof v === "number") return Number.isInteger(v) ? String(v) : String(Number(v.toPrecision(12)));
  if (isDecimal(v)) {
    const s = decimalToString(v);
    const t = s.includes(".") ? s.replace(/0+$/, "").replace(/\.$/, "") : s;
    return t === "-0" ? "0" : t;
  }
  if (Array.isArray(v)) return `[${v.map(canonicalValue).join(", ")}]`;
  return String(v);
}

/** A row's text for comparison: `(v1, v2, …)`. */
export function canonicalRow(fields: readonly SqlValue[]): string {
  return `(${fields.map(canonicalValue).join(", ")})`;
}

function counts(rows: readonly Row[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const r of rows) {
    const k = canonicalRow(r.fields);
    m.set(k, (m.get(k) ?? 0) + 1);
  }
  return m;
}

/** The rows of `a` not in `b` (as multisets), sorted. */
function minus(a: Map<string, number>, b: Map<string, number>): string[] {
  const out: string[] = [];
  for (const [k, n] of a) for (let i = b.get(k) ?? 0; i < n; i++) out.push(k);
  return out.sort();
}

const SHOWN = 8;

/**
 * Compares the folded changelog of `q` with DuckDB's batch result, order
 * independently: undefined when equal, otherwise a message with the query,
 * `context` (configuration and seed) and the first differing rows.
 */
export function compareWithBatch(q: HarnessQuery, changelog: readonly Row[] | undefined, batch: Row[] | Error | undefined, context: string): string | undefined {
  const header = () =>
    `${context}: query '${q.name}'\n  Flink SQL:  ${q.flink}${q.duckdb ? `\n  DuckDB SQL: ${q.duckdb}` : ""}\n`;
  if (batch === undefined) return `${header()}  no batch result`;
  if (batch instanceof Error) return `${header()}  DuckDB failed: ${batch.message}`;
  if (changelog === undefined) return `${header()}  no changelog`;
  const table = new MultisetTable();
  try {
    table.applyAll(changelog);
  } catch (e) {
    if (!(e instanceof ChangelogRetractionError)) throw e;
    return `${header()}  the changelog is not a valid retract changelog: ${e.message} (changelog of ${changelog.length} rows)`;
  }
  const got = counts(table.rows());
  const want = counts(batch);
  const missing = minus(want, got);
  const extra = minus(got, want);
  if (missing.length === 0 && extra.length === 0) return undefined;
  const show = (rows: string[]) => rows.slice(0, SHOWN).map((r) => `\n      ${r}`).join("") + (rows.length > SHOWN ? `\n      … ${rows.length - SHOWN} more` : "");
  return (
    `${header()}  the folded changelog (${table.size} rows, from ${changelog.length} changes) differs from the batch result (${batch.length} rows):` +
    `\n    in batch only (${missing.length}):${show(missing)}` +
    `\n    in the folded changelog only (${extra.length}):${show(extra)}`
  );
}

/** A changelog as JSON-safe data (BIGINT and DECIMAL tagged), to pass from a job process to the test. */
function encodeChangelog(rows: readonly Row[]): unknown[] {
  return rows.map((r) => [r.kind, r.fields.map(encodeValue)]);
}

/** The inverse of {@link encodeChangelog}. */
function decodeChangelog(data: unknown[]): Row[] {
  return (data as [Row["kind"], unknown[]][]).map(([kind, fields]) => ({ kind, fields: fields.map(decodeValue) }));
}

function encodeValue(v: SqlValue): unknown {
  if (typeof v === "bigint") return { big: v.toString() };
  if (isDecimal(v)) return { dec: v.unscaled.toString(), scale: v.scale };
  if (Array.isArray(v)) return v.map(encodeValue);
  return v;
}

function decodeValue(v: unknown): SqlValue {
  if (Array.isArray(v)) return v.map(decodeValue);
  if (v !== null && typeof v === "object") {
    const o = v as { big?: string; dec?: string; scale?: number };
    if (o.big !== undefined) return BigInt(o.big);
    if (o.dec !== undefined) return decimal(BigInt(o.dec), o.scale!);
  }
  return v as SqlValue;
}
