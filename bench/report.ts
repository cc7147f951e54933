/**
 * The pure part of the benchmark: turns measured runs into figures (records/s,
 * ratios, checkpoint percentiles) and the figures into a table and one JSON
 * line. No I/O, no clock.
 */
import type { ClusterFigures } from "./cluster.ts";
import { percentile } from "../src/checkpoint/coordinator/index.ts";
import type { CheckpointStats } from "../src/index.ts";
import type { NexmarkFigures } from "./nexmark-report.ts";
import type { StateFigures } from "./state-report.ts";
import type { StartupFigures } from "./startup-report.ts";
import type { KafkaFigures } from "./kafka.ts";
import type { PostgresFigures } from "./postgres.ts";

/** One measured run as the report sees it. */
export interface RunFigures {
  /** Short name shown in the table, e.g. `"1 worker, exactly-once 1 s"`. */
  readonly label: string;
  /** Distinct keys of the run. */
  readonly keys: number;
  readonly workers: number;
  readonly checkpointIntervalMs: number;
  readonly records: number;
  /** Wall time of the whole run (start-up included), in ms. */
  readonly elapsedMs: number;
  /** Fixed cost of starting and stopping the job (threads, module import), subtracted from `elapsedMs`; 0 in-process. */
  readonly startupMs: number;
  /** Records per second over `elapsedMs - startupMs`. */
  readonly recordsPerSecond: number;
  /** Checkpoints completed during the run. */
  readonly checkpointsCompleted: number;
  /** Records per second in the steady state (20–90 % of the records, bench/steady-rate.ts); undefined if the run had none. */
  readonly steadyRecordsPerSecond?: number;
  /** CPU time of the whole process (every thread) per record in the steady state, in ns. */
  readonly cpuNsPerRecord?: number;
  /** The machine's 1-minute load average when the run started. */
  readonly loadAverage?: number;
  /** Cores other processes kept busy during the run (bench/machine-busy.ts). */
  readonly otherCores?: number;
}

/** One round of the scaling measurement: the same job on 1, then on 2 worker threads. */
export interface ScalingRound {
  readonly oneWorker: RunFigures;
  readonly twoWorkers: RunFigures;
}

/** 2 workers over 1 worker, per round and the median over the rounds. */
export interface ScalingFigures {
  /** Steady-state records/s, 2 workers / 1 worker, per round. */
  readonly steadyRatios: readonly number[];
  /** Whole-run records/s (start-up subtracted), 2 workers / 1 worker, per round. */
  readonly wholeRunRatios: readonly number[];
  /** CPU per record in the steady state, 2 workers / 1 worker, per round (1: distributing costs nothing). */
  readonly cpuRatios: readonly number[];
  readonly steadyRatio: number;
  readonly wholeRunRatio: number;
  readonly cpuRatio: number;
}

/** Percentiles of the completed checkpoints of one run, in ms (undefined when none completed). */
export interface CheckpointFigures {
  readonly completed: number;
  readonly failed: number;
  readonly durationP50Ms: number | undefined;
  readonly durationP99Ms: number | undefined;
  readonly alignmentP50Ms: number | undefined;
  readonly alignmentP99Ms: number | undefined;
  /** Bytes the last completed checkpoint references (its own and shared files), i.e. the state it holds. */
  readonly stateBytes: number | undefined;
  /** Bytes the last completed checkpoint wrote (less than `stateBytes` with incremental checkpoints). */
  readonly checkpointedBytes: number | undefined;
}

/** The machine the bench ran on. */
export interface MachineInfo {
  readonly cpuModel: string;
  readonly cores: number;
  /** CPUs this process may run on (`nproc`). */
  readonly nproc: number;
  /** 1-minute load average when the bench started. */
  readonly loadAverage: number;
  readonly node: string;
  readonly platform: string;
  readonly memoryGiB: number;
}

/** One measured run of the file job (FileSource of JSON Lines or CSV → map → FileSink of JSON Lines). */
export interface FileRunFigures {
  readonly label: string;
  readonly checkpointIntervalMs: number;
  readonly records: number;
  /** Size of the input files. */
  readonly inputBytes: number;
  /** Wall time of the run, until every output file was committed, in ms. */
  readonly elapsedMs: number;
  /** Input megabytes (10^6 bytes) per second over `elapsedMs`. */
  readonly megabytesPerSecond: number;
  readonly recordsPerSecond: number;
  readonly checkpointsCompleted: number;
}

/** One measured run of an event-time job (in-process). */
export interface EventTimeRunFigures {
  readonly label: string;
  readonly job: "sliding window" | "interval join";
  readonly checkpointIntervalMs: number;
  /** Input events (for the join: orders plus payments). */
  readonly events: number;
  /** Wall time of the run, in ms. */
  readonly elapsedMs: number;
  /** Input events per second over `elapsedMs`. */
  readonly eventsPerSecond: number;
  /** Records the job emitted: window results, or join pairs. */
  readonly outputs: number;
  readonly checkpointsCompleted: number;
}

/** One measured run of the object-state job (in-process): a running aggregate object per key in `ValueState`. */
export interface ObjectStateRunFigures {
  readonly label: string;
  /** Distinct keys of the run. */
  readonly keys: number;
  readonly checkpointIntervalMs: number;
  readonly records: number;
  /** Wall time of the run, in ms. */
  readonly elapsedMs: number;
  /** Records per second over `elapsedMs`. */
  readonly recordsPerSecond: number;
  readonly checkpointsCompleted: number;
}

/** One measured run of the async I/O job (in-process, parallelism 1): a simulated service behind `orderedWait`/`unorderedWait`. */
export interface AsyncIoRunFigures {
  readonly label: string;
  readonly outputMode: "ordered" | "unordered";
  readonly checkpointIntervalMs: number;
  readonly records: number;
  /** Wall time of the run, in ms. */
  readonly elapsedMs: number;
  /** Records per second over `elapsedMs`. */
  readonly recordsPerSecond: number;
  readonly checkpointsCompleted: number;
}

/** Recovery of a `weir run` process killed with SIGKILL, restarted with the same command. */
export interface RecoveryFigures {
  /** Keyed state the job was sized to hold, in bytes. */
  readonly stateBytes: number;
  /** Size of the checkpoint directory (state files and `_metadata`) seen complete before the kill. */
  readonly checkpointBytes: number;
  /** Kill → the job module starts in the new process (process start, tsx, CLI and module import). */
  readonly processStartMs: number;
  /** Job module start → first record processed after the restore (workers, checkpoint read, state restore, deploy). */
  readonly restoreMs: number;
  /** Kill → first record processed after the restore. */
  readonly killToFirstRecordMs: number;
}

/** Everything one bench run reports. */
export interface BenchReport {
  readonly date: string;
  readonly machine: MachineInfo;
  /** Parallelism of the keyed count (and the bench's default). */
  readonly parallelism: number;
  /** Runs of the keyed count (empty when that section did not run). */
  readonly runs: readonly RunFigures[];
  /** The keyed count on 1 and 2 workers, alternately (empty when that section did not run). */
  readonly scaling: readonly ScalingRound[];
  /** Parallelism of the file job. */
  readonly fileParallelism: number;
  readonly fileRuns: readonly FileRunFigures[];
  /** Parallelism of the event-time jobs. */
  readonly eventTimeParallelism: number;
  readonly eventTimeRuns: readonly EventTimeRunFigures[];
  /** Parallelism of the object-state job. */
  readonly objectStateParallelism: number;
  readonly objectStateRuns: readonly ObjectStateRunFigures[];
  /** Capacity and service latency (ms) of the async I/O runs, and the rate of the same requests in a hand loop without the engine. */
  readonly asyncIo: { readonly capacity: number; readonly latencyMs: number; readonly handLoopRecordsPerSecond: number };
  readonly asyncIoRuns: readonly AsyncIoRunFigures[];
  /** The Nexmark section (bench/nexmark.ts; its tables by `formatNexmark`), null when it did not run. */
  readonly nexmark: NexmarkFigures | null;
  readonly recovery: readonly RecoveryFigures[];
  /** The state-backend section (bench/state.ts; its tables by `formatState`), null when it did not run. */
  readonly state: StateFigures | null;
  /** The start-up section (bench/startup.ts; its table by `formatStartup`), null when it did not run. */
  readonly startup: StartupFigures | null;
  /** The cluster section (bench/cluster.ts; its tables by `formatCluster`), null when it did not run. */
  readonly cluster: ClusterFigures | null;
  /** The Kafka section (bench/kafka.ts; its table by `formatKafka`), null when it did not run. */
  readonly kafka: KafkaFigures | null;
  /** The PostgreSQL section (bench/postgres.ts; its table by `formatPostgres`), null when it did not run. */
  readonly postgres: PostgresFigures | null;
  /** Named ratios, e.g. `checkpointOverhead1Worker` = checkpointed / unchecked records/s. */
  readonly ratios: Readonly<Record<string, number>>;
  /** Checkpoint figures of each checkpointed run, by label. */
  readonly checkpoints: Readonly<Record<string, CheckpointFigures>>;
}

/**
 * Records per second of a run of `records` records that took `elapsedMs`, of
 * which `startupMs` were a fixed start-up and tear-down cost.
 *
 * @example
 * ```ts
 * throughput(10_000_000, 2_300, 300); // 5_000_000
 * ```
 */
export function throughput(records: number, elapsedMs: number, startupMs = 0): number {
  const busyMs = elapsedMs - startupMs;
  if (!(busyMs > 0)) throw new RangeError(`throughput: the run took ${elapsedMs} ms, not more than its start-up of ${startupMs} ms`);
  return (records * 1000) / busyMs;
}

/**
 * Figures of one file-job run of `records` records and `inputBytes` bytes that took `elapsedMs`.
 *
 * @example
 * ```ts
 * fileRunFigures("no checkpoints", 0, 2_000_000, 250e6, 5_000, 0).megabytesPerSecond; // 50
 * ```
 */
export function fileRunFigures(
  label: string,
  checkpointIntervalMs: number,
  records: number,
  inputBytes: number,
  elapsedMs: number,
  checkpointsCompleted: number,
): FileRunFigures {
  return {
    label,
    checkpointIntervalMs,
    records,
    inputBytes,
    elapsedMs,
    megabytesPerSecond: throughput(inputBytes / 1e6, elapsedMs),
    recordsPerSecond: throughput(records, elapsedMs),
    checkpointsCompleted,
  };
}

/**
 * Splits a recovery into its phases from wall-clock instants (ms since the epoch):
 * the kill, the start of the job module in the new process, the first record
 * processed after the restore.
 *
 * @example
 * ```ts
 * recoveryFigures({ stateBytes: 1e7, checkpointBytes: 1.05e7, killedAt: 1000, moduleAt: 1600, firstRecordAt: 1900 });
 * // { …, processStartMs: 600, restoreMs: 300, killToFirstRecordMs: 900 }
 * ```
 */
export function recoveryFigures(t: {
  readonly stateBytes: number;
  readonly checkpointBytes: number;
  readonly killedAt: number;
  readonly moduleAt: number;
  readonly firstRecordAt: number;
}): RecoveryFigures {
  if (!(t.killedAt <= t.moduleAt && t.moduleAt <= t.firstRecordAt))
    throw new RangeError(`recoveryFigures: instants out of order (killed ${t.killedAt}, module ${t.moduleAt}, first record ${t.firstRecordAt})`);
  return {
    stateBytes: t.stateBytes,
    checkpointBytes: t.checkpointBytes,
    processStartMs: t.moduleAt - t.killedAt,
    restoreMs: t.firstRecordAt - t.moduleAt,
    killToFirstRecordMs: t.firstRecordAt - t.killedAt,
  };
}

/**
 * Ratios of the scaling rounds and their medians.
 *
 * @throws RangeError without rounds, or when a run has no steady state
 * @example
 * ```ts
 * scalingFigures(rounds).steadyRatio; // e.g. 1.85: 2 workers run 1.85 times as fast as 1 in the steady state
 * ```
 */
export function scalingFigures(rounds: readonly ScalingRound[]): ScalingFigures {
  if (rounds.length === 0) throw new RangeError("scalingFigures: no rounds");
  const ratio = (pick: (run: RunFigures) => number | undefined) =>
    rounds.map((r) => {
      const a = pick(r.twoWorkers);
      const b = pick(r.oneWorker);
      if (a === undefined || b === undefined) throw new RangeError(`scalingFigures: a run of '${r.oneWorker.label}' or '${r.twoWorkers.label}' had no steady state`);
      return a / b;
    });
  const steadyRatios = ratio((run) => run.steadyRecordsPerSecond);
  const wholeRunRatios = ratio((run) => run.recordsPerSecond);
  const cpuRatios = ratio((run) => run.cpuNsPerRecord);
  return {
    steadyRatios,
    wholeRunRatios,
    cpuRatios,
    steadyRatio: median(steadyRatios),
    wholeRunRatio: median(wholeRunRatios),
    cpuRatio: median(cpuRatios),
  };
}

/** The middle value (the mean of the two middle ones for an even count). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Duration and alignment percentiles (p50, p99) of the completed checkpoints in `stats`. */
export function checkpointFigures(stats: CheckpointStats | null): CheckpointFigures {
  const completed = stats?.history.completed ?? [];
  const durations = completed.map((c) => c.durationMs);
  const alignments = completed.map((c) => c.maxAlignmentMs);
  return {
    completed: stats?.counts.completed ?? 0,
    failed: stats?.counts.failed ?? 0,
    durationP50Ms: percentile(durations, 50),
    durationP99Ms: percentile(durations, 99),
    alignmentP50Ms: percentile(alignments, 50),
    alignmentP99Ms: percentile(alignments, 99),
    stateBytes: stats?.lastCompleted?.stateSize,
    checkpointedBytes: stats?.lastCompleted?.checkpointedSize,
  };
}

/**
 * Human-readable report: machine, one table per section that ran, the
 * checkpoint percentiles and the ratios.
 */
export function formatReport(r: BenchReport): string {
  const m = r.machine;
  const lines = [
    `Weir bench — ${r.date}`,
    `machine: ${m.cpuModel}, ${m.cores} cores (nproc ${m.nproc}), ${m.memoryGiB} GiB, ${m.platform}, node ${m.node}; load average ${m.loadAverage.toFixed(2)} at the start`,
  ];
  if (r.runs.length > 0) {
    lines.push(
      `job: fromSequence → keyBy(n % keys) → ValueState running count → discarding sink, parallelism ${r.parallelism}`,
      "steady: records/s from 20 % to 90 % of the records; CPU/record: CPU time of every thread of the process there;",
      "load: 1-minute load average at the start; others: cores other processes kept busy during the run",
      "",
      table(
        ["run", "keys", "records", "elapsed", "start-up", "records/s", "checkpoints", "steady", "CPU/record", "load", "others"],
        r.runs.map((run) => [
          run.label,
          millions(run.keys),
          millions(run.records),
          elapsedCell(run),
          run.startupMs > 0 ? `${Math.round(run.startupMs)} ms` : "-",
          millions(run.recordsPerSecond),
          checkpointsCell(run),
          run.steadyRecordsPerSecond === undefined ? "-" : millions(run.steadyRecordsPerSecond),
          nanoseconds(run.cpuNsPerRecord),
          run.loadAverage === undefined ? "-" : run.loadAverage.toFixed(2),
          run.otherCores === undefined ? "-" : run.otherCores.toFixed(2),
        ]),
      ),
    );
  }
  if (r.scaling.length > 0) {
    const f = scalingFigures(r.scaling);
    lines.push(
      "",
      `scaling: the same job, no checkpoints, on 1 and on 2 worker threads (in turn first), ${r.scaling.length} rounds; 2 workers / 1 worker of each figure`,
      "",
      table(
        ["round", "load", "others", "1 worker steady", "2 workers steady", "steady", "CPU/record 1", "CPU/record 2", "CPU", "whole run"],
        r.scaling.map((round, i) => [
          String(i + 1),
          round.oneWorker.loadAverage?.toFixed(2) ?? "-",
          othersCell(round),
          millions(round.oneWorker.steadyRecordsPerSecond ?? Number.NaN),
          millions(round.twoWorkers.steadyRecordsPerSecond ?? Number.NaN),
          f.steadyRatios[i]!.toFixed(3),
          nanoseconds(round.oneWorker.cpuNsPerRecord),
          nanoseconds(round.twoWorkers.cpuNsPerRecord),
          f.cpuRatios[i]!.toFixed(3),
          f.wholeRunRatios[i]!.toFixed(3),
        ]),
      ),
      `median: steady ${f.steadyRatio.toFixed(3)}, CPU per record ${f.cpuRatio.toFixed(3)}, whole run ${f.wholeRunRatio.toFixed(3)}`,
    );
  }
  if (r.fileRuns.length > 0) {
    lines.push(
      "",
      `file job: FileSource.forRecords(jsonl, or csv) → map → FileSink.forRows(jsonl), parallelism ${r.fileParallelism}, in-process`,
      "",
      table(
        ["file run", "records", "input", "elapsed", "MB/s", "records/s", "checkpoints"],
        r.fileRuns.map((run) => [
          run.label,
          millions(run.records),
          `${(run.inputBytes / 1e6).toFixed(0)} MB`,
          elapsedCell(run),
          run.megabytesPerSecond.toFixed(1),
          millions(run.recordsPerSecond),
          checkpointsCell(run),
        ]),
      ),
    );
  }
  if (r.eventTimeRuns.length > 0) {
    lines.push(
      "",
      `event-time jobs, in-process, parallelism ${r.eventTimeParallelism}, 10,000 keys:`,
      "  sliding window: fromSequence → map (seeded disorder < 5 s) → watermarks (bounded 5 s) → keyBy → SlidingEventTimeWindows.of(10 s, 2 s).aggregate(count)",
      "  interval join: orders ⋈ payments (one per order, offset ≤ 3 s), intervalJoin.between(-5 s, +5 s); events = orders + payments",
      "",
      table(
        ["event-time run", "events", "elapsed", "events/s", "outputs", "checkpoints"],
        r.eventTimeRuns.map((run) => [
          run.label,
          millions(run.events),
          elapsedCell(run),
          millions(run.eventsPerSecond),
          millions(run.outputs),
          checkpointsCell(run),
        ]),
      ),
    );
  }
  if (r.objectStateRuns.length > 0) {
    lines.push(
      "",
      `object state, in-process, parallelism ${r.objectStateParallelism}:`,
      "  fromSequence → keyBy(n % keys) → ValueState<{count, sum, min, max}> (value(), mutated in place, update()) → {key, count} → counting sink",
      "",
      table(
        ["object-state run", "keys", "records", "elapsed", "records/s", "checkpoints"],
        r.objectStateRuns.map((run) => [
          run.label,
          millions(run.keys),
          millions(run.records),
          elapsedCell(run),
          millions(run.recordsPerSecond),
          checkpointsCell(run),
        ]),
      ),
    );
  }
  if (r.asyncIoRuns.length > 0) {
    const { capacity, latencyMs, handLoopRecordsPerSecond } = r.asyncIo;
    lines.push(
      "",
      `async I/O, in-process, parallelism 1, capacity ${capacity}, a service answering after ${latencyMs} ms (ceiling: ${millions((capacity * 1000) / latencyMs)} records/s):`,
      "  fromSequence → AsyncDataStream.orderedWait | unorderedWait → counting sink",
      `  the same requests in a hand loop without the engine (Node's timers): ${millions(handLoopRecordsPerSecond)} requests/s`,
      "",
      table(
        ["async I/O run", "records", "elapsed", "records/s", "checkpoints"],
        r.asyncIoRuns.map((run) => [run.label, millions(run.records), elapsedCell(run), millions(run.recordsPerSecond), checkpointsCell(run)]),
      ),
    );
  }
  if (r.recovery.length > 0) {
    lines.push(
      "",
      "recovery: weir run (parallelism 2, 1 worker, exactly-once 1 s) killed with SIGKILL after a checkpoint of the state size, then run again",
      "",
      table(
        ["state", "checkpoint", "process start", "restore", "kill → first record"],
        r.recovery.map((x) => [
          `${(x.stateBytes / 2 ** 20).toFixed(0)} MiB`,
          `${(x.checkpointBytes / 2 ** 20).toFixed(1)} MiB`,
          ms(x.processStartMs),
          ms(x.restoreMs),
          ms(x.killToFirstRecordMs),
        ]),
      ),
    );
  }
  const cps = Object.entries(r.checkpoints);
  if (cps.length > 0) {
    lines.push(
      "",
      table(
        ["checkpoints of", "completed", "failed", "duration p50", "p99", "alignment p50", "p99", "state", "written"],
        cps.map(([label, c]) => [
          label,
          String(c.completed),
          String(c.failed),
          ms(c.durationP50Ms),
          ms(c.durationP99Ms),
          ms(c.alignmentP50Ms),
          ms(c.alignmentP99Ms),
          stateSize(c.stateBytes),
          stateSize(c.checkpointedBytes),
        ]),
      ),
    );
  }
  const ratios = Object.entries(r.ratios);
  if (ratios.length > 0) lines.push("", table(["ratio", "value"], ratios.map(([name, v]) => [name, v.toFixed(3)])));
  return lines.join("\n");
}

/** The report as one JSON line (figures rounded for reading). */
export function reportJson(r: BenchReport): string {
  return JSON.stringify(r, (_key, v: unknown) => (typeof v === "number" && !Number.isInteger(v) ? Math.round(v * 1000) / 1000 : v));
}

/** A run's wall time in seconds, for a table cell. */
export function elapsedCell(run: { elapsedMs: number }): string {
  return `${(run.elapsedMs / 1000).toFixed(2)} s`;
}

/** A run's completed checkpoints, or "off" without checkpointing, for a table cell. */
export function checkpointsCell(run: { checkpointIntervalMs: number; checkpointsCompleted: number }): string {
  return run.checkpointIntervalMs > 0 ? String(run.checkpointsCompleted) : "off";
}

/** The most that other processes kept busy during either run of a round. */
function othersCell(round: ScalingRound): string {
  const a = round.oneWorker.otherCores;
  const b = round.twoWorkers.otherCores;
  return a === undefined || b === undefined ? "-" : Math.max(a, b).toFixed(2);
}

function nanoseconds(v: number | undefined): string {
  return v === undefined ? "-" : `${Math.round(v)} ns`;
}

/** Millions with two decimals from a million on, a whole number with thousands separators below. */
export function millions(n: number): string {
  return n >= 1e6 ? `${(n / 1e6).toFixed(2)} M` : Math.round(n).toLocaleString("en-US");
}

/** KiB below 10 MiB, MiB above. */
export function stateSize(bytes: number | undefined): string {
  if (bytes === undefined) return "-";
  return bytes < 10 * 2 ** 20 ? `${(bytes / 1024).toFixed(0)} KiB` : `${(bytes / 2 ** 20).toFixed(1)} MiB`;
}

/** Whole milliseconds, or "-". */
export function ms(v: number | undefined): string {
  return v === undefined ? "-" : `${Math.round(v)} ms`;
}

/** Left-aligned first column, right-aligned others, columns separated by two spaces. */
export function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const all = [header, ...rows];
  const widths = header.map((_, i) => Math.max(...all.map((row) => (row[i] ?? "").length)));
  const line = (row: readonly string[]) =>
    row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join("  ").trimEnd();
  return [line(header), widths.map((w) => "-".repeat(w)).join("  "), ...rows.map(line)].join("\n");
}
