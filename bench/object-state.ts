/**
 * The object-state part of `npm run bench`: the keyed running aggregate over
 * object values (bench/jobs/object-state.ts), in-process, with 10 000 and
 * 1 000 000 keys, each without checkpoints and with exactly-once checkpoints
 * every second. A sizing run per key count (also the warm-up) sizes the
 * measured runs to about `TARGET_RUN_MS`. Every run is checked against the
 * closed-form expected result and fails with `BenchIntegrityError` otherwise.
 */
import { expectedCountSum, runObjectState } from "./jobs/object-state.ts";
import { BenchIntegrityError } from "./integrity-error.ts";
import { checkpointFigures, throughput, type CheckpointFigures, type ObjectStateRunFigures } from "./report.ts";

/** Wished duration of a measured run. */
const TARGET_RUN_MS = 4_000;
/** Measured runs are rounded to this many records. */
const ROUNDING = 100_000;
/** Least records of the sizing run of a key count; it has at least one per key, so it inserts every key. */
const SIZING_MIN_RECORDS = 1_000_000;
/** Measured runs see each key at least this many times (one insert, then updates). */
const MIN_RECORDS_PER_KEY = 2;

/** The key counts measured, and the label of each run: [label, keys, checkpoint interval]. */
export const OBJECT_STATE_PLAN: readonly (readonly [label: string, keys: number, checkpointIntervalMs: number])[] = [
  ["object 10k keys, no checkpoints", 10_000, 0],
  ["object 10k keys, exactly-once 1 s", 10_000, 1_000],
  ["object 1M keys, no checkpoints", 1_000_000, 0],
  ["object 1M keys, exactly-once 1 s", 1_000_000, 1_000],
];

/**
 * Runs the object-state job: for each key count of `OBJECT_STATE_PLAN`, a
 * sizing run, then its measured runs; adds the checkpoint figures of
 * checkpointed runs to `checkpoints`.
 *
 * @example
 * ```ts
 * const checkpoints = {};
 * const runs = await measureObjectStateRuns((line) => console.error(line), checkpoints, 4);
 * console.log(runs.map((r) => `${r.label}: ${Math.round(r.recordsPerSecond)} records/s`));
 * ```
 */
export async function measureObjectStateRuns(
  progress: (line: string) => void,
  checkpoints: Record<string, CheckpointFigures>,
  parallelism: number,
): Promise<ObjectStateRunFigures[]> {
  const runs: ObjectStateRunFigures[] = [];
  for (const keys of new Set(OBJECT_STATE_PLAN.map(([, k]) => k))) {
    const sizingRecords = Math.max(SIZING_MIN_RECORDS, keys);
    progress(`object state, ${keys.toLocaleString("en-US")} keys: sizing run (${sizingRecords.toLocaleString("en-US")} records)`);
    const sizing = await run(`object ${keys} keys, sizing`, sizingRecords, keys, 0);
    const records = Math.max(MIN_RECORDS_PER_KEY * keys, sized(throughput(sizingRecords, sizing.elapsedMs)));
    for (const [label, k, checkpointIntervalMs] of OBJECT_STATE_PLAN) {
      if (k !== keys) continue;
      progress(`${label} (${records.toLocaleString("en-US")} records)`);
      const m = await run(label, records, keys, checkpointIntervalMs);
      const cp = checkpointFigures(m.checkpoints);
      if (checkpointIntervalMs > 0) checkpoints[label] = cp;
      runs.push({ label, keys, checkpointIntervalMs, records, elapsedMs: m.elapsedMs, recordsPerSecond: throughput(records, m.elapsedMs), checkpointsCompleted: cp.completed });
    }
  }
  return runs;

  /** One run, checked: every record arrived once, and the running counts add up (the state held). */
  async function run(label: string, records: number, keys: number, checkpointIntervalMs: number) {
    const m = await runObjectState({ records, keys, parallelism, checkpointIntervalMs });
    if (m.received !== records) throw new BenchIntegrityError(label, "records the sinks received", records, m.received);
    const expected = expectedCountSum(records, keys);
    if (m.countSum !== expected) throw new BenchIntegrityError(label, "sum of the running counts", expected, m.countSum);
    return m;
  }
}

/** Records for a run of about `TARGET_RUN_MS` at `recordsPerSecond`, rounded to `ROUNDING` (at least `ROUNDING`). */
function sized(recordsPerSecond: number): number {
  return Math.max(1, Math.round((recordsPerSecond * TARGET_RUN_MS) / 1000 / ROUNDING)) * ROUNDING;
}
