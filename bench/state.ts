/**
 * The `state` section of `npm run bench`: the keyed state backends (heap and
 * disk) and their checkpoints.
 *
 * 1. Checkpoint cost vs state size: the keyed-churn job
 *    (bench/jobs/keyed-churn.ts) at each `--state-bytes` size, with heap full,
 *    heap incremental, disk full and disk incremental checkpoints; the median
 *    duration and bytes written of its steady checkpoints.
 * 2. Throughput: the keyed count (bench/jobs/keyed-count.ts) on heap and on
 *    disk at each `--state-keys` key count, in-process, exactly-once every
 *    second.
 * 3. Restore after SIGKILL (bench/recovery.ts) with the largest state size:
 *    heap; disk from its local copy, then (the same job killed again)
 *    from checkpoint storage.
 *
 * A backend this build does not have (`createKeyedStateBackend` refuses it)
 * is skipped and named in the report, as is a size the free disk space
 * cannot hold.
 */
import { statfs } from "node:fs/promises";
import { tmpdir } from "node:os";
import { getHeapStatistics } from "node:v8";
import type { StateBackendName } from "../src/state/state-backend-settings.ts";
import { BenchIntegrityError } from "./integrity-error.ts";
import { runKeyedChurn } from "./jobs/keyed-churn.ts";
import { runKeyedCount, type KeyedCountParams } from "./jobs/keyed-count.ts";
import { measureRestarts } from "./recovery.ts";
import { percentile } from "../src/checkpoint/coordinator/index.ts";
import { checkpointFigures, throughput } from "./report.ts";
import {
  bytesLabel,
  checkpointCostFigures,
  checkpointModeLabel,
  type CheckpointCostFigures,
  type RestoreSource,
  type StateFigures,
  type StateRecoveryFigures,
  type StateThroughputFigures,
} from "./state-report.ts";

const BACKENDS: readonly StateBackendName[] = ["heap", "disk"];
const PARALLELISM = 2;
const CHECKPOINT_INTERVAL_MS = 1_000;
/** Fraction of the keys the churn job rewrites per checkpoint interval. */
const CHURN = 0.01;
/** Steady checkpoints per checkpoint-cost run (odd: the median is one of them; few: a full checkpoint of 1 GB takes many seconds). */
const STEADY_CHECKPOINTS = 3;
/** Free space wanted in the temporary directory per byte of state of a run (working copy, checkpoints, a chain's base and its new base). */
const DISK_PER_STATE_BYTE = 4;
/** JavaScript heap wanted per byte of heap-backend state (the 1 GB churn run peaks at about 1.3 GB of heap). */
const HEAP_PER_STATE_BYTE = 2;
/**
 * Records of a keyed-count run: `MIN_THROUGHPUT_RECORDS`, or one per key when
 * there are more keys (every key inserted once: the disk backend of 2026-12-02
 * took about 145 000 records/s at 1 M keys, so 10 M keys already take a minute or more).
 */
const MIN_THROUGHPUT_RECORDS = 4_000_000;
/** The restore runs: per backend, the sources its restarts restore from, in order (one fill and checkpoint per backend). */
const RECOVERY_PLAN: readonly (readonly [StateBackendName, readonly RestoreSource[]])[] = [
  ["heap", ["checkpoint storage"]],
  ["disk", ["local copy", "checkpoint storage"]],
];

/**
 * Runs the section.
 *
 * @example
 * ```ts
 * const figures = await measureState((line) => console.error(line), { stateBytes: [10e6], stateKeys: [10_000] });
 * console.log(formatState(figures));
 * ```
 */
export async function measureState(
  progress: (line: string) => void,
  sizes: { readonly stateBytes: readonly number[]; readonly stateKeys: readonly number[] },
): Promise<StateFigures> {
  const gate = new BackendGate();
  const checkpointCost = await measureCheckpointCost(progress, gate, sizes.stateBytes);
  const throughputRuns = await measureThroughput(progress, gate, sizes.stateKeys);
  const recoveryBytes = sizes.stateBytes.at(-1);
  const recovery = recoveryBytes === undefined ? [] : await measureRestores(progress, gate, recoveryBytes);
  return { parallelism: PARALLELISM, checkpointIntervalMs: CHECKPOINT_INTERVAL_MS, churn: CHURN, checkpointCost, throughput: throughputRuns, recovery, skipped: gate.skipped };
}

/** Runs of a backend this build does not have are skipped after the first refusal; `skipped` says what was left out and why. */
class BackendGate {
  readonly skipped: string[] = [];
  private readonly missing = new Set<StateBackendName>();

  /** Runs `run` unless `backend` is missing; notes it missing when the build refuses it. */
  async run<T>(backend: StateBackendName, what: string, run: () => Promise<T>): Promise<T | undefined> {
    if (this.missing.has(backend)) return undefined;
    try {
      return await run();
    } catch (e) {
      if (!unavailableBackend(e, backend)) throw e;
      this.missing.add(backend);
      this.skipped.push(`every ${backend} run (from ${what} on): ${(e as Error).message}`);
      return undefined;
    }
  }

  /** False (noting why) when the temporary directory has less than `DISK_PER_STATE_BYTE` × `stateBytes` free. */
  async diskFits(stateBytes: number, what: string): Promise<boolean> {
    const s = await statfs(tmpdir());
    const free = s.bavail * s.bsize;
    if (free >= DISK_PER_STATE_BYTE * stateBytes) return true;
    this.skipped.push(`${what}: ${bytesLabel(free)} free in ${tmpdir()}, ${DISK_PER_STATE_BYTE}× the state wanted`);
    return false;
  }

  /** False (noting why) for heap state that the JavaScript heap limit cannot hold `HEAP_PER_STATE_BYTE` times over. */
  heapFits(backend: StateBackendName, stateBytes: number, what: string): boolean {
    const limit = getHeapStatistics().heap_size_limit;
    if (backend !== "heap" || HEAP_PER_STATE_BYTE * stateBytes <= limit) return true;
    this.skipped.push(`${what} on heap: the JavaScript heap limit is ${bytesLabel(limit)} (node --max-old-space-size), ${HEAP_PER_STATE_BYTE}× the state wanted`);
    return false;
  }
}

/** Part 1: the keyed-churn job at each size, with each backend, full and incremental. */
async function measureCheckpointCost(progress: (line: string) => void, gate: BackendGate, sizes: readonly number[]): Promise<CheckpointCostFigures[]> {
  const figures: CheckpointCostFigures[] = [];
  for (const stateBytes of sizes) {
    const what = `checkpoint cost at ${bytesLabel(stateBytes)}`;
    if (!(await gate.diskFits(stateBytes, what))) continue;
    for (const backend of BACKENDS) {
      if (!gate.heapFits(backend, stateBytes, what)) continue;
      for (const incremental of [false, true]) {
        const label = `checkpoint cost, ${bytesLabel(stateBytes)}, ${checkpointModeLabel({ backend, incremental })}`;
        progress(label);
        const f = await gate.run(backend, label, async () => {
          const params = { stateBytes, backend, incremental, parallelism: PARALLELISM, checkpointIntervalMs: CHECKPOINT_INTERVAL_MS, churn: CHURN, steadyCheckpoints: STEADY_CHECKPOINTS };
          const m = await runKeyedChurn(params, progress);
          return checkpointCostFigures({ ...m, ...params, stats: m.checkpoints });
        });
        if (f) figures.push(f);
      }
    }
  }
  return figures;
}

/** Part 2: the keyed count on each backend at each key count, after a warm-up. */
async function measureThroughput(progress: (line: string) => void, gate: BackendGate, keyCounts: readonly number[]): Promise<StateThroughputFigures[]> {
  const figures: StateThroughputFigures[] = [];
  if (keyCounts.length === 0) return figures;
  progress("keyed count: warm-up (heap, 1,000,000 records, 10,000 keys, no checkpoints)");
  await counted("warm-up", { records: 1_000_000, keys: 10_000, parallelism: PARALLELISM, workers: 0, checkpointIntervalMs: 0 });
  for (const keys of keyCounts) {
    const records = Math.max(MIN_THROUGHPUT_RECORDS, keys);
    for (const backend of BACKENDS) {
      const label = `keyed count, ${backend}, ${keys.toLocaleString("en-US")} keys, exactly-once 1 s (${records.toLocaleString("en-US")} records)`;
      progress(label);
      const run = await gate.run(backend, label, () => counted(label, { records, keys, parallelism: PARALLELISM, workers: 0, checkpointIntervalMs: CHECKPOINT_INTERVAL_MS, backend }));
      if (!run) continue;
      const cp = checkpointFigures(run.checkpoints);
      const syncs = (run.checkpoints?.history.completed ?? []).map((c) => c.maxSyncMs);
      figures.push({
        backend,
        keys,
        records,
        elapsedMs: run.elapsedMs,
        recordsPerSecond: throughput(records, run.elapsedMs),
        checkpointsCompleted: cp.completed,
        checkpointP50Ms: cp.durationP50Ms,
        syncP50Ms: percentile(syncs, 50),
        syncP99Ms: percentile(syncs, 99),
      });
    }
  }
  return figures;
}

/** Part 3: restore after SIGKILL with `stateBytes` of state, per `RECOVERY_PLAN`. */
async function measureRestores(progress: (line: string) => void, gate: BackendGate, stateBytes: number): Promise<StateRecoveryFigures[]> {
  const figures: StateRecoveryFigures[] = [];
  const what = `restore at ${bytesLabel(stateBytes)}`;
  if (!(await gate.diskFits(stateBytes, what))) return figures;
  for (const [backend, froms] of RECOVERY_PLAN) {
    if (!gate.heapFits(backend, stateBytes, what)) continue;
    const label = `restore after SIGKILL, ${bytesLabel(stateBytes)}, ${backend} from ${froms.join(", then from ")}`;
    progress(label);
    const runs = await gate.run(backend, label, () => measureRestarts(stateBytes, backend, froms));
    runs?.forEach((r, i) => figures.push({ ...r, backend, from: froms[i]! }));
  }
  return figures;
}

/** A keyed-count run, checked: every record reached the sinks once. */
async function counted(label: string, params: KeyedCountParams) {
  const m = await runKeyedCount(params);
  if (m.received !== params.records) throw new BenchIntegrityError(label, "records the sinks received", params.records, m.received);
  return m;
}

/** True when `error` says that this build has no `backend` (src/runtime/task/create-keyed-state-backend.ts). */
function unavailableBackend(error: unknown, backend: StateBackendName): boolean {
  return error instanceof Error && error.message.includes(`state backend '${backend}' is not available in this build`);
}
