/**
 * The pure part of the Nexmark section of the bench: figures of each run
 * (events/s, per core, GC share), latency percentiles, the ratios between the
 * engine, the hand-fused loop, RxJS, the SQL twins and the published SQL, the
 * targets of the second performance round they meet or not, and their tables. No I/O, no clock.
 */
import type { CheckpointStats } from "../src/index.ts";
import { gcShare } from "./gc-time.ts";
import { checkpointFigures, checkpointsCell, elapsedCell, millions, ms, stateSize, table, throughput, type CheckpointFigures } from "./report.ts";

/**
 * What ran a query: the engine (DataStream API), the engine from the nexmark project's SQL on the
 * `nexmark` connector, the engine from the query's SQL twin on that connector
 * (bench/jobs/nexmark/sql-twins.ts), the hand-fused loop or the RxJS pipeline.
 */
export type NexmarkRunner = "engine" | "sql-connector" | "sql-twin" | "fused" | "rx";

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
  /** In-process engine runs: GC pauses of the thread / the run's wall time (bench/gc-time.ts); undefined where not measured. */
  readonly gcShare: number | undefined;
  /**
   * Worker runs: events/s from 20 % to 90 % of the events (marks next to the source, bench/jobs/source-marks.ts):
   * without the fresh threads' warm-up. Undefined for other runs.
   */
  readonly steadyEventsPerSecond: number | undefined;
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
  /** Engine exactly-once 1 s: 2 workers / 1 worker, in the steady state (`steadyEventsPerSecond`). */
  readonly twoWorkersOverOne: number | undefined;
  /** SQL twin / engine, both in-process, exactly-once 1 s. */
  readonly twinOverEngine: number | undefined;
  /** SQL twin in-process: exactly-once 1 s / no checkpoints. */
  readonly twinExactlyOnceOverNone: number | undefined;
  /** Published SQL / engine, both in-process, exactly-once 1 s. */
  readonly publishedOverEngine: number | undefined;
}

/** A figure of the second performance round against its target. */
export interface NexmarkTarget {
  /** What is compared, e.g. `"SQL twin / DataStream"`. */
  readonly figure: string;
  readonly query: string;
  /** Undefined when a run is missing. */
  readonly value: number | undefined;
  /** Met when `value >= min`, or `value <= max`. */
  readonly min?: number;
  readonly max?: number;
  readonly met: boolean | undefined;
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
  /** The ratios and GC shares with a target of the second performance round (`nexmarkTargets`). */
  readonly targets: readonly NexmarkTarget[];
}

/**
 * Figures of one run of `events` events.
 *
 * @example
 * ```ts
 * nexmarkRunFigures({ query: "q0", label: "fused loop", runner: "fused", workers: 0, checkpointIntervalMs: 0, events: 1e6, elapsedMs: 500, startupMs: 0, rows: 920_000, checkpoints: null }).eventsPerSecond; // 2e6
 * nexmarkRunFigures({ query: "q5", label: "SQL twin", runner: "sql-twin", workers: 0, checkpointIntervalMs: 0, events: 1e6, elapsedMs: 4_000, startupMs: 100, rows: 42, checkpoints: null, gcMs: 400 }).gcShare; // 0.1
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
  /** GC pauses during the run, where measured (in-process runs). */
  readonly gcMs?: number | undefined;
  /** Events/s in the steady state, where measured (worker runs). */
  readonly steadyEventsPerSecond?: number | undefined;
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
    gcShare: gcShare(r.gcMs, r.elapsedMs),
    steadyEventsPerSecond: r.steadyEventsPerSecond,
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

/** The ratios of each query of `runs` (undefined where a run is missing); `sql`: the published SQL runs. */
export function nexmarkRatios(runs: readonly NexmarkRunFigures[], sql: readonly NexmarkSqlFigures[] = []): NexmarkRatios[] {
  const queries = [...new Set(runs.map((r) => r.query))];
  return queries.map((query) => {
    const run = (runner: NexmarkRunner, workers = 0, checkpointed = runner === "engine" || runner === "sql-twin") =>
      runs.find((r) => r.query === query && r.runner === runner && r.workers === workers && r.checkpointIntervalMs > 0 === checkpointed);
    const rate = (runner: NexmarkRunner, workers = 0, checkpointed?: boolean) => run(runner, workers, checkpointed)?.eventsPerSecond;
    /** Worker runs compare in the steady state where both measured it. */
    const workerRate = (workers: number) => {
      const r = run("engine", workers);
      return r?.steadyEventsPerSecond ?? r?.eventsPerSecond;
    };
    const ratio = (a: number | undefined, b: number | undefined) => (a === undefined || b === undefined ? undefined : a / b);
    const engine = rate("engine");
    return {
      query,
      engineOverFused: ratio(engine, rate("fused")),
      rxOverFused: ratio(rate("rx"), rate("fused")),
      engineOverRx: ratio(engine, rate("rx")),
      exactlyOnceOverNone: ratio(engine, rate("engine", 0, false)),
      twoWorkersOverOne: ratio(workerRate(2), workerRate(1)),
      twinOverEngine: ratio(rate("sql-twin"), engine),
      twinExactlyOnceOverNone: ratio(rate("sql-twin"), rate("sql-twin", 0, false)),
      publishedOverEngine: ratio(sql.find((q) => q.query === query)?.run?.eventsPerSecond, engine),
    };
  });
}

/** Queries of the targets of the second performance round: SQL twin / DataStream (q0–q2, q5, q7 twins), published SQL / DataStream, DataStream / fused, 2 workers / 1. */
const PUBLISHED_TARGET_QUERIES = ["q5", "q7"];
const FUSED_TARGET_QUERIES = ["q5", "q7", "q8"];
/** Published SQL queries whose GC share has a target (those with a DataStream version, q0–q8). */
const GC_TARGET_QUERIES = ["q0", "q1", "q2", "q3", "q4", "q5", "q6", "q7", "q8"];

/**
 * The figures of `ratios`, `runs` and `sql` that the second performance round sets a target for, each with its target and
 * whether it is met: SQL twin / DataStream ≥ 0.8 (every twin), published SQL / DataStream ≥ 0.5 (q5,
 * q7), DataStream / fused loop ≥ 0.5 (q5, q7, q8), 2 workers / 1 worker ≥ 1.7 (every query; the issue
 * names q5), exactly-once 1 s / none ≥ 0.95 (DataStream and twins, every query; the bar for
 * heap state), GC share ≤ 0.15 of every SQL run (twins, published q0–q8).
 *
 * @example
 * ```ts
 * nexmarkTargets(runs, nexmarkRatios(runs, sql), sql).filter((t) => t.met === false); // what is not met
 * ```
 */
export function nexmarkTargets(runs: readonly NexmarkRunFigures[], ratios: readonly NexmarkRatios[], sql: readonly NexmarkSqlFigures[]): NexmarkTarget[] {
  const out: NexmarkTarget[] = [];
  const add = (figure: string, query: string, value: number | undefined, bound: { min: number } | { max: number }) =>
    out.push({ figure, query, value, ...bound, met: value === undefined ? undefined : "min" in bound ? value >= bound.min : value <= bound.max });
  const has = (query: string, runner: NexmarkRunner) => runs.some((r) => r.query === query && r.runner === runner);
  for (const r of ratios) if (has(r.query, "sql-twin")) add("SQL twin / DataStream, in-process, exactly-once 1 s", r.query, r.twinOverEngine, { min: 0.8 });
  for (const r of ratios) if (PUBLISHED_TARGET_QUERIES.includes(r.query)) add("published SQL / DataStream, in-process, exactly-once 1 s", r.query, r.publishedOverEngine, { min: 0.5 });
  for (const r of ratios) if (FUSED_TARGET_QUERIES.includes(r.query)) add("DataStream in-process, exactly-once 1 s / fused loop", r.query, r.engineOverFused, { min: 0.5 });
  for (const r of ratios) add("DataStream 2 workers / 1 worker, exactly-once 1 s", r.query, r.twoWorkersOverOne, { min: 1.7 });
  for (const r of ratios) add("DataStream in-process, exactly-once 1 s / no checkpoints", r.query, r.exactlyOnceOverNone, { min: 0.95 });
  for (const r of ratios) if (has(r.query, "sql-twin")) add("SQL twin in-process, exactly-once 1 s / no checkpoints", r.query, r.twinExactlyOnceOverNone, { min: 0.95 });
  for (const r of runs) if (r.runner === "sql-twin" && r.checkpointIntervalMs > 0) add("GC share of the SQL twin, exactly-once 1 s", r.query, r.gcShare, { max: 0.15 });
  for (const q of sql) if (q.run !== undefined && GC_TARGET_QUERIES.includes(q.query)) add("GC share of the published SQL, exactly-once 1 s", q.query, q.run.gcShare, { max: 0.15 });
  return out;
}

/**
 * The tables of the Nexmark section: runs, checkpoints, events/s side by side, latency, ratios,
 * the targets, then the published SQL queries on the connector.
 */
export function formatNexmark(f: NexmarkFigures): string {
  const dataStream = f.runs.length === 0 ? [] : formatDataStreamRuns(f);
  const sql = f.sql.length === 0 ? [] : [formatNexmarkSql(f.sql)];
  const targets = f.targets.length === 0 ? [] : [formatNexmarkTargets(f.targets)];
  return [dataStream, sql, targets].filter((part) => part.length > 0).map((part) => part.join("\n")).join("\n\n");
}

/** The lines of the runs, checkpoints, side-by-side, latency and ratios tables. */
function formatDataStreamRuns(f: NexmarkFigures): string[] {
  const lines = [
    `nexmark: NexmarkSource (events out of order by up to ${f.outOfOrdernessMs / 1000} s, watermarks as far behind) → query → sink digesting the rows, parallelism ${f.parallelism}`,
    ...f.queries.map((q) => `  ${q.name}: ${q.description}`),
    "  fused loop / RxJS: the same query as one plain loop / an RxJS pipeline over the same generator, in one thread; per core: events/s ÷ threads doing the work",
    "  SQL twin: a SELECT on the nexmark connector (same stream) giving the DataStream version's rows (bench/jobs/nexmark/sql-twins.ts);",
    "  GC: the thread's GC pauses / the run's wall time (in-process runs); steady: events/s from 20 % to 90 % of the events (worker runs, marks next to the source)",
    "",
    table(
      ["nexmark run", "events", "elapsed", "start-up", "events/s", "per core", "steady", "rows", "checkpoints", "GC"],
      f.runs.map((r) => [
        `${r.query} ${r.label}`,
        millions(r.events),
        elapsedCell(r),
        r.startupMs > 0 ? `${Math.round(r.startupMs)} ms` : "-",
        millions(r.eventsPerSecond),
        millions(r.eventsPerSecondPerCore),
        r.steadyEventsPerSecond === undefined ? "-" : millions(r.steadyEventsPerSecond),
        millions(r.rows),
        r.runner === "engine" || r.runner === "sql-twin" ? checkpointsCell(r) : "-",
        percentCell(r.gcShare),
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
  lines.push("", ...formatSideBySide(f));
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
        ["nexmark ratios", "DS/fused", "RxJS/fused", "DS/RxJS", "DS EO/none", "2 workers/1", "twin/DS", "twin EO/none", "published/DS"],
        f.ratios.map((r) => [
          r.query,
          ratioCell(r.engineOverFused),
          ratioCell(r.rxOverFused),
          ratioCell(r.engineOverRx),
          ratioCell(r.exactlyOnceOverNone),
          ratioCell(r.twoWorkersOverOne),
          ratioCell(r.twinOverEngine),
          ratioCell(r.twinExactlyOnceOverNone),
          ratioCell(r.publishedOverEngine),
        ]),
      ),
      "  DS: DataStream, in-process, exactly-once 1 s (2 workers/1: exactly-once 1 s, steady state); twin: SQL twin, in-process, exactly-once 1 s; published: the published SQL, in-process,",
      "  exactly-once 1 s (its own run size); EO/none: in-process, exactly-once 1 s / no checkpoints; ratios of events/s",
    );
  return lines;
}

/** One row per query: the events/s of each way of running it, side by side. */
function formatSideBySide(f: NexmarkFigures): string[] {
  const rate = (query: string, runner: NexmarkRunner, workers: number, checkpointed: boolean) => {
    const r = f.runs.find((x) => x.query === query && x.runner === runner && x.workers === workers && x.checkpointIntervalMs > 0 === checkpointed);
    return r === undefined ? "-" : millions(r.steadyEventsPerSecond ?? r.eventsPerSecond);
  };
  return [
    `nexmark events/s side by side (all threads; DataStream and SQL at parallelism ${f.parallelism}):`,
    "",
    table(
      ["nexmark events/s", "fused", "RxJS", "DS none", "DS EO 1 s", "1 worker", "2 workers", "twin EO 1 s", "twin none", "published SQL"],
      f.queries.map(({ name }) => {
        const published = f.sql.find((q) => q.query === name)?.run;
        return [
          name,
          rate(name, "fused", 0, false),
          rate(name, "rx", 0, false),
          rate(name, "engine", 0, false),
          rate(name, "engine", 0, true),
          rate(name, "engine", 1, true),
          rate(name, "engine", 2, true),
          rate(name, "sql-twin", 0, true),
          rate(name, "sql-twin", 0, false),
          published === undefined ? "-" : millions(published.eventsPerSecond),
        ];
      }),
    ),
    "  DS: DataStream in-process; 1 / 2 workers: DataStream, exactly-once 1 s, steady state; twin: SQL twin in-process; published SQL: in-process, exactly-once 1 s",
  ];
}

/**
 * The targets of the second performance round with the figures of this run.
 *
 * @example
 * ```ts
 * formatNexmarkTargets([{ figure: "SQL twin / DataStream, in-process, exactly-once 1 s", query: "q5", value: 0.41, min: 0.8, met: false }]);
 * ```
 */
export function formatNexmarkTargets(targets: readonly NexmarkTarget[]): string {
  const share = (t: NexmarkTarget) => t.figure.startsWith("GC share");
  const value = (t: NexmarkTarget) => (share(t) ? percentCell(t.value) : ratioCell(t.value));
  const bound = (t: NexmarkTarget) => (t.min !== undefined ? `>= ${share(t) ? percentCell(t.min) : t.min}` : `<= ${share(t) ? percentCell(t.max) : t.max}`);
  return [
    "nexmark targets (second performance round): each figure of this run against its target",
    "",
    table(
      ["nexmark target", "query", "value", "target", "met"],
      targets.map((t) => [t.figure, t.query, value(t), bound(t), t.met === undefined ? "-" : t.met ? "met" : "NOT met"]),
    ),
    `  met: ${targets.filter((t) => t.met === true).length} of ${targets.length}`,
  ].join("\n");
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
      ["nexmark SQL", "events", "elapsed", "events/s per core", "Flink per core", "SQL/DataStream", "rows", "checkpoints", "GC"],
      sql.map((q) => {
        const r = q.run;
        const flink = q.flinkPerCore === undefined ? "-" : millions(q.flinkPerCore);
        if (r === undefined) return [q.query, "-", "refused", "-", flink, "-", "-", "-", "-"];
        return [q.query, millions(r.events), elapsedCell(r), millions(r.eventsPerSecondPerCore), flink, ratioCell(q.overDataStream), millions(r.rows), checkpointsCell(r), percentCell(r.gcShare)];
      }),
    ),
    "  SQL/DataStream: events/s of the SQL query / of the DataStream version (bench/jobs/nexmark/q*.ts), both in-process, exactly-once 1 s; rows: changelog rows;",
    "  GC: the thread's GC pauses / the run's wall time",
    ...sql.filter((q) => q.refused !== undefined).map((q) => `  ${q.query} refused: ${q.refused!.split("\n")[0]}`),
  ].join("\n");
}

function ratioCell(v: number | undefined): string {
  return v === undefined ? "-" : v.toFixed(3);
}

/** A share (0–1) as a percentage with one decimal. */
function percentCell(v: number | undefined): string {
  return v === undefined ? "-" : `${(v * 100).toFixed(1)} %`;
}

/** Latencies with one decimal below 10 ms. */
function latencyCell(v: number | undefined): string {
  return v === undefined ? "-" : v < 10 ? `${v.toFixed(1)} ms` : ms(v);
}
