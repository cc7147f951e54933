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
 *    heap, disk from checkpoint storage, disk from its local copy.
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
import { measureRecovery } from "./recovery.ts";
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
/** Records of the keyed-count runs: at least this many, and at least `RECORDS_PER_KEY` per key (each key inserted, then updated). */
const MIN_THROUGHPUT_RECORDS = 4_000_000;
const RECORDS_PER_KEY = 2;
/** The restore runs: backend and where it restores from. */
const RECOVERY_PLAN: readonly (readonly [StateBackendName, RestoreSource])[] = [
  ["heap", "checkpoint storage"],
  ["disk", "checkpoint storage"],
  ["disk", "local copy"],
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
  const skipped: string[] = [];
  const missing = new Set<StateBackendName>();
  /** Runs `run` unless `backend` is missing; notes it missing when the build refuses it. */
  const withBackend = async <T>(backend: StateBackendName, what: string, run: () => Promise<T>): Promise<T | undefined> => {
    if (missing.has(backend)) return undefined;
    try {
      return await run();
    } catch (e) {
      if (!unavailableBackend(e, backend)) throw e;
      missing.add(backend);
      skipped.push(`every ${backend} run (from ${what} on): ${(e as Error).message}`);
      return undefined;
    }
  };

  const checkpointCost: CheckpointCostFigures[] = [];
  for (const stateBytes of sizes.stateBytes) {
    const free = await freeBytes();
    if (free < DISK_PER_STATE_BYTE * stateBytes) {
      skipped.push(`checkpoint cost at ${bytesLabel(stateBytes)}: ${bytesLabel(free)} free in ${tmpdir()}, ${DISK_PER_STATE_BYTE}× the state wanted`);
      continue;
    }
    for (const backend of BACKENDS) {
      if (!fitsBackend(backend, stateBytes, skipped, `checkpoint cost at ${bytesLabel(stateBytes)}`)) continue;
      for (const incremental of [false, true]) {
        const label = `checkpoint cost, ${bytesLabel(stateBytes)}, ${checkpointModeLabel({ backend, incremental })}`;
        progress(label);
        const figures = await withBackend(backend, label, async () => {
          const m = await runKeyedChurn({
            stateBytes,
            backend,
            incremental,
            parallelism: PARALLELISM,
            checkpointIntervalMs: CHECKPOINT_INTERVAL_MS,
            churn: CHURN,
            steadyCheckpoints: STEADY_CHECKPOINTS,
          }, progress);
          return checkpointCostFigures({ ...m, ...m.params, stats: m.checkpoints });
        });
        if (figures) checkpointCost.push(figures);
      }
    }
  }

  const runs: StateThroughputFigures[] = [];
  progress("keyed count: warm-up (heap, 1,000,000 records, 10,000 keys, no checkpoints)");
  await counted("warm-up", { records: 1_000_000, keys: 10_000, parallelism: PARALLELISM, workers: 0, checkpointIntervalMs: 0 });
  for (const keys of sizes.stateKeys) {
    const records = Math.max(MIN_THROUGHPUT_RECORDS, RECORDS_PER_KEY * keys);
    for (const backend of BACKENDS) {
      const label = `keyed count, ${backend}, ${keys.toLocaleString("en-US")} keys, exactly-once 1 s (${records.toLocaleString("en-US")} records)`;
      progress(label);
      const run = await withBackend(backend, label, () =>
        counted(label, { records, keys, parallelism: PARALLELISM, workers: 0, checkpointIntervalMs: CHECKPOINT_INTERVAL_MS, backend }),
      );
      if (!run) continue;
      const cp = checkpointFigures(run.checkpoints);
      runs.push({
        backend,
        keys,
        records,
        elapsedMs: run.elapsedMs,
        recordsPerSecond: throughput(records, run.elapsedMs),
        checkpointsCompleted: cp.completed,
        checkpointP50Ms: cp.durationP50Ms,
      });
    }
  }

  const recovery: StateRecoveryFigures[] = [];
  const recoveryBytes = sizes.stateBytes.at(-1);
  if (recoveryBytes !== undefined) {
    const free = await freeBytes();
    if (free < DISK_PER_STATE_BYTE * recoveryBytes) skipped.push(`restore at ${bytesLabel(recoveryBytes)}: ${bytesLabel(free)} free in ${tmpdir()}`);
    else {
      for (const [backend, from] of RECOVERY_PLAN) {
        if (!fitsBackend(backend, recoveryBytes, skipped, `restore at ${bytesLabel(recoveryBytes)}`)) continue;
        const label = `restore after SIGKILL, ${bytesLabel(recoveryBytes)}, ${backend} from ${from}`;
        progress(label);
        const r = await withBackend(backend, label, () => measureRecovery(recoveryBytes, { backend, from }));
        if (r) recovery.push({ ...r, backend, from });
      }
    }
  }

  return { parallelism: PARALLELISM, checkpointIntervalMs: CHECKPOINT_INTERVAL_MS, churn: CHURN, checkpointCost, throughput: runs, recovery, skipped };
}

/** False (noting it in `skipped`) for heap state that the JavaScript heap limit cannot hold twice over. */
function fitsBackend(backend: StateBackendName, stateBytes: number, skipped: string[], what: string): boolean {
  const limit = getHeapStatistics().heap_size_limit;
  if (backend !== "heap" || HEAP_PER_STATE_BYTE * stateBytes <= limit) return true;
  skipped.push(`${what} on heap: the JavaScript heap limit is ${bytesLabel(limit)} (node --max-old-space-size), ${HEAP_PER_STATE_BYTE}× the state wanted`);
  return false;
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

/** Free bytes for an unprivileged user in the temporary directory. */
async function freeBytes(): Promise<number> {
  const s = await statfs(tmpdir());
  return s.bavail * s.bsize;
}
