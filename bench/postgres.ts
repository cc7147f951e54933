/**
 * The PostgreSQL part of `npm run bench` (`--only postgres`): a private server (test/support/postgres-server.ts),
 * and in one run, rows/s written into a table with a primary key by
 * - the `pg` client's own batched multi-row INSERT … ON CONFLICT (one connection per writer, the engine's
 *   parallelism, 5000 rows per statement, a named statement parsed once per connection): the ceiling;
 * - a job (numbers → JdbcSink upsert `INSERT … ON CONFLICT (id) DO UPDATE`, in-process at parallelism 2,
 *   batches of 5000) at-least-once, checkpoints every second;
 * - the same exactly-once (one prepared transaction per subtask per checkpoint).
 * Every run is checked: the table holds one row per input. Other PostgreSQL measurements (the CDC source:
 * bench/postgres-cdc.ts) join through `measurePostgres(progress, more)`, on the same server.
 */
import { performance } from "node:perf_hooks";
import pg from "pg";
import { RestartStrategies, StreamExecutionEnvironment } from "../src/index.ts";
import { JdbcSink } from "../src/connectors/postgres/index.ts";
import { startPostgres, type PostgresServer } from "../test/support/postgres-server.ts";
import { BenchIntegrityError } from "./integrity-error.ts";
import { throughput } from "./report.ts";

const ROWS = 400_000;
const PARALLELISM = 2;
const BATCH = 5_000;
const CHECKPOINT_INTERVAL_MS = 1_000;
const DATABASE = "bench";
const UPSERT = "INSERT INTO t (id, k, amount) VALUES (?, ?, ?) ON CONFLICT (id) DO UPDATE SET k = EXCLUDED.k, amount = EXCLUDED.amount";

/** Another measurement on the bench's server (e.g. CDC): its ratios and its table. */
export type PostgresMeasure = (server: PostgresServer, progress: (line: string) => void) => Promise<{ ratios: Record<string, number>; table: string }>;

/** What the PostgreSQL section measured. */
export interface PostgresFigures {
  readonly rows: number;
  /** rows/s: the client's own multi-row inserts, the upsert sink at-least-once, exactly-once. */
  readonly clientInserts: number;
  readonly upsert: number;
  readonly exactlyOnce: number;
  /** What the `more` measures gave. */
  readonly more: readonly { ratios: Record<string, number>; table: string }[];
}

async function freshTable(server: PostgresServer): Promise<void> {
  await server.query("DROP TABLE IF EXISTS t", [], DATABASE);
  await server.query("CREATE TABLE t (id BIGINT PRIMARY KEY, k TEXT NOT NULL, amount INTEGER NOT NULL)", [], DATABASE);
}

async function expectRows(server: PostgresServer, label: string): Promise<void> {
  const [r] = await server.query<{ c: string; s: string }>("SELECT count(*) AS c, sum(id) AS s FROM t", [], DATABASE);
  if (Number(r!.c) !== ROWS || BigInt(r!.s) !== (BigInt(ROWS - 1) * BigInt(ROWS)) / 2n) throw new BenchIntegrityError(`postgres: ${label}`, "rows", ROWS, Number(r!.c));
}

/** The ceiling: `PARALLELISM` connections, each inserting its share in multi-row statements of `BATCH` rows. */
async function clientInsertsMs(server: PostgresServer): Promise<number> {
  const started = performance.now();
  await Promise.all(
    Array.from({ length: PARALLELISM }, async (_, w) => {
      const client = new pg.Client(server.config(DATABASE));
      await client.connect();
      try {
        const [from, to] = [Math.floor((ROWS * w) / PARALLELISM), Math.floor((ROWS * (w + 1)) / PARALLELISM)];
        for (let start = from; start < to; start += BATCH) {
          const end = Math.min(to, start + BATCH);
          const values: unknown[] = [];
          const rows: string[] = [];
          for (let id = start; id < end; id++) {
            const n = values.length;
            rows.push(`($${n + 1}, $${n + 2}, $${n + 3})`);
            values.push(id, `k${id % 1000}`, id % 997);
          }
          const text = `INSERT INTO t (id, k, amount) VALUES ${rows.join(",")} ON CONFLICT (id) DO UPDATE SET k = EXCLUDED.k, amount = EXCLUDED.amount`;
          // a full batch is a named statement, parsed and planned once per connection (as the sink does)
          await client.query(end - start === BATCH ? { name: "bench_insert", text, values } : { text, values });
        }
      } finally {
        await client.end();
      }
    }),
  );
  return performance.now() - started;
}

/** numbers → JdbcSink upsert, in-process. */
async function sinkMs(server: PostgresServer, guarantee: "at-least-once" | "exactly-once"): Promise<number> {
  const env = StreamExecutionEnvironment.create({ parallelism: PARALLELISM });
  env.enableCheckpointing(CHECKPOINT_INTERVAL_MS, "exactly-once");
  env.setRestartStrategy(RestartStrategies.noRestart());
  env
    .fromSequence(0, ROWS - 1)
    .uid("numbers")
    .sinkTo(JdbcSink.forStatement<number>(UPSERT, (id) => [id, `k${id % 1000}`, id % 997], { url: server.jdbcUrl(DATABASE), batchSize: BATCH, deliveryGuarantee: guarantee, transactionIdPrefix: `bench-${guarantee}` }))
    .uid("jdbc-out");
  const started = performance.now();
  await env.execute(`postgres-${guarantee}`);
  return performance.now() - started;
}

/**
 * Starts a server, runs the measurements (then `more`), stops it.
 *
 * @example
 * ```ts
 * const p = await measurePostgres((line) => console.error(line));
 * console.log(p.exactlyOnce / p.clientInserts);
 * ```
 */
export async function measurePostgres(progress: (line: string) => void, more: readonly PostgresMeasure[] = []): Promise<PostgresFigures> {
  progress("postgres: starting a private server");
  const server = await startPostgres();
  try {
    await server.createDatabase(DATABASE);
    await freshTable(server);
    progress(`postgres: the pg client's own multi-row INSERTs, ${ROWS.toLocaleString("en-US")} rows`);
    const clientInserts = throughput(ROWS, await clientInsertsMs(server));
    await expectRows(server, "client inserts");
    const rates: Record<string, number> = {};
    for (const guarantee of ["at-least-once", "exactly-once"] as const) {
      await freshTable(server);
      progress(`postgres: numbers → JdbcSink upsert, ${guarantee}, checkpoints every ${CHECKPOINT_INTERVAL_MS} ms`);
      rates[guarantee] = throughput(ROWS, await sinkMs(server, guarantee));
      await expectRows(server, guarantee);
    }
    const extra = [];
    for (const m of more) extra.push(await m(server, progress));
    return { rows: ROWS, clientInserts, upsert: rates["at-least-once"]!, exactlyOnce: rates["exactly-once"]!, more: extra };
  } finally {
    await server.stop();
  }
}

/** The section's ratios for the report. */
export function postgresRatios(p: PostgresFigures): Record<string, number> {
  return Object.assign(
    {
      "postgres: upsert sink at-least-once / client's multi-row inserts": p.upsert / p.clientInserts,
      "postgres: upsert sink exactly-once / client's multi-row inserts": p.exactlyOnce / p.clientInserts,
      "postgres: exactly-once / at-least-once": p.exactlyOnce / p.upsert,
    },
    ...p.more.map((m) => m.ratios),
  );
}

/** The section as a table. */
export function formatPostgres(p: PostgresFigures): string {
  const rate = (n: number) => `${Math.round(n).toLocaleString("en-US")}/s`;
  return [
    `Rows into PostgreSQL (${p.rows.toLocaleString("en-US")} rows, upsert into a table with a primary key, parallelism ${PARALLELISM}, batches of ${BATCH}, in-process)`,
    "| run | rows/s |",
    "|---|---|",
    `| pg client's own multi-row INSERT … ON CONFLICT, ${PARALLELISM} connections | ${rate(p.clientInserts)} |`,
    `| JdbcSink upsert, at-least-once, checkpoints every ${CHECKPOINT_INTERVAL_MS} ms | ${rate(p.upsert)} |`,
    `| JdbcSink upsert, exactly-once, checkpoints every ${CHECKPOINT_INTERVAL_MS} ms | ${rate(p.exactlyOnce)} |`,
    ...p.more.map((m) => `\n${m.table}`),
  ].join("\n");
}
