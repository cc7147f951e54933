/**
 * The CDC part of the PostgreSQL bench: change events per second from a logical replication slot,
 * through the engine (PostgresSource → count, in-process, checkpoints every second) against a bare pgoutput
 * reader on the same WAL (Weir's ReplicationStream + PgoutputDecoder counting inserts: the ceiling, what
 * reading the slot costs without the engine). Both read the same `events` inserts, written beforehand in
 * transactions of 1 000 rows into a table of three columns, each from its own new slot created before the
 * inserts; each run is checked to see every event exactly once.
 *
 * Standalone: `node --import tsx bench/postgres-cdc.ts [events]` starts a private server
 * (test/support/postgres-server.ts) and prints the figures.
 */
import { performance } from "node:perf_hooks";
import { StreamExecutionEnvironment } from "../src/api/environment.ts";
import { connect } from "../src/connectors/postgres/postgres-connect.ts";
import { JdbcConnectionOptions } from "../src/connectors/postgres/jdbc-connection-options.ts";
import { PgoutputDecoder } from "../src/connectors/postgres/pgoutput-decoder.ts";
import { PostgresSource, StartupOptions } from "../src/connectors/postgres/postgres-source.ts";
import { ReplicationStream } from "../src/connectors/postgres/replication-stream.ts";
import { WatermarkStrategy } from "../src/time/watermark-strategy.ts";
import { startPostgres, type PostgresServer } from "../test/support/postgres-server.ts";
import { BenchIntegrityError } from "./integrity-error.ts";
import type { PostgresMeasure } from "./postgres.ts";

/** What the CDC measurement found. */
export interface CdcFigures {
  readonly events: number;
  /** Change events/s through the engine (PostgresSource → a counting sink). */
  readonly engine: number;
  /** Change events/s of the bare pgoutput reader. */
  readonly bareReader: number;
}

/** Where to measure. */
export interface CdcBenchTarget {
  readonly host: string;
  readonly port: number;
  /** A superuser (creates a database, slots and a publication). */
  readonly user: string;
  readonly password?: string;
}

const TXN_ROWS = 1_000;

/**
 * Measures CDC throughput on `target` (a server with `wal_level = logical`) with `events` inserts.
 *
 * @example
 * ```ts
 * const server = await startPostgres();
 * const figures = await measureCdc({ host: server.host, port: server.port, user: "postgres" }, 200_000);
 * console.log(figures.engine / figures.bareReader); // the engine's share of the bare reader's rate
 * ```
 */
export async function measureCdc(target: CdcBenchTarget, events = 200_000): Promise<CdcFigures> {
  const db = `weir_cdc_bench_${Date.now()}`;
  const admin = await connect(options(target, "postgres"), { purpose: "weir cdc bench" });
  try {
    await admin.query(`CREATE DATABASE ${db}`);
  } finally {
    await admin.end();
  }
  const conn = options(target, db);
  const client = await connect(conn, { purpose: "weir cdc bench" });
  try {
    await client.query(`CREATE TABLE events (id bigint PRIMARY KEY, name text NOT NULL, amount numeric(12,2) NOT NULL)`);
    await client.query(`CREATE PUBLICATION bench_pub FOR TABLE events`);
    // both slots exist before the inserts: each reads all of them
    await client.query(`SELECT pg_create_logical_replication_slot('bench_bare', 'pgoutput')`);
    await client.query(`SELECT pg_create_logical_replication_slot('bench_engine', 'pgoutput')`);
    for (let from = 1; from <= events; from += TXN_ROWS) {
      const to = Math.min(events, from + TXN_ROWS - 1);
      await client.query(`INSERT INTO events SELECT g, 'name-' || g, g * 1.25 FROM generate_series(${from}, ${to}) g`);
    }
    const bareReader = await bare(conn, events);
    const engine = await throughEngine(target, db, events);
    return { events, engine, bareReader };
  } finally {
    await client.end();
    const cleanup = await connect(options(target, "postgres"), { purpose: "weir cdc bench" });
    await cleanup.query(`DROP DATABASE ${db} WITH (FORCE)`).catch(() => {});
    await cleanup.end();
  }
}

function options(target: CdcBenchTarget, database: string): JdbcConnectionOptions {
  const b = JdbcConnectionOptions.builder().withUrl(`jdbc:postgresql://${target.host}:${target.port}/${database}`).withUsername(target.user);
  if (target.password !== undefined) b.withPassword(target.password);
  return b.build();
}

/** The bare reader: START_REPLICATION, decode every message, count inserts. Events/s. */
async function bare(conn: JdbcConnectionOptions, events: number): Promise<number> {
  const client = await connect(conn, { purpose: "weir cdc bench bare", replication: "database" });
  const decoder = new PgoutputDecoder();
  let inserts = 0;
  let sum = 0;
  let done!: () => void;
  const all = new Promise<void>((r) => (done = r));
  const t0 = performance.now();
  const stream = await ReplicationStream.start(client, "bench_bare", 0n, "(proto_version '1', publication_names 'bench_pub')", {
    onXLogData: (_lsn, payload, offset) => {
      const m = decoder.decode(payload, offset);
      if (m.tag === "insert") {
        inserts++;
        sum += Number(m.after[0]);
        if (inserts === events) done();
      }
    },
    onKeepalive: () => {},
  });
  await all;
  const seconds = (performance.now() - t0) / 1000;
  await stream.close();
  if (sum !== (events * (events + 1)) / 2) throw new BenchIntegrityError("CDC, bare pgoutput reader", "sum of the inserted ids", (events * (events + 1)) / 2, sum);
  return events / seconds;
}

/** PostgresSource (latest: the slot's position, before the inserts) → a counting sink, in-process. Events/s. */
async function throughEngine(target: CdcBenchTarget, db: string, events: number): Promise<number> {
  const builder = PostgresSource.builder<number>()
    .hostname(target.host)
    .port(target.port)
    .database(db)
    .tableList("public.events")
    .username(target.user)
    .slotName("bench_engine")
    .publicationName("bench_pub")
    .startupOptions(StartupOptions.latest())
    .deserializer({ deserialize: (e, out) => (e.op === "c" ? out.collect(Number(e.after!["id"])) : undefined) });
  if (target.password !== undefined) builder.password(target.password);
  const env = StreamExecutionEnvironment.create({ parallelism: 1 });
  env.enableCheckpointing(1_000);
  const results = env.fromSource(builder.build(), WatermarkStrategy.noWatermarks(), "cdc").setParallelism(1).executeAndCollect("cdc-bench", Number.MAX_SAFE_INTEGER);
  const t0 = performance.now();
  let n = 0;
  let sum = 0;
  for await (const id of results) {
    sum += id;
    if (++n === events) break;
  }
  const seconds = (performance.now() - t0) / 1000;
  if (sum !== (events * (events + 1)) / 2) throw new BenchIntegrityError("CDC, PostgresSource", "sum of the inserted ids", (events * (events + 1)) / 2, sum);
  return events / seconds;
}

/**
 * The CDC measure of the `postgres` bench section (bench/postgres.ts): its ratio and table row.
 *
 * @example
 * ```ts
 * await measurePostgres(progress, [cdcMeasure(200_000)]);
 * ```
 */
export function cdcMeasure(events = 200_000): PostgresMeasure {
  return async (server, progress) => {
    progress(`postgres: CDC of ${events.toLocaleString("en-US")} inserts, through the engine and by a bare pgoutput reader`);
    const f = await measureCdc({ host: server.host, port: server.port, user: server.user }, events);
    const ratio = f.engine / f.bareReader;
    return {
      ratios: { "postgres CDC: PostgresSource / bare pgoutput reader": ratio },
      table: [
        `| CDC (${f.events.toLocaleString("en-US")} inserts) | events/s |`,
        "|---|---:|",
        `| bare pgoutput reader (Weir's decoder, no engine) | ${Math.round(f.bareReader).toLocaleString("en-US")} |`,
        `| PostgresSource → count, exactly-once 1 s | ${Math.round(f.engine).toLocaleString("en-US")} (${ratio.toFixed(2)}) |`,
      ].join("\n"),
    };
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const events = Number(process.argv[2] ?? 200_000);
  const server: PostgresServer = await startPostgres();
  try {
    const f = await measureCdc({ host: server.host, port: server.port, user: server.user }, events);
    console.log(`CDC ${f.events} inserts: engine ${Math.round(f.engine)} events/s, bare pgoutput reader ${Math.round(f.bareReader)} events/s (engine/bare ${(f.engine / f.bareReader).toFixed(2)})`);
  } finally {
    await server.stop();
  }
}
