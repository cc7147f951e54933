/**
 * The pure part of the bench's `state` section (bench/state.ts): figures from
 * the measured runs (bytes a checkpoint wrote, from its `_metadata`; medians
 * over the steady checkpoints), its ratios and its tables. No I/O, no clock.
 */
import { sizesOf } from "../src/checkpoint/coordinator/state-sizes.ts";
import type { CompletedCheckpoint } from "../src/checkpoint/types.ts";
import type { CheckpointStats } from "../src/index.ts";
import type { StateBackendName } from "../src/state/state-backend-settings.ts";
import { median, millions, ms, table, type RecoveryFigures } from "./report.ts";

/** Checkpoint cost of one run of the keyed-churn job (bench/jobs/keyed-churn.ts). */
export interface CheckpointCostFigures {
  readonly backend: StateBackendName;
  readonly incremental: boolean;
  /** Wished keyed state, in bytes. */
  readonly stateBytes: number;
  readonly keys: number;
  /** Steady checkpoints the medians are over (those with both statistics and `_metadata`). */
  readonly checkpoints: number;
  /** Median end-to-end duration (trigger → stored) of the steady checkpoints, from the job's checkpoint statistics. */
  readonly durationP50Ms: number;
  /** Median bytes a steady checkpoint wrote: its private state files, plus the shared files it added to the chain. */
  readonly writtenP50Bytes: number;
  /** Everything the last steady checkpoint consists of: private state files and every shared file it references. */
  readonly checkpointBytes: number;
  /** Wall time of the fill (every key written once, no checkpoint). */
  readonly fillMs: number;
  /** Wall time of the whole run (fill and checkpoints). */
  readonly elapsedMs: number;
}

/** One keyed-count run of the throughput comparison (in-process, exactly-once, filesystem storage). */
export interface StateThroughputFigures {
  readonly backend: StateBackendName;
  readonly keys: number;
  readonly records: number;
  readonly elapsedMs: number;
  readonly recordsPerSecond: number;
  readonly checkpointsCompleted: number;
  readonly checkpointP50Ms: number | undefined;
  /** Longest synchronous snapshot part of any task per checkpoint (`maxSyncMs`): its median and p99, in ms. */
  readonly syncP50Ms: number | undefined;
  readonly syncP99Ms: number | undefined;
}

/** Where a restarted job read its keyed state from. */
export type RestoreSource = "checkpoint storage" | "local copy";

/** Recovery after SIGKILL with a given backend and restore source. */
export interface StateRecoveryFigures extends RecoveryFigures {
  readonly backend: StateBackendName;
  readonly from: RestoreSource;
}

/** Everything the `state` section measured. */
export interface StateFigures {
  /** Parallelism of the in-process runs. */
  readonly parallelism: number;
  readonly checkpointIntervalMs: number;
  /** Fraction of the keys the churn job changes per checkpoint interval. */
  readonly churn: number;
  readonly checkpointCost: readonly CheckpointCostFigures[];
  readonly throughput: readonly StateThroughputFigures[];
  readonly recovery: readonly StateRecoveryFigures[];
  /** Runs left out, and why (e.g. a backend this build does not have, or too little free disk). */
  readonly skipped: readonly string[];
}

/**
 * Bytes a checkpoint wrote: the sizes of its private state handles and of the
 * shared (incremental chain) files that this checkpoint itself wrote; files
 * of earlier checkpoints it only references are not counted.
 *
 * @example
 * ```ts
 * checkpointWrittenBytes(checkpoint); // e.g. 102_400 for a delta of 1 % of 10 MB
 * ```
 */
export function checkpointWrittenBytes(checkpoint: CompletedCheckpoint): number {
  return sizesOf(checkpoint.states, checkpoint.checkpointId).checkpointedSize;
}

/**
 * Bytes a restore of the checkpoint reads: its private state handles and every
 * shared file it references.
 *
 * @example
 * ```ts
 * checkpointTotalBytes(checkpoint) >= checkpointWrittenBytes(checkpoint); // true
 * ```
 */
export function checkpointTotalBytes(checkpoint: CompletedCheckpoint): number {
  return sizesOf(checkpoint.states, checkpoint.checkpointId).stateSize;
}

/**
 * The checkpoint cost of a keyed-churn run: medians over the steady
 * checkpoints `firstSteadyCheckpoint … firstSteadyCheckpoint + steadyCheckpoints − 1`
 * that appear both in the job's statistics and in `metadata`.
 *
 * @throws RangeError when no steady checkpoint has both
 * @example
 * ```ts
 * const f = checkpointCostFigures({ backend: "heap", incremental: true, stateBytes: 1e8, keys: 97_657, fillMs: 1_500, elapsedMs: 9_000,
 *   stats, metadata, firstSteadyCheckpoint: 4, steadyCheckpoints: 5 });
 * f.writtenP50Bytes; // about 1 % of 1e8
 * ```
 */
export function checkpointCostFigures(run: {
  readonly backend: StateBackendName;
  readonly incremental: boolean;
  readonly stateBytes: number;
  readonly keys: number;
  readonly fillMs: number;
  readonly elapsedMs: number;
  readonly stats: CheckpointStats | null;
  readonly metadata: ReadonlyMap<number, CompletedCheckpoint>;
  readonly firstSteadyCheckpoint: number;
  readonly steadyCheckpoints: number;
}): CheckpointCostFigures {
  const first = run.firstSteadyCheckpoint;
  const last = first + run.steadyCheckpoints - 1;
  const steady = (stats: { checkpointId: number }) => stats.checkpointId >= first && stats.checkpointId <= last && run.metadata.has(stats.checkpointId);
  const measured = (run.stats?.history.completed ?? []).filter(steady);
  const newest = measured.at(-1);
  if (newest === undefined) throw new RangeError(`checkpointCostFigures: no steady checkpoint (ids ${first}–${last}) of the ${run.backend} run has both statistics and metadata`);
  return {
    backend: run.backend,
    incremental: run.incremental,
    stateBytes: run.stateBytes,
    keys: run.keys,
    checkpoints: measured.length,
    durationP50Ms: median(measured.map((c) => c.durationMs)),
    writtenP50Bytes: median(measured.map((c) => checkpointWrittenBytes(run.metadata.get(c.checkpointId)!))),
    checkpointBytes: checkpointTotalBytes(run.metadata.get(newest.checkpointId)!),
    fillMs: run.fillMs,
    elapsedMs: run.elapsedMs,
  };
}

/** `"heap, incremental"`, `"disk, full"`, … */
export function checkpointModeLabel(f: { backend: StateBackendName; incremental: boolean }): string {
  return `${f.backend}, ${f.incremental ? "incremental" : "full"}`;
}

/**
 * The section's ratios: incremental / full (bytes written and duration) per
 * backend and state size, and disk / heap records per second per key count.
 * A ratio whose two runs did not both run is left out.
 *
 * @example
 * ```ts
 * stateRatios(figures)["heap 100 MB: incremental / full, bytes written per checkpoint"]; // e.g. 0.011
 * ```
 */
export function stateRatios(f: StateFigures): Record<string, number> {
  const ratios: Record<string, number> = {};
  for (const full of f.checkpointCost.filter((c) => !c.incremental)) {
    const inc = f.checkpointCost.find((c) => c.incremental && c.backend === full.backend && c.stateBytes === full.stateBytes);
    if (!inc) continue;
    const name = `${full.backend} ${bytesLabel(full.stateBytes)}: incremental / full`;
    ratios[`${name}, bytes written per checkpoint`] = inc.writtenP50Bytes / full.writtenP50Bytes;
    ratios[`${name}, checkpoint duration`] = inc.durationP50Ms / full.durationP50Ms;
  }
  for (const heap of f.throughput.filter((t) => t.backend === "heap")) {
    const disk = f.throughput.find((t) => t.backend === "disk" && t.keys === heap.keys);
    if (disk) ratios[`keyed count ${millions(heap.keys)} keys, exactly-once 1 s: disk / heap records/s`] = disk.recordsPerSecond / heap.recordsPerSecond;
  }
  const heapRestore = f.recovery.find((r) => r.backend === "heap");
  for (const disk of f.recovery.filter((r) => r.backend === "disk")) {
    if (heapRestore) ratios[`restore ${bytesLabel(disk.stateBytes)}: disk from ${disk.from} / heap, kill → first record`] = disk.killToFirstRecordMs / heapRestore.killToFirstRecordMs;
  }
  return ratios;
}

/** The section's tables (the ratios go with the report's other ratios). */
export function formatState(f: StateFigures): string {
  const lines = [`state backends, in-process at parallelism ${f.parallelism}, exactly-once every ${f.checkpointIntervalMs / 1000} s, filesystem checkpoint storage`];
  if (f.checkpointCost.length > 0) {
    lines.push(
      "",
      `checkpoint cost: 1 KiB payload per key, filled once without checkpoints, then ${(f.churn * 100).toFixed(0)} % of the keys rewritten per interval; medians over the steady checkpoints`,
      "",
      table(
        ["state", "backend, checkpoints", "keys", "fill", "steady", "duration p50", "written p50", "checkpoint", "elapsed"],
        f.checkpointCost.map((c) => [
          bytesLabel(c.stateBytes),
          checkpointModeLabel(c),
          millions(c.keys),
          `${(c.fillMs / 1000).toFixed(1)} s`,
          String(c.checkpoints),
          ms(c.durationP50Ms),
          bytesLabel(c.writtenP50Bytes),
          bytesLabel(c.checkpointBytes),
          `${(c.elapsedMs / 1000).toFixed(1)} s`,
        ]),
      ),
    );
  }
  if (f.throughput.length > 0) {
    lines.push(
      "",
      "keyed count (bench/jobs/keyed-count.ts), each backend with its default checkpoints (heap full, disk incremental):",
      "",
      table(
        ["backend", "keys", "records", "elapsed", "records/s", "checkpoints", "checkpoint p50", "sync p50", "sync p99"],
        f.throughput.map((t) => [
          t.backend,
          millions(t.keys),
          millions(t.records),
          `${(t.elapsedMs / 1000).toFixed(2)} s`,
          millions(t.recordsPerSecond),
          String(t.checkpointsCompleted),
          ms(t.checkpointP50Ms),
          ms(t.syncP50Ms),
          ms(t.syncP99Ms),
        ]),
      ),
    );
  }
  if (f.recovery.length > 0) {
    lines.push(
      "",
      "restore: weir run (parallelism 2, 1 worker, exactly-once 1 s) killed with SIGKILL after a checkpoint of the state size, then run again",
      "",
      table(
        ["state", "backend", "restored from", "checkpoint", "process start", "restore", "kill → first record"],
        f.recovery.map((r) => [
          bytesLabel(r.stateBytes),
          r.backend,
          r.from,
          bytesLabel(r.checkpointBytes),
          ms(r.processStartMs),
          ms(r.restoreMs),
          ms(r.killToFirstRecordMs),
        ]),
      ),
    );
  }
  for (const s of f.skipped) lines.push(`skipped: ${s}`);
  return lines.join("\n");
}

/**
 * Decimal bytes for a table cell: `"100 MB"`, `"1.00 GB"`, `"977 KB"`, `"512 B"`.
 *
 * @example
 * ```ts
 * bytesLabel(1e9); // "1.00 GB"
 * ```
 */
export function bytesLabel(bytes: number): string {
  if (bytes >= 1e9) return `${(bytes / 1e9).toFixed(2)} GB`;
  if (bytes >= 1e6) return `${(bytes / 1e6).toFixed(bytes >= 1e8 ? 0 : 1)} MB`;
  if (bytes >= 1e3) return `${(bytes / 1e3).toFixed(0)} KB`;
  return `${Math.round(bytes)} B`;
}
