/**
 * The Nexmark part of `npm run bench` (`--only nexmark`): queries q0, q1,
 * q2, q3, q5, q7 and q8 (bench/jobs/nexmark/) on `NexmarkSource`, at
 * parallelism 2. Each query runs in a new process of its own (bench/child-process-run.ts), as a user runs one
 * job per process: its DataStream runs and its published SQL run side by side, without what the runs of other
 * queries left in the V8 heap. Per query:
 *
 * 1. sizing runs (in-process, no checkpoints; also the warm-up) size the
 *    measured runs to about `TARGET_RUN_MS` (or `--nexmark-events` fixes them,
 *    after one warm-up run);
 * 2. the hand-fused loop, then the engine in-process without checkpoints and
 *    with exactly-once checkpoints every 1 s (filesystem storage), on 1 and 2
 *    worker threads with exactly-once 1 s, then the RxJS pipeline (q0–q2, q5,
 *    q7), then for q0–q2, q5 and q7 the SQL twin (bench/jobs/nexmark/sql-twins.ts:
 *    a SELECT on the `nexmark` connector with the same stream and the DataStream
 *    version's rows) after a warm-up, in-process without checkpoints and with
 *    exactly-once 1 s, on the same events. Every run's row count and digest must
 *    equal the fused loop's, else `BenchIntegrityError`. The throughput of an engine
 *    run is over its processing time: from the start of the first sink subtask to
 *    the end of input at the last one (without starting threads, importing the job
 *    module in them, deploying, the final checkpoint, tearing down). In-process
 *    engine runs also measure their GC pauses (bench/gc-time.ts). Worker runs also
 *    give their steady-state throughput: events/s from 20 % to 90 % of the events, from
 *    marks written next to the source (bench/jobs/source-marks.ts, bench/steady-rate.ts),
 *    which leave out the fresh threads' warm-up; 2 workers / 1 worker compares those;
 * 3. the nexmark project's SQL query of the same name (below);
 * 4. for q0 and q1, the latency: the source rate limited to half of the
 *    query's exactly-once throughput (the lower of in-process and 2 workers),
 *    in-process and on 2 workers, for 3 s, of which the rows of the last 2 s
 *    are measured;
 * 5. last (it keeps every row of its runs, and V8 then allocates those rows' objects in the old
 *    generation for the rest of the process), a check: the engine (in-process, exactly-once checkpoints
 *    every 100 ms) collects every row of a small run, which must equal the hand-fused loop's rows as a
 *    multiset, else `BenchIntegrityError`.
 *
 * Then, each in its own process too, the rest of the nexmark project's SQL queries q0–q22 (bench/jobs/nexmark/sql/) on
 * the `nexmark` connector with the same stream (event rate, out-of-orderness,
 * parallelism): a query Weir refuses (q6, q12) is planned in the bench's process and reported with its
 * planning error; every other runs once to size it (in-process, no checkpoints: also the
 * warm-up), unless `--nexmark-sql-events` fixes the size, then in-process with
 * exactly-once checkpoints every 1 s (filesystem storage), with its GC share. Its
 * events/s is per core (one thread), beside the published Flink figure per core and,
 * for q0–q3, q5, q7 and q8, the ratio to the DataStream version's in-process
 * exactly-once run. The rows are the changelog's (checked against DuckDB by
 * test/sql/nexmark-queries.test.ts); for q1, q2, q5 and q7, whose published SELECT
 * gives the twin's rows, the measured run's rows must also equal the fused loop's by
 * count and digest.
 *
 * Last, the ratios per query and the targets of the second performance round (bench/nexmark-report.ts:
 * `nexmarkRatios`, `nexmarkTargets`).
 */
import { mkdtemp, rm, writeFile, mkdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runInChildProcess } from "./child-process-run.ts";
import { BenchIntegrityError } from "./integrity-error.ts";
import { hasRx, runFused, runRx, type BaselineRun } from "./jobs/nexmark/baselines.ts";
import { runNexmarkQuery, type NexmarkSourceParams } from "./jobs/nexmark/nexmark-job.ts";
import { NEXMARK_OUT_OF_ORDERNESS_MS, NEXMARK_QUERIES, type NexmarkQueryName } from "./jobs/nexmark/nexmark-query.ts";
import { FLINK_EVENTS_PER_SECOND_PER_CORE } from "./jobs/nexmark/flink-figures.ts";
import { NEXMARK_SQL_QUERIES, NEXMARK_SQL_REFUSED, nexmarkSideInput, type NexmarkSqlQueryName } from "./jobs/nexmark/sql-queries.ts";
import { PUBLISHED_SQL_WITH_TWIN_ROWS, hasSqlTwin } from "./jobs/nexmark/sql-twins.ts";
import { QUERIES } from "./jobs/nexmark/queries.ts";
import { rowDifference, type QueryResult } from "./jobs/nexmark/query-result.ts";
import {
  latencyFigures,
  nexmarkRatios,
  nexmarkRunFigures,
  nexmarkTargets,
  type NexmarkFigures,
  type NexmarkLatencyFigures,
  type NexmarkRunFigures,
  type NexmarkSqlFigures,
} from "./nexmark-report.ts";
import { throughput } from "./report.ts";
import { readSourceMarks, SOURCE_MARK_EVERY } from "./jobs/source-marks.ts";
import { steadyWindow } from "./steady-rate.ts";

export const NEXMARK_PARALLELISM = 2;
/**
 * Events per second of event time: a run of a few seconds spans minutes of event time, so the
 * windowed queries fire their windows steadily (the work per event hardly depends on it).
 */
const EVENT_TIME_RATE = 1_000;
const CHECKPOINT_INTERVAL_MS = 1_000;
/** Wished duration of a measured in-process run. */
const TARGET_RUN_MS = 2_000;
/**
 * The sizing run starts with this many events and grows 4-fold until it lasts `SIZING_MIN_MS` (or reaches `SIZING_MAX_EVENTS`);
 * the first never sizes: in the query's new process it also compiles the code (on a busy machine every query's first run
 * lasted 300 ms and sized its runs to 100 000–200 000 events, q0's to 200 000 where one warm process gave 2.6 M).
 */
const SIZING_EVENTS = 50_000;
const SIZING_MIN_MS = 300;
const SIZING_MAX_EVENTS = 3_200_000;
/** Measured runs are rounded to this many events, and have at least `MIN_EVENTS` (100 s of event time: 10 windows of q7 and q8). */
const ROUNDING = 50_000;
const MIN_EVENTS = 100_000;
/** Events of the check (50 s of event time). */
const CHECK_EVENTS = 50_000;
const CHECK_CHECKPOINT_INTERVAL_MS = 100;
/**
 * Latency runs: the share of the query's exactly-once throughput (the lower of in-process and 2
 * workers) the source is limited to, their length, and the first part left out (code warming up).
 */
const LATENCY_LOAD = 0.5;
const LATENCY_RUN_MS = 3_000;
const LATENCY_WARM_UP_MS = 1_000;
const LATENCY_QUERIES: readonly NexmarkQueryName[] = ["q0", "q1"];
/** SQL runs: the first sizing run, and the least events of a measured run (20 s of event time: two 10 s windows). */
const SQL_SIZING_EVENTS = 20_000;
const SQL_MIN_EVENTS = 20_000;
/** The warm-up of a SQL twin: this share of the measured runs' events (at least `SQL_MIN_EVENTS`, at most all of them). */
const TWIN_WARM_UP_SHARE = 0.25;

/** The engine runs of each query: label, worker threads, checkpoint interval. */
const ENGINE_PLAN: readonly (readonly [label: string, workers: number, checkpointIntervalMs: number])[] = [
  ["in-process, no checkpoints", 0, 0],
  ["in-process, exactly-once 1 s", 0, CHECKPOINT_INTERVAL_MS],
  ["1 worker, exactly-once 1 s", 1, CHECKPOINT_INTERVAL_MS],
  ["2 workers, exactly-once 1 s", 2, CHECKPOINT_INTERVAL_MS],
];
/** The runs of a query's SQL twin: label, checkpoint interval (in-process). */
const TWIN_PLAN: readonly (readonly [label: string, checkpointIntervalMs: number])[] = [
  ["SQL twin, in-process, no checkpoints", 0],
  ["SQL twin, in-process, exactly-once 1 s", CHECKPOINT_INTERVAL_MS],
];
const LATENCY_PLAN: readonly (readonly [label: string, workers: number])[] = [
  ["in-process", 0],
  ["2 workers", 2],
];

/** What the Nexmark section runs. */
export interface NexmarkPlan {
  /** The DataStream queries with their baselines, SQL twins and latencies (false: only the published SQL queries). */
  readonly dataStream: boolean;
  /** Events of each measured run of a DataStream query (and its twin); undefined: sized to about `TARGET_RUN_MS`. */
  readonly events?: number | undefined;
  /** Events of each published SQL run; undefined: sized to about `TARGET_RUN_MS`. */
  readonly sqlEvents: number | undefined;
  /** The queries to run (`--nexmark-queries`); undefined: all of them. */
  readonly queries?: readonly NexmarkSqlQueryName[] | undefined;
}

/** What the process of one query measures (`measureNexmarkQuery`). */
export interface NexmarkQueryPlan {
  readonly query: NexmarkSqlQueryName;
  /** The DataStream version's runs (a query of `NEXMARK_QUERIES`) with its baselines, SQL twin and latencies. */
  readonly dataStream: boolean;
  /** The published SQL query's run. */
  readonly sql: boolean;
  readonly events?: number | undefined;
  readonly sqlEvents?: number | undefined;
}

/** The figures of one query's process. */
export interface NexmarkQueryFigures {
  readonly runs: NexmarkRunFigures[];
  readonly latency: NexmarkLatencyFigures[];
  readonly sql: NexmarkSqlFigures | undefined;
}

/**
 * Runs the Nexmark section and returns its figures: each query in a new process of its own (`measureNexmarkQuery`
 * through bench/child-process-run.ts), as a user runs one job per process; a query Weir refuses is planned here.
 *
 * @throws BenchIntegrityError when a run's rows differ from the hand-fused loop's (an `Error` of that name, from the query's process)
 * @example
 * ```ts
 * const figures = await measureNexmark((line) => console.error(line), { dataStream: true, sqlEvents: undefined });
 * console.log(formatNexmark(figures));
 * ```
 */
export async function measureNexmark(progress: (line: string) => void, plan: NexmarkPlan): Promise<NexmarkFigures> {
  const chosen = (q: string) => plan.queries === undefined || (plan.queries as readonly string[]).includes(q);
  const dataStreamQueries: readonly string[] = plan.dataStream ? NEXMARK_QUERIES.filter(chosen) : [];
  const order = [...dataStreamQueries, ...NEXMARK_SQL_QUERIES.filter((q) => !dataStreamQueries.includes(q) && chosen(q))] as NexmarkSqlQueryName[];
  const figures = new Map<string, NexmarkQueryFigures>();
  for (const query of order) {
    const queryPlan: NexmarkQueryPlan = { query, dataStream: dataStreamQueries.includes(query), sql: NEXMARK_SQL_REFUSED[query] === undefined, events: plan.events, sqlEvents: plan.sqlEvents };
    const measured =
      queryPlan.dataStream || queryPlan.sql
        ? await runInChildProcess<NexmarkQueryFigures>({ module: import.meta.url, name: measureNexmarkQuery.name, args: [queryPlan] }, progress)
        : { runs: [], latency: [], sql: undefined };
    figures.set(query, queryPlan.sql ? measured : { ...measured, sql: await planRefusedSqlQuery(query, progress) });
  }
  const runs = order.flatMap((q) => figures.get(q)!.runs);
  const latency = LATENCY_QUERIES.flatMap((q) => figures.get(q)?.latency ?? []);
  const sql = NEXMARK_SQL_QUERIES.filter(chosen).map((q) => figures.get(q)!.sql!);
  const ratios = nexmarkRatios(runs, sql);
  return {
    parallelism: NEXMARK_PARALLELISM,
    outOfOrdernessMs: NEXMARK_OUT_OF_ORDERNESS_MS,
    queries: dataStreamQueries.map((q) => ({ name: q, description: QUERIES[q as NexmarkQueryName].description })),
    runs,
    latency,
    ratios,
    sql,
    targets: nexmarkTargets(runs, ratios, sql),
  };
}

/**
 * The runs of one query, in the process `measureNexmark` starts for it: the DataStream version's runs (sizing, fused
 * loop, engine, RxJS, SQL twin), the published SQL run, the latency runs, and last the check against the fused loop
 * (it keeps every row of a run, and V8 then allocates the rows' objects in the old generation for the rest of the
 * process: docs/benchmarks.md, Nexmark).
 */
export async function measureNexmarkQuery(plan: NexmarkQueryPlan, progress: (line: string) => void): Promise<NexmarkQueryFigures> {
  const query = plan.query as NexmarkQueryName;
  const runs = plan.dataStream ? await measureQuery(query, plan.events, progress) : [];
  const sql = plan.sql ? await withSqlDir((dir) => measureSqlQuery(plan.query, dir, plan.sqlEvents, runs, progress)) : undefined;
  const latency: NexmarkLatencyFigures[] = [];
  if (plan.dataStream && LATENCY_QUERIES.includes(query)) {
    const throughputRuns = LATENCY_PLAN.map(([, workers]) => runs.find((r) => r.runner === "engine" && r.workers === workers && r.checkpointIntervalMs > 0)!);
    const rate = Math.round((Math.min(...throughputRuns.map((r) => r.eventsPerSecond)) * LATENCY_LOAD) / 1_000) * 1_000;
    for (const [label, workers] of LATENCY_PLAN) latency.push(await measureLatency(query, label, workers, rate, progress));
  }
  if (plan.dataStream) await checkQuery(query, progress);
  return { runs, latency, sql };
}

/** Runs `f` with a folder holding the published queries' side input (`data/side_input.txt`), removed after. */
async function withSqlDir<T>(f: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), "weir-bench-nexmark-sql-"));
  try {
    await mkdir(join(dir, "data"));
    await writeFile(join(dir, "data", "side_input.txt"), nexmarkSideInput());
    return await f(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** A published SQL query Weir refuses: its planning error (no events run). */
async function planRefusedSqlQuery(query: NexmarkSqlQueryName, progress: (line: string) => void): Promise<NexmarkSqlFigures> {
  const flink = FLINK_EVENTS_PER_SECOND_PER_CORE[query];
  const base = { query, ...(flink === undefined ? {} : { flinkPerCore: flink }) };
  progress(`nexmark SQL ${query}: planning (Weir refuses it)`);
  try {
    await withSqlDir((dir) => runNexmarkQuery({ query, source: sourceOf(1_000), parallelism: NEXMARK_PARALLELISM, workers: 0, checkpointIntervalMs: 0, connector: { dir } }));
  } catch (e) {
    const message = (e as Error).message;
    if (NEXMARK_SQL_REFUSED[query]!.test(message)) return { ...base, refused: message };
    throw e;
  }
  throw new BenchIntegrityError(`nexmark SQL ${query}`, "a refusal", 1, 0);
}

async function measureSqlQuery(
  query: NexmarkSqlQueryName,
  dir: string,
  fixedEvents: number | undefined,
  dataStreamRuns: readonly NexmarkRunFigures[],
  progress: (line: string) => void,
): Promise<NexmarkSqlFigures> {
  const flink = FLINK_EVENTS_PER_SECOND_PER_CORE[query];
  const base = { query, ...(flink === undefined ? {} : { flinkPerCore: flink }) };
  const digest = (PUBLISHED_SQL_WITH_TWIN_ROWS as readonly string[]).includes(query);
  const run = (events: number, checkpointIntervalMs: number) =>
    runNexmarkQuery({ query, source: sourceOf(events), parallelism: NEXMARK_PARALLELISM, workers: 0, checkpointIntervalMs, connector: { dir, digest } });
  let events = fixedEvents;
  for (let sizing = SQL_SIZING_EVENTS; events === undefined; sizing *= 4) {
    progress(`nexmark SQL ${query}: sizing run (${sizing.toLocaleString("en-US")} events)`);
    const { elapsedMs } = await run(sizing, 0);
    if ((elapsedMs >= SIZING_MIN_MS && sizing > SQL_SIZING_EVENTS) || sizing >= SIZING_MAX_EVENTS)
      events = Math.max(SQL_MIN_EVENTS, Math.round((throughput(sizing, elapsedMs) * TARGET_RUN_MS) / 1000 / ROUNDING) * ROUNDING);
  }
  const label = "SQL connector, in-process, exactly-once 1 s";
  progress(`nexmark SQL ${query}: ${label} (${events.toLocaleString("en-US")} events)`);
  const m = await run(events, CHECKPOINT_INTERVAL_MS);
  if (digest) check(`nexmark SQL ${query}, ${label}`, runFused(query as NexmarkQueryName, sourceOf(events)), m);
  const figures = nexmarkRunFigures({ query, label, runner: "sql-connector", workers: 0, checkpointIntervalMs: CHECKPOINT_INTERVAL_MS, events, elapsedMs: m.elapsedMs, startupMs: m.elapsedMs - m.processingMs, rows: m.rows, checkpoints: m.checkpoints, gcMs: m.gcMs });
  const dataStream = dataStreamRuns.find((r) => r.query === query && r.runner === "engine" && r.workers === 0 && r.checkpointIntervalMs > 0);
  return { ...base, run: figures, ...(dataStream === undefined ? {} : { overDataStream: figures.eventsPerSecond / dataStream.eventsPerSecond }) };
}

/** Source of the throughput runs: as fast as possible, `EVENT_TIME_RATE` events per second of event time. */
/** The generated stream of every Nexmark run of the bench: `events` events at its event-time rate and out-of-orderness. */
export function sourceOf(events: number): NexmarkSourceParams {
  return { events, eventsPerSecond: EVENT_TIME_RATE, maxOutOfOrdernessMs: NEXMARK_OUT_OF_ORDERNESS_MS };
}

async function measureQuery(query: NexmarkQueryName, fixedEvents: number | undefined, progress: (line: string) => void): Promise<NexmarkRunFigures[]> {
  const events = await sizeRuns(query, fixedEvents, progress);
  const source = sourceOf(events);

  const runs: NexmarkRunFigures[] = [];
  progress(`nexmark ${query}: fused loop (${events.toLocaleString("en-US")} events)`);
  const fused = runFused(query, source);
  runs.push(baselineFigures(query, "fused loop", "fused", events, fused));
  for (const [label, workers, checkpointIntervalMs] of ENGINE_PLAN) {
    progress(`nexmark ${query}: ${label}`);
    // worker runs: marks next to the source for the steady state (fresh threads warm their code up for a while)
    const marksDir = workers > 0 ? await mkdtemp(join(tmpdir(), "weir-bench-nexmark-marks-")) : undefined;
    try {
      const m = await runNexmarkQuery({ query, source, parallelism: NEXMARK_PARALLELISM, workers, checkpointIntervalMs, ...(marksDir ? { marksDir } : {}) });
      check(`nexmark ${query}, ${label}`, fused, m);
      const steadyEventsPerSecond = marksDir === undefined ? undefined : steadyWindow(readSourceMarks(marksDir), SOURCE_MARK_EVERY, events).recordsPerSecond;
      runs.push(
        nexmarkRunFigures({ query, label, runner: "engine", workers, checkpointIntervalMs, events, elapsedMs: m.elapsedMs, startupMs: m.elapsedMs - m.processingMs, rows: m.rows, checkpoints: m.checkpoints, gcMs: m.gcMs, steadyEventsPerSecond }),
      );
    } finally {
      if (marksDir) await rm(marksDir, { recursive: true, force: true });
    }
  }
  if (hasRx(query)) {
    progress(`nexmark ${query}: RxJS`);
    const rx = runRx(query, source);
    check(`nexmark ${query}, RxJS`, fused, rx);
    runs.push(baselineFigures(query, "RxJS", "rx", events, rx));
  }
  if (hasSqlTwin(query)) runs.push(...(await measureTwin(query, events, fused, progress)));
  return runs;
}

/**
 * The check: the engine (in-process, exactly-once checkpoints every 100 ms) collects every row of a small run, which
 * must equal the hand-fused loop's rows as a multiset.
 */
async function checkQuery(query: NexmarkQueryName, progress: (line: string) => void): Promise<void> {
  progress(`nexmark ${query}: check against the fused loop (${CHECK_EVENTS.toLocaleString("en-US")} events)`);
  const expectedRows = runFused(query, sourceOf(CHECK_EVENTS), true).collected;
  const checked = await runNexmarkQuery({ query, source: sourceOf(CHECK_EVENTS), parallelism: NEXMARK_PARALLELISM, workers: 0, checkpointIntervalMs: CHECK_CHECKPOINT_INTERVAL_MS, collect: true });
  const diff = rowDifference(expectedRows, checked.collected);
  if (diff.count > 0)
    throw new BenchIntegrityError(`nexmark ${query} check`, `rows missing or unexpected (e.g. missing ${diff.missing.join(" ")}, unexpected ${diff.unexpected.join(" ")})`, 0, diff.count);
}

/**
 * The query's SQL twin on the `nexmark` connector with the stream of the DataStream runs: a
 * warm-up, then the runs of `TWIN_PLAN`, each of whose rows must equal the fused loop's.
 */
async function measureTwin(query: NexmarkQueryName, events: number, fused: QueryResult, progress: (line: string) => void): Promise<NexmarkRunFigures[]> {
  const run = (runEvents: number, checkpointIntervalMs: number) =>
    runNexmarkQuery({ query, source: sourceOf(runEvents), parallelism: NEXMARK_PARALLELISM, workers: 0, checkpointIntervalMs, connector: { twin: true } });
  const warmUp = Math.min(events, Math.max(SQL_MIN_EVENTS, Math.round((events * TWIN_WARM_UP_SHARE) / ROUNDING) * ROUNDING));
  progress(`nexmark ${query}: SQL twin warm-up (${warmUp.toLocaleString("en-US")} events)`);
  await run(warmUp, 0);
  const runs: NexmarkRunFigures[] = [];
  for (const [label, checkpointIntervalMs] of TWIN_PLAN) {
    progress(`nexmark ${query}: ${label}`);
    const m = await run(events, checkpointIntervalMs);
    check(`nexmark ${query}, ${label}`, fused, m);
    runs.push(nexmarkRunFigures({ query, label, runner: "sql-twin", workers: 0, checkpointIntervalMs, events, elapsedMs: m.elapsedMs, startupMs: m.elapsedMs - m.processingMs, rows: m.rows, checkpoints: m.checkpoints, gcMs: m.gcMs }));
  }
  return runs;
}

/**
 * Events of a measured run of about `TARGET_RUN_MS`, from sizing runs (in-process, no
 * checkpoints; also the warm-up) of 4 times more events each until one after the first lasts `SIZING_MIN_MS`;
 * or `fixedEvents`, after one warm-up run of as many.
 */
async function sizeRuns(query: NexmarkQueryName, fixedEvents: number | undefined, progress: (line: string) => void): Promise<number> {
  if (fixedEvents !== undefined) {
    progress(`nexmark ${query}: warm-up (${fixedEvents.toLocaleString("en-US")} events)`);
    await runNexmarkQuery({ query, source: sourceOf(fixedEvents), parallelism: NEXMARK_PARALLELISM, workers: 0, checkpointIntervalMs: 0 });
    return fixedEvents;
  }
  for (let events = SIZING_EVENTS; ; events *= 4) {
    progress(`nexmark ${query}: sizing run (${events.toLocaleString("en-US")} events)`);
    const { elapsedMs } = await runNexmarkQuery({ query, source: sourceOf(events), parallelism: NEXMARK_PARALLELISM, workers: 0, checkpointIntervalMs: 0 });
    if ((elapsedMs >= SIZING_MIN_MS && events > SIZING_EVENTS) || events >= SIZING_MAX_EVENTS)
      return Math.max(MIN_EVENTS, Math.round((throughput(events, elapsedMs) * TARGET_RUN_MS) / 1000 / ROUNDING) * ROUNDING);
  }
}

/** A rate-limited run: the latencies of its rows. */
async function measureLatency(query: NexmarkQueryName, label: string, workers: number, rate: number, progress: (line: string) => void): Promise<NexmarkLatencyFigures> {
  const events = Math.round((rate * LATENCY_RUN_MS) / 1000);
  progress(`nexmark ${query}: latency at ${rate.toLocaleString("en-US")} events/s, ${label}`);
  const source: NexmarkSourceParams = { events, eventsPerSecond: rate, maxOutOfOrdernessMs: 0, rateLimited: true };
  const m = await runNexmarkQuery({ query, source, parallelism: NEXMARK_PARALLELISM, workers, checkpointIntervalMs: CHECKPOINT_INTERVAL_MS, latencyAfterMs: LATENCY_WARM_UP_MS });
  check(`nexmark ${query} latency, ${label}`, runFused(query, source), m);
  return latencyFigures(query, `${label}, exactly-once 1 s`, rate, events, m.latenciesMs);
}

/** Fails unless `actual` has the rows of the fused loop. */
function check(label: string, fused: QueryResult, actual: QueryResult): void {
  if (actual.rows !== fused.rows) throw new BenchIntegrityError(label, "rows", fused.rows, actual.rows);
  if (actual.digest !== fused.digest) throw new BenchIntegrityError(label, "digest of the rows", fused.digest, actual.digest);
}

function baselineFigures(query: NexmarkQueryName, label: string, runner: "fused" | "rx", events: number, run: BaselineRun): NexmarkRunFigures {
  return nexmarkRunFigures({ query, label, runner, workers: 0, checkpointIntervalMs: 0, events, elapsedMs: run.elapsedMs, startupMs: 0, rows: run.rows, checkpoints: null });
}
