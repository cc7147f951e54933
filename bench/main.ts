/**
 * `npm run bench`: measures the keyed running-count job (bench/jobs/keyed-count.ts)
 * in one run and prints a table, then the same figures as one JSON line.
 *
 * Runs, all at parallelism 4: a warm-up (which also sizes the runs to about
 * `TARGET_RUN_MS`), the start-up cost of 1 and 2 worker threads (a job of a few
 * records), then in-process and 1 worker with checkpointing off and
 * exactly-once every second (filesystem storage), and 2 workers without
 * checkpointing. See docs/benchmarks.md for what each figure means.
 */
import { KEYS, runKeyedCount, type KeyedCountMeasurement, type KeyedCountParams } from "./jobs/keyed-count.ts";
import { machineInfo } from "./machine-info.ts";
import { checkpointFigures, formatReport, reportJson, throughput, type BenchReport, type CheckpointFigures, type RunFigures } from "./report.ts";

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

/** A bench run that lost or duplicated records. */
export class BenchIntegrityError extends Error {
  constructor(label: string, expected: number, received: number) {
    super(`bench run '${label}': the sinks received ${received} records, expected ${expected}`);
    this.name = "BenchIntegrityError";
  }
}

/**
 * Runs the benchmark and prints its report; resolves with the exit code (0).
 * Rejects with `BenchIntegrityError` when a run lost or duplicated records.
 *
 * @example
 * ```ts
 * process.exitCode = await main(["--records", "10000000"]);
 * ```
 */
export async function main(argv: readonly string[]): Promise<number> {
  const fixedRecords = recordsArgument(argv);
  const progress = (line: string) => void process.stderr.write(`bench: ${line}\n`);

  progress(`warm-up (${WARM_UP_REPEATS} × ${WARM_UP_RECORDS.toLocaleString("en-US")} records in-process)`);
  let warmUpMs = 0;
  for (let i = 0; i < WARM_UP_REPEATS; i++)
    warmUpMs = (await measured("warm-up", { records: WARM_UP_RECORDS, parallelism: PARALLELISM, workers: 0, checkpointIntervalMs: 0 })).elapsedMs;
  const records = fixedRecords ?? sizeRuns(throughput(WARM_UP_RECORDS, warmUpMs));

  const startup: Record<number, number> = {};
  for (const workers of [1, 2]) {
    progress(`start-up cost of ${workers} worker(s)`);
    const times: number[] = [];
    for (let i = 0; i < STARTUP_REPEATS; i++)
      times.push((await measured("start-up", { records: STARTUP_RECORDS, parallelism: PARALLELISM, workers, checkpointIntervalMs: 0 })).elapsedMs);
    startup[workers] = Math.min(...times);
  }

  const plan: [label: string, workers: number, checkpointIntervalMs: number][] = [
    ["in-process, no checkpoints", 0, 0],
    ["in-process, exactly-once 1 s", 0, CHECKPOINT_INTERVAL_MS],
    ["1 worker, no checkpoints", 1, 0],
    ["1 worker, exactly-once 1 s", 1, CHECKPOINT_INTERVAL_MS],
    ["2 workers, no checkpoints", 2, 0],
  ];
  const runs: RunFigures[] = [];
  const checkpoints: Record<string, CheckpointFigures> = {};
  for (const [label, workers, checkpointIntervalMs] of plan) {
    progress(`${label} (${records.toLocaleString("en-US")} records)`);
    const m = await measured(label, { records, parallelism: PARALLELISM, workers, checkpointIntervalMs });
    const startupMs = startup[workers] ?? 0;
    const cp = checkpointFigures(m.checkpoints);
    runs.push({
      label,
      workers,
      checkpointIntervalMs,
      records,
      elapsedMs: m.elapsedMs,
      startupMs,
      recordsPerSecond: throughput(records, m.elapsedMs, startupMs),
      checkpointsCompleted: cp.completed,
    });
    if (checkpointIntervalMs > 0) checkpoints[label] = cp;
  }

  const rate = (label: string) => runs.find((r) => r.label === label)!.recordsPerSecond;
  const report: BenchReport = {
    date: new Date().toISOString(),
    machine: machineInfo(),
    parallelism: PARALLELISM,
    keys: KEYS,
    runs,
    ratios: {
      "exactly-once 1 s / no checkpoints, 1 worker (target >= 0.95)": rate("1 worker, exactly-once 1 s") / rate("1 worker, no checkpoints"),
      "exactly-once 1 s / no checkpoints, in-process": rate("in-process, exactly-once 1 s") / rate("in-process, no checkpoints"),
      "2 workers / 1 worker": rate("2 workers, no checkpoints") / rate("1 worker, no checkpoints"),
      "1 worker / in-process": rate("1 worker, no checkpoints") / rate("in-process, no checkpoints"),
    },
    checkpoints,
  };
  process.stdout.write(`\n${formatReport(report)}\n\n${reportJson(report)}\n`);
  return 0;
}

/** Runs the job and checks that every record reached the sinks exactly once. */
async function measured(label: string, params: KeyedCountParams): Promise<KeyedCountMeasurement> {
  const m = await runKeyedCount(params);
  if (m.received !== params.records) throw new BenchIntegrityError(label, params.records, m.received);
  return m;
}

/** Records for a run of about `TARGET_RUN_MS` at `recordsPerSecond`, rounded to a million (at least one million). */
function sizeRuns(recordsPerSecond: number): number {
  return Math.max(1, Math.round((recordsPerSecond * TARGET_RUN_MS) / 1000 / 1e6)) * 1e6;
}

/** `--records N` fixes the size of the measured runs. */
function recordsArgument(argv: readonly string[]): number | undefined {
  const i = argv.indexOf("--records");
  if (i < 0) return undefined;
  const n = Number(argv[i + 1]);
  if (!Number.isSafeInteger(n) || n < 1) throw new RangeError(`--records must be a positive integer, got '${argv[i + 1] ?? ""}'`);
  return n;
}
