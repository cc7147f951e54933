/**
 * A Nexmark query on the engine: `NexmarkSource` → the query's DataStream
 * pipeline → a sink that counts and digests the rows (and, when asked,
 * collects them or measures their latency). Or one of the nexmark project's
 * SQL queries (bench/jobs/nexmark/sql-queries.ts), or the SQL twin of a
 * DataStream query (sql-twins.ts), on the `nexmark` table connector → the
 * same sink, counting the rows of its changelog (and digesting them as the
 * DataStream version's rows: always for a twin, when asked for a published
 * query). In-process runs also measure the GC pauses of the thread (bench/gc-time.ts). In-process or on worker threads:
 * each worker imports this module again and rebuilds the same graph from the
 * run's parameters in the `WEIR_BENCH_NEXMARK` environment variable (a
 * worker's `process.env` is a copy of its parent's at creation).
 */
import { performance } from "node:perf_hooks";
import {
  NexmarkSource,
  StreamExecutionEnvironment,
  WatermarkStrategy,
  isWorker,
  type CheckpointStats,
  type NexmarkEvent,
  type Row,
  type Sink,
} from "../../../src/index.ts";
import type { NexmarkQueryName } from "./nexmark-query.ts";
import { QUERIES } from "./queries.ts";
import { combineResults, type QueryResult } from "./query-result.ts";
import { withCheckpointDir } from "../checkpoint-dir.ts";
import { StreamTableEnvironment } from "../../../src/table/api/table-environment.ts";
import { nexmarkSqlScript, type NexmarkSqlQueryName } from "./sql-queries.ts";
import { hasSqlTwin, nexmarkTwinScript } from "./sql-twins.ts";
import { measureGcTime } from "../../gc-time.ts";
import { markedSource } from "../source-marks.ts";

/** The environment variable that carries a run's parameters to the worker threads. */
const PARAMS_VARIABLE = "WEIR_BENCH_NEXMARK";
const RESULT = "nexmark-result";
/** The in-memory storage of the final checkpoint of runs without periodic checkpoints holds this much per state. */
const IN_MEMORY_STATE_LIMIT = 256 * 2 ** 20;

/** The source of a run: plain data (it crosses to the workers as JSON). */
export interface NexmarkSourceParams {
  readonly events: number;
  readonly eventsPerSecond?: number;
  readonly maxOutOfOrdernessMs: number;
  /** Emit at `eventsPerSecond` (each reader's schedule starting with its first poll) instead of as fast as possible. */
  readonly rateLimited?: boolean;
}

/** One run of a query on the engine. */
export interface NexmarkRunParams {
  /** A query of the DataStream bench, or with `connector` a published SQL query. */
  readonly query: NexmarkQueryName | NexmarkSqlQueryName;
  readonly source: NexmarkSourceParams;
  readonly parallelism: number;
  /** Worker threads; 0 runs every task in this thread. */
  readonly workers: number;
  /** Exactly-once checkpoints to a temporary directory every so many ms; 0: none. */
  readonly checkpointIntervalMs: number;
  /** Keep every row (the full check against the fused loop). */
  readonly collect?: boolean;
  /**
   * Run the nexmark project's SQL text of `query` on the `nexmark` connector (the
   * source's events, rate and out-of-orderness as its options): rows are counted,
   * not digested, unless `digest`: then each row becomes the DataStream version's output
   * row (its `sqlRow`, which the query must have) and is digested as such. `dir` holds q13's side input (and is q10's `${NEXMARK_DIR}`).
   * With `twin`, run the query's SQL twin (sql-twins.ts) instead, always digested (no `dir`: a twin reads no file).
   */
  readonly connector?: { readonly dir: string; readonly digest?: boolean } | { readonly twin: true };
  /**
   * With a rate-limited source and a query whose rows have an event time: measure the latency of
   * the rows whose events were due at least this many ms after the first row's.
   */
  readonly latencyAfterMs?: number;
  /**
   * DataStream queries: a marker chained to the source writes the instant of every `SOURCE_MARK_EVERY`-th event
   * of each reader into this folder (bench/jobs/source-marks.ts), for the run's steady-state throughput.
   */
  readonly marksDir?: string;
}

/** What one run measured. */
export interface NexmarkRunMeasurement extends QueryResult {
  /** Wall time from `executeAsync` to the job's result. */
  readonly elapsedMs: number;
  /**
   * From the start of the first sink subtask to the end of input at the last one: the run
   * without starting worker threads, importing the job module in them, deploying and tearing down.
   */
  readonly processingMs: number;
  /** Rows, when collected. */
  readonly collected: unknown[];
  /** With `latencyAfterMs`: arrival at the sink − when the row's event was due, in ms (see `resultSink`). */
  readonly latenciesMs: number[];
  readonly checkpoints: CheckpointStats | null;
  /** In-process runs: GC pauses of this thread during the run, in ms (undefined on worker threads). */
  readonly gcMs: number | undefined;
}

/** What a sink subtask reports. */
type SinkReport = [rows: number, digest: number, latenciesMs: number[], collected: unknown[], startedAt: number, finishedAt: number];

/** Wall-clock ms since the epoch, sub-millisecond, comparable between threads. */
function wallNow(): number {
  return performance.timeOrigin + performance.now();
}

/**
 * Counts and digests the rows; collects them or measures latencies when asked. A row's latency is
 * its arrival − when its event was due at the source. Event n is due at the reader's start +
 * n / rate and its time is baseTime + ⌊n · 1000 / rate⌋ ms (no lag in latency runs), so arrival −
 * event time is the latency plus a constant of the subtask (within 1 ms). The least of these over
 * the subtask's rows stands for the constant (at half load some row goes through at once), so the
 * latencies are relative to the fastest row; rows due in the first `latencyAfterMs` are left out
 * (a worker's code warms up). Source and sink must be chained (q0, q1): a sink subtask then gets
 * the rows of one reader. A SQL run's rows are read as the DataStream version's rows through
 * `asDataStreamRow` (its `sqlRow`) in the sink itself, as a DataStream run's sink reads its records:
 * no operator of the bench's own between the query and its sink.
 */
function resultSink(p: NexmarkRunParams, asDataStreamRow?: (r: Row) => unknown): Sink<unknown> {
  const query = p.connector === undefined || digested(p.connector) ? dataStreamQuery(p) : undefined;
  const eventTimeOf = p.latencyAfterMs === undefined ? undefined : query?.eventTimeOf;
  const after = p.latencyAfterMs ?? 0;
  return {
    createWriter(context) {
      const startedAt = wallNow();
      let rows = 0;
      let digest = 0;
      const collected: unknown[] = [];
      /** Arrival − event time of the measured rows, and the least over all rows. */
      const offsets: number[] = [];
      let leastOffset = Number.POSITIVE_INFINITY;
      let firstEventTime: number | undefined;
      return {
        write(written) {
          const row = asDataStreamRow ? asDataStreamRow(written as Row) : written;
          rows++;
          if (query) digest = (digest + query.digest(row)) >>> 0;
          if (p.collect) collected.push(row);
          if (eventTimeOf) {
            const t = eventTimeOf(row);
            const offset = wallNow() - t;
            if (offset < leastOffset) leastOffset = offset;
            firstEventTime ??= t;
            if (t - firstEventTime >= after) offsets.push(offset);
          }
        },
        finish: () => {
          const latencies = offsets.map((o) => o - leastOffset);
          context.reportResult(RESULT, [[rows, digest, latencies, collected, startedAt, wallNow()] satisfies SinkReport]);
        },
      };
    },
  };
}

/**
 * The sources' periodic watermark interval of every run. The bench's event time runs about a thousand times faster
 * than the clock (1 000 events per second of event time, read at about a million a second), so Flink's default of
 * 200 ms let about 200 s of event time (twenty 10 s windows) pile up behind each watermark: state that no deployment
 * whose event time follows the clock holds, and that every checkpoint wrote (published q7's interval join held
 * 38 000–75 000 bids per subtask). 20 ms keeps that lag at a few windows; the rows do not depend on it (no event is
 * later than the watermark delay allows)
 * (docs/benchmarks.md, "The watermark interval of the runs").
 */
export const NEXMARK_WATERMARK_INTERVAL_MS = 20;

/** Creates the environment of a run with the query's graph (the same in the bench process and in every worker). */
function environmentOf(p: NexmarkRunParams, checkpointDir: string | undefined): StreamExecutionEnvironment {
  const env = StreamExecutionEnvironment.create({
    parallelism: p.parallelism,
    workers: p.workers,
    autoWatermarkInterval: NEXMARK_WATERMARK_INTERVAL_MS,
    fresh: true,
    log: () => {},
    ...(p.workers > 0 ? { jobModule: import.meta.url } : {}),
  });
  if (p.checkpointIntervalMs > 0) {
    env.enableCheckpointing(p.checkpointIntervalMs, "exactly-once");
    if (checkpointDir) env.getCheckpointConfig().setCheckpointStorage(checkpointDir);
  } else env.getCheckpointConfig().setCheckpointStorage({ type: "jobmanager", maxStateSize: IN_MEMORY_STATE_LIMIT });
  const s = p.source;
  if (p.connector !== undefined) {
    const tEnv = StreamTableEnvironment.create(env);
    const stream = { events: s.events, eventsPerSecond: s.eventsPerSecond ?? 10_000, outOfOrdernessMs: s.maxOutOfOrdernessMs };
    let script: { readonly setup: readonly string[]; readonly select: string };
    if ("dir" in p.connector) script = nexmarkSqlScript(p.query as NexmarkSqlQueryName, { ...stream, dir: p.connector.dir });
    else if (hasSqlTwin(p.query)) script = nexmarkTwinScript(p.query, stream);
    else throw new Error(`nexmark ${p.query} has no SQL twin (bench/jobs/nexmark/sql-twins.ts)`);
    for (const statement of script.setup) tEnv.executeSql(statement);
    const changelog = tEnv.toChangelogStream(tEnv.sqlQuery(script.select));
    if (digested(p.connector)) {
      const row = dataStreamQuery(p).sqlRow;
      if (row === undefined) throw new Error(`nexmark ${p.query}: its SQL does not give the DataStream version's rows (no 'sqlRow'), so they cannot be digested as those`);
      changelog.sinkTo(resultSink(p, row)).uid("result");
    } else changelog.sinkTo(resultSink(p)).uid("result");
    return env;
  }
  const source = NexmarkSource.create({
    events: s.events,
    eventsPerSecond: s.eventsPerSecond,
    maxOutOfOrdernessMs: s.maxOutOfOrdernessMs,
    rateLimited: s.rateLimited ?? false,
  });
  const events = env.fromSource(source, WatermarkStrategy.forBoundedOutOfOrderness<NexmarkEvent>(s.maxOutOfOrdernessMs), "nexmark").uid("nexmark");
  dataStreamQuery(p)
    .build(p.marksDir === undefined ? events : markedSource(events, p.marksDir))
    .sinkTo(resultSink(p))
    .uid("result");
  return env;
}

/** Whether the SQL run's rows are digested as the DataStream version's. */
function digested(connector: NonNullable<NexmarkRunParams["connector"]>): boolean {
  return "twin" in connector || connector.digest === true;
}

function dataStreamQuery(p: NexmarkRunParams) {
  const query = QUERIES[p.query as NexmarkQueryName];
  if (query === undefined) throw new Error(`nexmark ${p.query} has no DataStream version: run it with 'connector'`);
  return query;
}

/**
 * Runs one query on the engine and measures it.
 *
 * @example
 * ```ts
 * const m = await runNexmarkQuery({ query: "q5", source: { events: 1_000_000, maxOutOfOrdernessMs: 4_000 }, parallelism: 2, workers: 0, checkpointIntervalMs: 1_000 });
 * console.log(m.rows, m.digest, m.elapsedMs);
 * ```
 */
export async function runNexmarkQuery(params: NexmarkRunParams): Promise<NexmarkRunMeasurement> {
  return withCheckpointDir(params.checkpointIntervalMs, async (dir) => {
    try {
      process.env[PARAMS_VARIABLE] = JSON.stringify(params);
      const env = environmentOf(params, dir);
      const started = performance.now();
      let elapsedMs = 0;
      const run = async () => {
        const r = await (await env.executeAsync(`bench-nexmark-${params.query}`)).getJobExecutionResult();
        elapsedMs = performance.now() - started;
        return r;
      };
      const { result, gcMs } = params.workers === 0 ? await measureGcTime(run) : { result: await run(), gcMs: undefined };
      const reports = result.getCollected<SinkReport>(RESULT);
      return {
        ...combineResults(reports.map(([rows, digest]) => ({ rows, digest }))),
        elapsedMs,
        processingMs: Math.max(...reports.map((r) => r[5])) - Math.min(...reports.map((r) => r[4])),
        collected: reports.flatMap((r) => r[3]),
        latenciesMs: reports.flatMap((r) => r[2]),
        checkpoints: result.checkpoints,
        gcMs,
      };
    } finally {
      delete process.env[PARAMS_VARIABLE];
    }
  });
}

if (isWorker()) {
  const raw = process.env[PARAMS_VARIABLE];
  if (!raw) throw new Error(`bench/jobs/nexmark/nexmark-job.ts: a worker found no ${PARAMS_VARIABLE} (start the job with runNexmarkQuery)`);
  // A worker hands the graph to its runtime and never resolves: do not await it.
  void environmentOf(JSON.parse(raw) as NexmarkRunParams, undefined).executeAsync("bench-nexmark");
}
