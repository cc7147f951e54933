/**
 * The pure part of the Nexmark section of the bench: figures of each run
 * (events/s, per core), latency percentiles, the ratios between the engine,
 * the hand-fused loop and RxJS, and their tables. No I/O, no clock.
 */
import type { CheckpointStats } from "../src/index.ts";
import { checkpointFigures, checkpointsCell, elapsedCell, millions, ms, stateSize, table, throughput, type CheckpointFigures } from "./report.ts";

/**
 * What ran a query: the engine (DataStream API), the engine from the query's SQL over a view of the
 * bids, the engine from the nexmark project's SQL on the `nexmark` connector, the hand-fused loop or
 * the RxJS pipeline.
 */
export type NexmarkRunner = "engine" | "sql" | "sql-connector" | "fused" | "rx";

/** One measured run of a Nexmark query. */
export interface NexmarkRunFigures {
  readonly query: string;
  /** e.g. `"2 workers, exactly-once 1 s"`, `"fused loop"`. */
  readonly label: string;
  readonly runner: NexmarkRunner;
  /** Worker threads of an engine run (0: in-process). */
  readonly workers: number;
  /** Threads doing the work: the worker threads, or 1 (in-process runs and the baselines run in one thread). */
  readonly cores: number;
  readonly checkpointIntervalMs: number;
  readonly events: number;
  /** Wall time, start-up included. */
  readonly elapsedMs: number;
  /**
   * Wall time of an engine run outside its processing (starting worker threads, importing the job
   * module in them, deploying, tearing down), subtracted from the elapsed time; 0 for the baselines.
   */
  readonly startupMs: number;
  /** Events per second over `elapsedMs - startupMs`. */
  readonly eventsPerSecond: number;
  readonly eventsPerSecondPerCore: number;
  /** Rows the query emitted. */
  readonly rows: number;
  readonly checkpointsCompleted: number;
  /** Of checkpointed runs. */
  readonly checkpoints: CheckpointFigures | null;
}

/** End-to-end latency of a rate-limited run: arrival at the sink − when the row's event was due at the source (bench/jobs/nexmark/nexmark-job.ts). */
export interface NexmarkLatencyFigures {
  readonly query: string;
  readonly label: string;
  /** Events per second the source emitted. */
  readonly rate: number;
  readonly events: number;
  /** Rows measured. */
  readonly rows: number;
  readonly p50Ms: number | undefined;
  readonly p99Ms: number | undefined;
  readonly maxMs: number | undefined;
}

/** The ratios of one query, from runs of the same process run. */
export interface NexmarkRatios {
  readonly query: string;
  /** Engine in-process, exactly-once 1 s / fused loop (events/s). */
  readonly engineOverFused: number | undefined;
  /** RxJS / fused loop. */
  readonly rxOverFused: number | undefined;
  /** Engine in-process, exactly-once 1 s / RxJS. */
  readonly engineOverRx: number | undefined;
  /** Engine in-process: exactly-once 1 s / no checkpoints. */
  readonly exactlyOnceOverNone: number | undefined;
  /** Engine exactly-once 1 s: 2 workers / 1 worker. */
  readonly twoWorkersOverOne: number | undefined;
  /** In-process, exactly-once 1 s: the query from SQL / on the DataStream API. */
  readonly sqlOverDataStream: number | undefined;
}

/** One of the nexmark project's SQL queries on the `nexmark` connector: its run, or why it does not run. */
export interface NexmarkSqlFigures {
  readonly query: string;
  /** In-process, exactly-once 1 s; absent when Weir refuses the query. */
  readonly run?: NexmarkRunFigures;
  /** Weir's planning error, for a refused query. */
  readonly refused?: string;
  /** The published Flink events/s per core (bench/jobs/nexmark/flink-figures.ts). */
  readonly flinkPerCore?: number;
  /** events/s of this run / the DataStream version's in-process exactly-once 1 s run, where the query has one. */
  readonly overDataStream?: number;
}

/** Everything the Nexmark section reports. */
export interface NexmarkFigures {
  readonly parallelism: number;
  readonly outOfOrdernessMs: number;
  /** Name and one-line description of each query that ran. */
  readonly queries: readonly { readonly name: string; readonly description: string }[];
  readonly runs: readonly NexmarkRunFigures[];
  readonly latency: readonly NexmarkLatencyFigures[];
  readonly ratios: readonly NexmarkRatios[];
  /** The nexmark project's SQL queries on the `nexmark` connector (parallelism, out-of-orderness and event rate as above). */
  readonly sql: readonly NexmarkSqlFigures[];
}

/**
 * Figures of one run of `events` events.
 *
 * @example
 * ```ts
 * nexmarkRunFigures({ query: "q0", label: "fused loop", runner: "fused", workers: 0, checkpointIntervalMs: 0, events: 1e6, elapsedMs: 500, startupMs: 0, rows: 920_000, checkpoints: null }).eventsPerSecond; // 2e6
 * ```
 */
export function nexmarkRunFigures(r: {
  readonly query: string;
  readonly label: string;
  readonly runner: NexmarkRunner;
  readonly workers: number;
  readonly checkpointIntervalMs: number;
  readonly events: number;
  readonly elapsedMs: number;
  readonly startupMs: number;
  readonly rows: number;
  readonly checkpoints: CheckpointStats | null;
}): NexmarkRunFigures {
  const eventsPerSecond = throughput(r.events, r.elapsedMs, r.startupMs);
  const cores = Math.max(1, r.workers);
  const cp = checkpointFigures(r.checkpoints);
  return {
    query: r.query,
    label: r.label,
    runner: r.runner,
    workers: r.workers,
    cores,
    checkpointIntervalMs: r.checkpointIntervalMs,
    events: r.events,
    elapsedMs: r.elapsedMs,
    startupMs: r.startupMs,
    eventsPerSecond,
    eventsPerSecondPerCore: eventsPerSecond / cores,
    rows: r.rows,
    checkpointsCompleted: cp.completed,
    checkpoints: r.checkpointIntervalMs > 0 ? cp : null,
  };
}

/**
 * Percentiles (nearest rank, as `percentile` of src/checkpoint/coordinator) of the latencies of a run.
 *
 * @example
 * ```ts
 * latencyFigures("q0", "in-process", 100_000, 300_000, [3, 1, 2]).p50Ms; // 2
 * ```
 */
export function latencyFigures(query: string, label: string, rate: number, events: number, latenciesMs: readonly number[]): NexmarkLatencyFigures {
  const sorted = Float64Array.from(latenciesMs).sort();
  const at = (p: number) => (sorted.length === 0 ? undefined : sorted[Math.max(1, Math.ceil((p / 100) * sorted.length)) - 1]);
  return { query, label, rate, events, rows: sorted.length, p50Ms: at(50), p99Ms: at(99), maxMs: at(100) };
}

/** The ratios of each query of `runs` (undefined where a run is missing). */
export function nexmarkRatios(runs: readonly NexmarkRunFigures[]): NexmarkRatios[] {
  const queries = [...new Set(runs.map((r) => r.query))];
  return queries.map((query) => {
    const rate = (runner: NexmarkRunner, workers = 0, checkpointed = runner === "engine" || runner === "sql") =>
      runs.find((r) => r.query === query && r.runner === runner && r.workers === workers && r.checkpointIntervalMs > 0 === checkpointed)?.eventsPerSecond;
    const ratio = (a: number | undefined, b: number | undefined) => (a === undefined || b === undefined ? undefined : a / b);
    const engine = rate("engine");
    return {
      query,
      engineOverFused: ratio(engine, rate("fused")),
      rxOverFused: ratio(rate("rx"), rate("fused")),
      engineOverRx: ratio(engine, rate("rx")),
      exactlyOnceOverNone: ratio(engine, rate("engine", 0, false)),
      twoWorkersOverOne: ratio(rate("engine", 2), rate("engine", 1)),
      sqlOverDataStream: ratio(rate("sql"), engine),
    };
  });
}

/** The tables of the Nexmark section: runs, checkpoints, latency, ratios, then the SQL queries on the connector. */
export function formatNexmark(f: NexmarkFigures): string {
  const dataStream = f.runs.length === 0 ? [] : formatDataStreamRuns(f);
  const sql = f.sql.length === 0 ? [] : [formatNexmarkSql(f.sql)];
  return [...dataStream, ...(dataStream.length > 0 && sql.length > 0 ? [""] : []), ...sql].join("\n");
}

/** The lines of the runs, checkpoints, latency and ratios tables. */
function formatDataStreamRuns(f: NexmarkFigures): string[] {
  const ratio = (v: number | undefined) => (v === undefined ? "-" : v.toFixed(3));
  const lines = [
    `nexmark: NexmarkSource (events out of order by up to ${f.outOfOrdernessMs / 1000} s, watermarks as far behind) → query → sink digesting the rows, parallelism ${f.parallelism}`,
    ...f.queries.map((q) => `  ${q.name}: ${q.description}`),
    "  fused loop / RxJS: the same query as one plain loop / an RxJS pipeline over the same generator, in one thread; per core: events/s ÷ threads doing the work",
    "",
    table(
      ["nexmark run", "events", "elapsed", "start-up", "events/s", "per core", "rows", "checkpoints"],
      f.runs.map((r) => [
        `${r.query} ${r.label}`,
        millions(r.events),
        elapsedCell(r),
        r.startupMs > 0 ? `${Math.round(r.startupMs)} ms` : "-",
        millions(r.eventsPerSecond),
        millions(r.eventsPerSecondPerCore),
        millions(r.rows),
        r.runner === "engine" || r.runner === "sql" ? checkpointsCell(r) : "-",
      ]),
    ),
  ];
  const checkpointed = f.runs.filter((r) => r.checkpoints !== null);
  if (checkpointed.length > 0)
    lines.push(
      "",
      table(
        ["nexmark checkpoints of", "completed", "failed", "duration p50", "p99", "alignment p99", "state"],
        checkpointed.map((r) => {
          const c = r.checkpoints!;
          return [`${r.query} ${r.label}`, String(c.completed), String(c.failed), ms(c.durationP50Ms), ms(c.durationP99Ms), ms(c.alignmentP99Ms), stateSize(c.stateBytes)];
        }),
      ),
    );
  if (f.latency.length > 0)
    lines.push(
      "",
      "nexmark latency: rate-limited source (event n due at the reader's start + n / rate), exactly-once 1 s; arrival at the sink − due time of the row's bid, after the first second",
      "",
      table(
        ["nexmark latency of", "rate", "events", "rows", "p50", "p99", "max"],
        f.latency.map((l) => [`${l.query} ${l.label}`, `${millions(l.rate)}/s`, millions(l.events), millions(l.rows), latencyCell(l.p50Ms), latencyCell(l.p99Ms), latencyCell(l.maxMs)]),
      ),
    );
  if (f.ratios.length > 0)
    lines.push(
      "",
      table(
        ["nexmark ratios", "engine/fused", "RxJS/fused", "engine/RxJS", "exactly-once/none", "2 workers/1", "SQL/DataStream"],
        f.ratios.map((r) => [r.query, ratio(r.engineOverFused), ratio(r.rxOverFused), ratio(r.engineOverRx), ratio(r.exactlyOnceOverNone), ratio(r.twoWorkersOverOne), ratio(r.sqlOverDataStream)]),
      ),
      "  engine: in-process, exactly-once 1 s; exactly-once/none: in-process; 2 workers/1: exactly-once 1 s; SQL/DataStream: in-process, exactly-once 1 s; ratios of events/s",
    );
  return lines;
}

/**
 * The table of the SQL queries on the `nexmark` connector.
 *
 * @example
 * ```ts
 * formatNexmarkSql([{ query: "q6", refused: "Column 'rownum' not found in any table" }]);
 * ```
 */
export function formatNexmarkSql(sql: readonly NexmarkSqlFigures[]): string {
  return [
    "nexmark SQL: the nexmark project's queries (bench/jobs/nexmark/sql/) on the nexmark connector, in-process (one core), exactly-once every 1 s;",
    "  Flink per core: the nexmark project's published figures (other machines, parallelism 8, 10 M events/s of event time): context, not a comparison on this machine",
    "",
    table(
      ["nexmark SQL", "events", "elapsed", "events/s per core", "Flink per core", "SQL/DataStream", "rows", "checkpoints"],
      sql.map((q) => {
        const r = q.run;
        const flink = q.flinkPerCore === undefined ? "-" : millions(q.flinkPerCore);
        const ratio = q.overDataStream === undefined ? "-" : q.overDataStream.toFixed(3);
        if (r === undefined) return [q.query, "-", "refused", "-", flink, "-", "-", "-"];
        return [q.query, millions(r.events), elapsedCell(r), millions(r.eventsPerSecondPerCore), flink, ratio, millions(r.rows), checkpointsCell(r)];
      }),
    ),
    "  SQL/DataStream: events/s of the SQL query / of the DataStream version (bench/jobs/nexmark/q*.ts), both in-process, exactly-once 1 s; rows: changelog rows",
    ...sql.filter((q) => q.refused !== undefined).map((q) => `  ${q.query} refused: ${q.refused!.split("\n")[0]}`),
  ].join("\n");
}

/** Latencies with one decimal below 10 ms. */
function latencyCell(v: number | undefined): string {
  return v === undefined ? "-" : v < 10 ? `${v.toFixed(1)} ms` : ms(v);
}
