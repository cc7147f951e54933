/**
 * `npm run bench`: measures the keyed running-count job (bench/jobs/keyed-count.ts)
 * in one run and prints a table, then the same figures as one JSON line.
 *
 * First the start-up of a trivial job (bench/startup.ts: `.mjs` on plain node,
 * `.mjs` and `.ts` under `weir run` on 1 and 2 workers, from the compiled
 * package; wall time, CPU time and largest RSS as ratios to `node -e ""`).
 *
 * Runs, all at parallelism 4: a warm-up (which also sizes the runs to about
 * `TARGET_RUN_MS`), the start-up cost of 1 and 2 worker threads (a job of a few
 * records), then in-process with checkpointing off and exactly-once every
 * second (filesystem storage), 1 worker with exactly-once every second, and
 * the scaling rounds: 1 worker and 2 workers without checkpointing, five
 * times, compared in the steady state (bench/steady-rate.ts). Then the keyed count on 2 workers linked by
 * TCP against 2 linked by shared memory (bench/tcp-links.ts: CPU per record across TCP vs across threads), the keyed count
 * and Nexmark q5 on 1, 2 and 4 task manager processes against one process (bench/cluster.ts). Then the file job (bench/jobs/file-copy.ts) over a generated
 * JSON Lines input, without and with exactly-once checkpoints every second, and over a CSV input without,
 * the event-time jobs (bench/event-time.ts: a keyed sliding-window count and
 * an interval join, in-process, each without and with exactly-once
 * checkpoints every second), the keyed running aggregate over object values
 * (bench/object-state.ts: 10 000 and 1 000 000 keys, in-process, each without
 * and with exactly-once checkpoints every second), async I/O (bench/async-io.ts:
 * a 1 ms service at capacity 100, ordered and unordered, in-process, each
 * without and with exactly-once checkpoints every second), the Nexmark queries
 * (bench/nexmark.ts, each query in a new process of its own: q0–q3, q5, q7, q8 on the engine, in-process and on 1
 * and 2 workers, against a hand-fused loop, RxJS and the SQL twins of q0–q2,
 * q5 and q7, then the nexmark project's SQL queries q0–q22 on the `nexmark`
 * connector, also alone as section `nexmark-sql`), and the recovery of a
 * `weir run` killed with SIGKILL holding 10 and 100 MiB of keyed state
 * (bench/recovery.ts), and the state backends (bench/state.ts: checkpoint
 * cost of full and incremental checkpoints vs state size, keyed-count
 * throughput and restore time, heap vs disk), and Kafka (bench/kafka.ts: a real broker, Kafka → keyed count →
 * Kafka exactly-once and at-least-once against the client's own loop, and the end-to-end latency exactly-once
 * adds; needs Java 17 and Maven for the broker). `--only a,b` runs only the named sections
 * (bench/options.ts). See docs/benchmarks.md for what each figure means.
 */
import { rm } from "node:fs/promises";
import { ASYNC_IO_CAPACITY, ASYNC_IO_LATENCY_MS, ASYNC_IO_PLAN, measureAsyncIoRuns } from "./async-io.ts";
import { EVENT_TIME_PARALLELISM, JOIN_PLAN, WINDOW_PLAN, measureEventTimeRuns } from "./event-time.ts";
import { BenchIntegrityError } from "./integrity-error.ts";
import { FILE_PARALLELISM, runFileCopy, writeOrders, type OrdersFormat, type OrdersInput } from "./jobs/file-copy.ts";
import { formatKafka, kafkaRatios, measureKafka } from "./kafka.ts";
import { formatPostgres, measurePostgres, postgresRatios } from "./postgres.ts";
import { cdcMeasure } from "./postgres-cdc.ts";
import { measureRecovery } from "./recovery.ts";
import { runKeyedCount, type KeyedCountMeasurement, type KeyedCountParams } from "./jobs/keyed-count.ts";
import { machineInfo } from "./machine-info.ts";
import { measureNexmark } from "./nexmark.ts";
import { formatNexmark } from "./nexmark-report.ts";
import { OBJECT_STATE_PLAN, measureObjectStateRuns } from "./object-state.ts";
import { parseBenchOptions } from "./options.ts";
import { measureState } from "./state.ts";
import { CLUSTER_DEFAULT_EVENTS, CLUSTER_DEFAULT_RECORDS, clusterRatios, formatCluster, measureCluster } from "./cluster.ts";
import { formatTcpLinks, measureTcpLinks, TCP_DEFAULT_RECORDS } from "./tcp-links.ts";
import { measureStartup } from "./startup.ts";
import { formatStartup, startupRatios } from "./startup-report.ts";
import { formatState, stateRatios } from "./state-report.ts";
import {
  checkpointFigures,
  fileRunFigures,
  formatReport,
  median,
  reportJson,
  scalingFigures,
  throughput,
  type BenchReport,
  type CheckpointFigures,
  type FileRunFigures,
  type RecoveryFigures,
  type RunFigures,
  type ScalingRound,
} from "./report.ts";

const PARALLELISM = 4;
const CHECKPOINT_INTERVAL_MS = 1_000;
/** Wished duration of a measured in-process run (worker runs may take up to twice as long). */
const TARGET_RUN_MS = 5_000;
const WARM_UP_RECORDS = 3_000_000;
/** Warm-up runs; the last one sizes the measured runs (the first is still compiling). */
const WARM_UP_REPEATS = 2;
/** Records of the runs that measure start-up and tear-down (negligible work). */
const STARTUP_RECORDS = 1_000;
const STARTUP_REPEATS = 2;
/** Rounds of 1 worker and 2 workers (odd, so that the median is one of them). */
const SCALING_ROUNDS = 5;
const ONE_WORKER = "1 worker, no checkpoints";
const TWO_WORKERS = "2 workers, no checkpoints";
/** Size of the generated input of the file job per format (JSON Lines: about 4–6 s per run on the machine of docs/benchmarks.md). */
const FILE_INPUT_BYTES: Readonly<Record<OrdersFormat, number>> = { jsonl: 400e6, csv: 100e6 };
/** Label, input format and checkpoint interval of the file-job runs. */
const FILE_PLAN: readonly (readonly [label: string, format: OrdersFormat, checkpointIntervalMs: number])[] = [
  ["file, no checkpoints", "jsonl", 0],
  ["file, exactly-once 1 s", "jsonl", CHECKPOINT_INTERVAL_MS],
  ["file csv, no checkpoints", "csv", 0],
];

/** Keyed state sizes of the recovery runs. */
const RECOVERY_STATE_BYTES = [10 * 2 ** 20, 100 * 2 ** 20];

/**
 * Runs the benchmark and prints its report; resolves with the exit code (0).
 * Rejects with `BenchIntegrityError` when a run lost, duplicated or dropped (late) records.
 *
 * @example
 * ```ts
 * process.exitCode = await main(["--records", "10000000"]);
 * process.exitCode = await main(["--only", "object-state"]);
 * ```
 */
export async function main(argv: readonly string[]): Promise<number> {
  const options = parseBenchOptions(argv);
  const progress = (line: string) => void process.stderr.write(`bench: ${line}\n`);
  const checkpoints: Record<string, CheckpointFigures> = {};
  const ratios: Record<string, number> = {};

  const startup = options.sections.has("startup") ? await measureStartup(progress) : null;
  const { runs, scaling } = options.sections.has("keyed-count")
    ? await measureKeyedCountRuns(progress, checkpoints, options.records, options.keys)
    : { runs: [], scaling: [] };
  const tcpLinks = options.sections.has("keyed-count-tcp")
    ? await measureTcpLinks(progress, options.records ?? TCP_DEFAULT_RECORDS, options.keys[0]!)
    : null;
  if (tcpLinks) {
    ratios[`keyed count, 2 workers linked by TCP / by shared memory, CPU per record, steady, median of ${tcpLinks.rounds.length}`] = tcpLinks.cpuRatio;
    ratios[`keyed count, 2 workers linked by TCP / by shared memory, steady throughput, median of ${tcpLinks.rounds.length}`] = tcpLinks.steadyRatio;
  }
  const cluster = options.sections.has("cluster")
    ? await measureCluster(progress, { records: options.records ?? CLUSTER_DEFAULT_RECORDS, keys: options.keys[0]!, events: options.nexmarkEvents ?? CLUSTER_DEFAULT_EVENTS })
    : null;
  if (cluster) Object.assign(ratios, clusterRatios(cluster));
  const fileRuns = options.sections.has("file") ? await measureFileRuns(progress, checkpoints) : [];
  const eventTimeRuns = options.sections.has("event-time") ? await measureEventTimeRuns(progress, checkpoints) : [];
  const objectStateRuns = options.sections.has("object-state") ? await measureObjectStateRuns(progress, checkpoints, PARALLELISM) : [];
  const asyncIo = options.sections.has("async-io") ? await measureAsyncIoRuns(progress, checkpoints) : { runs: [], handLoopRecordsPerSecond: 0 };
  const asyncIoRuns = asyncIo.runs;
  const nexmark =
    options.sections.has("nexmark") || options.sections.has("nexmark-sql")
      ? await measureNexmark(progress, {
          dataStream: options.sections.has("nexmark"),
          events: options.nexmarkEvents,
          sqlEvents: options.nexmarkSqlEvents,
          queries: options.nexmarkQueries,
        })
      : null;
  const recovery: RecoveryFigures[] = [];
  if (options.sections.has("recovery")) {
    for (const stateBytes of RECOVERY_STATE_BYTES) {
      progress(`recovery with ${stateBytes / 2 ** 20} MiB of keyed state`);
      recovery.push(await measureRecovery(stateBytes));
    }
  }
  const state = options.sections.has("state") ? await measureState(progress, options) : null;
  const kafka = options.sections.has("kafka") ? await measureKafka(progress) : null;
  const postgres = options.sections.has("postgres") ? await measurePostgres(progress, [cdcMeasure()]) : null;

  const rate = (label: string) => runs.find((r) => r.label === label)!.recordsPerSecond;
  const fileRate = (label: string) => fileRuns.find((r) => r.label === label)!.megabytesPerSecond;
  const eventRate = (label: string) => eventTimeRuns.find((r) => r.label === label)!.eventsPerSecond;
  const objectRate = (label: string) => objectStateRuns.find((r) => r.label === label)!.recordsPerSecond;
  const asyncRate = (label: string) => asyncIoRuns.find((r) => r.label === label)!.recordsPerSecond;
  if (runs.length > 0) {
    const scale = scalingFigures(scaling);
    Object.assign(ratios, {
      "exactly-once 1 s / no checkpoints, 1 worker (target >= 0.95)": rate("1 worker, exactly-once 1 s") / rate(ONE_WORKER),
      "exactly-once 1 s / no checkpoints, in-process": rate("in-process, exactly-once 1 s") / rate("in-process, no checkpoints"),
      [`2 workers / 1 worker, steady, median of ${scaling.length} (target >= 1.7)`]: scale.steadyRatio,
      [`2 workers / 1 worker, CPU per record (half the records cross threads), median of ${scaling.length} (target <= 1.2)`]: scale.cpuRatio,
      [`2 workers / 1 worker, whole run, median of ${scaling.length}`]: scale.wholeRunRatio,
      "1 worker / in-process": rate(ONE_WORKER) / rate("in-process, no checkpoints"),
    });
    const cpuPerRecord = (label: string) => runs.find((r) => r.label === label)?.cpuNsPerRecord;
    const oneWorkerCpu = cpuPerRecord(ONE_WORKER);
    const inProcessCpu = cpuPerRecord("in-process, no checkpoints");
    if (oneWorkerCpu !== undefined && inProcessCpu !== undefined) ratios["CPU per record, steady: 1 worker / in-process, no checkpoints"] = oneWorkerCpu / inProcessCpu;
    for (const keys of options.keys.slice(1)) {
      const k = keysLabel(keys);
      ratios[`exactly-once 1 s / no checkpoints, in-process, ${k} keys`] = rate(`${k} keys, in-process, exactly-once 1 s`) / rate(`${k} keys, in-process, no checkpoints`);
      ratios[`${k} keys / ${keysLabel(options.keys[0]!)} keys, in-process, no checkpoints`] = rate(`${k} keys, in-process, no checkpoints`) / rate("in-process, no checkpoints");
    }
  }
  if (fileRuns.length > 0) ratios["file job: exactly-once 1 s / no checkpoints"] = fileRate(FILE_PLAN[1][0]) / fileRate(FILE_PLAN[0][0]);
  if (eventTimeRuns.length > 0) {
    ratios["sliding window: exactly-once 1 s / no checkpoints"] = eventRate(WINDOW_PLAN[1][0]) / eventRate(WINDOW_PLAN[0][0]);
    ratios["interval join: exactly-once 1 s / no checkpoints"] = eventRate(JOIN_PLAN[1][0]) / eventRate(JOIN_PLAN[0][0]);
    if (runs.length > 0) ratios["sliding window / keyed count, in-process, no checkpoints"] = eventRate(WINDOW_PLAN[0][0]) / rate("in-process, no checkpoints");
  }
  if (objectStateRuns.length > 0) {
    const [small, smallEo, large, largeEo] = OBJECT_STATE_PLAN.map(([label]) => objectRate(label)) as [number, number, number, number];
    ratios["object state, 10k keys: exactly-once 1 s / no checkpoints"] = smallEo / small;
    ratios["object state, 1M keys: exactly-once 1 s / no checkpoints"] = largeEo / large;
    ratios["object state 1M keys / 10k keys, no checkpoints"] = large / small;
    if (runs.length > 0) ratios["object state 10k keys / keyed count, in-process, no checkpoints"] = small / rate("in-process, no checkpoints");
  }

  if (asyncIoRuns.length > 0) {
    const [ordered, orderedEo, unordered, unorderedEo] = ASYNC_IO_PLAN.map(([label]) => asyncRate(label)) as [number, number, number, number];
    const ceiling = (ASYNC_IO_CAPACITY * 1000) / ASYNC_IO_LATENCY_MS;
    ratios["async I/O: unordered / ordered, no checkpoints"] = unordered / ordered;
    ratios["async I/O ordered: exactly-once 1 s / no checkpoints"] = orderedEo / ordered;
    ratios["async I/O unordered: exactly-once 1 s / no checkpoints"] = unorderedEo / unordered;
    ratios["async I/O unordered, no checkpoints / ceiling (capacity ÷ latency)"] = unordered / ceiling;
    ratios["async I/O unordered, no checkpoints / hand loop"] = unordered / asyncIo.handLoopRecordsPerSecond;
    ratios["async I/O ordered, no checkpoints / hand loop"] = ordered / asyncIo.handLoopRecordsPerSecond;
  }

  if (state) Object.assign(ratios, stateRatios(state));
  if (startup) Object.assign(ratios, startupRatios(startup));
  if (kafka) Object.assign(ratios, kafkaRatios(kafka));
  if (postgres) Object.assign(ratios, postgresRatios(postgres));

  const report: BenchReport = {
    date: new Date().toISOString(),
    machine: machineInfo(),
    parallelism: PARALLELISM,
    runs,
    scaling,
    fileParallelism: FILE_PARALLELISM,
    fileRuns,
    eventTimeParallelism: EVENT_TIME_PARALLELISM,
    eventTimeRuns,
    objectStateParallelism: PARALLELISM,
    objectStateRuns,
    asyncIo: { capacity: ASYNC_IO_CAPACITY, latencyMs: ASYNC_IO_LATENCY_MS, handLoopRecordsPerSecond: asyncIo.handLoopRecordsPerSecond },
    asyncIoRuns,
    nexmark,
    recovery,
    state,
    startup,
    cluster,
    kafka,
    postgres,
    ratios,
    checkpoints,
  };
  const tcpTable = tcpLinks ? `\n\n${formatTcpLinks(tcpLinks)}` : "";
  const clusterTables = cluster ? `\n\n${formatCluster(cluster)}` : "";
  const nexmarkTables = nexmark ? `\n\n${formatNexmark(nexmark)}` : "";
  const stateTables = state ? `\n\n${formatState(state)}` : "";
  const startupTable = startup ? `\n\n${formatStartup(startup)}` : "";
  const kafkaTable = kafka ? `\n\n${formatKafka(kafka)}` : "";
  const postgresTable = postgres ? `\n\n${formatPostgres(postgres)}` : "";
  process.stdout.write(`\n${formatReport(report)}${tcpTable}${clusterTables}${nexmarkTables}${stateTables}${startupTable}${kafkaTable}${postgresTable}\n\n${reportJson(report)}\n`);
  return 0;
}

/**
 * The keyed count: warm-up (which sizes the runs unless `fixedRecords` is
 * given), start-up cost of the worker threads, the runs of the plan at the
 * first of `keyCounts`, then the scaling rounds (1 worker and 2 workers,
 * `SCALING_ROUNDS` times, in alternating order: the machine's speed drifts,
 * so each 2-worker run is compared with the 1-worker run next to it, and the
 * median of the rounds is reported); at each further key count a sizing run,
 * then the in-process runs (labels prefixed with the key count, e.g.
 * `1M keys, `). Adds the checkpoint figures of checkpointed runs to
 * `checkpoints`. The table's unchecked worker runs are those of the median round.
 */
async function measureKeyedCountRuns(
  progress: (line: string) => void,
  checkpoints: Record<string, CheckpointFigures>,
  fixedRecords: number | undefined,
  keyCounts: readonly number[],
): Promise<{ runs: RunFigures[]; scaling: ScalingRound[] }> {
  const keys = keyCounts[0]!;
  progress(`warm-up (${WARM_UP_REPEATS} × ${WARM_UP_RECORDS.toLocaleString("en-US")} records in-process, ${keys.toLocaleString("en-US")} keys)`);
  let warmUpMs = 0;
  for (let i = 0; i < WARM_UP_REPEATS; i++)
    warmUpMs = (await measured("warm-up", { records: WARM_UP_RECORDS, keys, parallelism: PARALLELISM, workers: 0, checkpointIntervalMs: 0 })).elapsedMs;
  const records = fixedRecords ?? sizeRuns(throughput(WARM_UP_RECORDS, warmUpMs));

  const startup: Record<number, number> = {};
  for (const workers of [1, 2]) {
    progress(`start-up cost of ${workers} worker(s)`);
    const times: number[] = [];
    for (let i = 0; i < STARTUP_REPEATS; i++)
      times.push((await measured("start-up", { records: STARTUP_RECORDS, keys, parallelism: PARALLELISM, workers, checkpointIntervalMs: 0 })).elapsedMs);
    startup[workers] = Math.min(...times);
  }

  const run = async (label: string, workers: number, checkpointIntervalMs: number, keyCount = keys, runRecords = records): Promise<RunFigures> => {
    progress(`${label} (${runRecords.toLocaleString("en-US")} records, ${keyCount.toLocaleString("en-US")} keys)`);
    const m = await measured(label, { records: runRecords, keys: keyCount, parallelism: PARALLELISM, workers, checkpointIntervalMs });
    const startupMs = startup[workers] ?? 0;
    const cp = checkpointFigures(m.checkpoints);
    if (checkpointIntervalMs > 0) checkpoints[label] = cp;
    return {
      label,
      keys: keyCount,
      workers,
      checkpointIntervalMs,
      records: runRecords,
      elapsedMs: m.elapsedMs,
      startupMs,
      recordsPerSecond: throughput(runRecords, m.elapsedMs, startupMs),
      checkpointsCompleted: cp.completed,
      loadAverage: m.loadAverage,
      ...(m.otherCores === undefined ? {} : { otherCores: m.otherCores }),
      ...(m.steady && m.steadyCpuMs !== undefined
        ? { steadyRecordsPerSecond: m.steady.recordsPerSecond, cpuNsPerRecord: (m.steadyCpuMs * 1e6) / m.steady.records }
        : {}),
    };
  };

  const inProcess = [
    ["in-process, no checkpoints", 0, 0],
    ["in-process, exactly-once 1 s", 0, CHECKPOINT_INTERVAL_MS],
  ] as const;
  const runs: RunFigures[] = [];
  for (const [label, workers, checkpointIntervalMs] of [...inProcess, ["1 worker, exactly-once 1 s", 1, CHECKPOINT_INTERVAL_MS] as const])
    runs.push(await run(label, workers, checkpointIntervalMs));
  const scaling: ScalingRound[] = [];
  for (let i = 0; i < SCALING_ROUNDS; i++) {
    // Every other round 2 workers go first, so that a machine that speeds up or slows down favours neither.
    if (i % 2 === 0) scaling.push({ oneWorker: await run(ONE_WORKER, 1, 0), twoWorkers: await run(TWO_WORKERS, 2, 0) });
    else {
      const twoWorkers = await run(TWO_WORKERS, 2, 0);
      scaling.push({ oneWorker: await run(ONE_WORKER, 1, 0), twoWorkers });
    }
  }
  const ratios = scalingFigures(scaling).steadyRatios;
  const middle = scaling[ratios.indexOf(median(ratios))] ?? scaling[0]!;
  runs.splice(2, 0, middle.oneWorker);
  runs.push(middle.twoWorkers);

  for (const more of keyCounts.slice(1)) {
    const sizingRecords = Math.max(WARM_UP_RECORDS, more);
    progress(`${more.toLocaleString("en-US")} keys: sizing run (${sizingRecords.toLocaleString("en-US")} records in-process)`);
    const sizing = await measured("sizing", { records: sizingRecords, keys: more, parallelism: PARALLELISM, workers: 0, checkpointIntervalMs: 0 });
    const moreRecords = fixedRecords ?? Math.max(more, sizeRuns(throughput(sizingRecords, sizing.elapsedMs)));
    for (const [label, workers, checkpointIntervalMs] of inProcess) runs.push(await run(`${keysLabel(more)} keys, ${label}`, workers, checkpointIntervalMs, more, moreRecords));
  }
  return { runs, scaling };
}

/** A key count for a label: `10k`, `1M`, `1.5M`, `250`. */
function keysLabel(keys: number): string {
  if (keys >= 1e6) return `${keys / 1e6}M`;
  if (keys >= 1e3) return `${keys / 1e3}k`;
  return String(keys);
}

/**
 * Generates the file job's input of each format in turn, runs the job once per
 * `FILE_PLAN` entry of that format (adding the checkpoint figures of
 * checkpointed runs to `checkpoints`) and checks that the output has one line
 * per input record.
 */
async function measureFileRuns(progress: (line: string) => void, checkpoints: Record<string, CheckpointFigures>): Promise<FileRunFigures[]> {
  const figures: FileRunFigures[] = [];
  for (const format of new Set(FILE_PLAN.map(([, f]) => f))) {
    progress(`generating ${FILE_INPUT_BYTES[format] / 1e6} MB of ${format === "csv" ? "CSV" : "JSON Lines"} orders`);
    const input: OrdersInput = await writeOrders(FILE_INPUT_BYTES[format], format);
    try {
      for (const [label, , checkpointIntervalMs] of FILE_PLAN.filter(([, f]) => f === format)) {
        progress(`${label} (${input.records.toLocaleString("en-US")} records, ${(input.bytes / 1e6).toFixed(0)} MB)`);
        const m = await runFileCopy({ input, checkpointIntervalMs });
        if (m.outputLines !== input.records) throw new BenchIntegrityError(label, "lines in the committed output", input.records, m.outputLines);
        const cp = checkpointFigures(m.checkpoints);
        figures.push(fileRunFigures(label, checkpointIntervalMs, input.records, input.bytes, m.elapsedMs, cp.completed));
        if (checkpointIntervalMs > 0) checkpoints[label] = cp;
      }
    } finally {
      await rm(input.dir, { recursive: true, force: true });
    }
  }
  return figures;
}

/** Runs the job and checks that every record reached the sinks exactly once. */
async function measured(label: string, params: KeyedCountParams): Promise<KeyedCountMeasurement> {
  const m = await runKeyedCount(params);
  if (m.received !== params.records) throw new BenchIntegrityError(label, "records the sinks received", params.records, m.received);
  return m;
}

/** Records for a run of about `TARGET_RUN_MS` at `recordsPerSecond`, rounded to a million (at least one million). */
function sizeRuns(recordsPerSecond: number): number {
  return Math.max(1, Math.round((recordsPerSecond * TARGET_RUN_MS) / 1000 / 1e6)) * 1e6;
}
