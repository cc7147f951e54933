/**
 * The checkpoint-cost job of the `state` section: a fixed key space of 1 KiB
 * payloads, filled once, then changed slowly, in-process:
 *
 * ```
 * churn source (fill: every key once; then random keys at `churn` of the keys per checkpoint interval)
 *   → keyBy(key) → KeyedProcessFunction (ValueState<string>: a new 1 KiB payload per record) → discarding sink
 * ```
 *
 * Each source reader first emits its share of the keys (as fast as the job
 * takes them), then random keys of the whole space (seeded) at its share of
 * the churn rate, on clock timers. The first checkpoint a reader snapshots
 * after its fill (the *fill checkpoint*) holds every key. A full checkpoint
 * writes them all every time, so the steady checkpoints of a full run start
 * with the fill checkpoint of the last reader. An incremental fill checkpoint
 * is a delta of the fill's tail, the next one may be a new base (the fill's
 * deltas outgrew the chain's first base) and the one after it holds the
 * changes made meanwhile: the steady checkpoints of an incremental run start
 * `INCREMENTAL_STEADY_OFFSET` after the fill checkpoint, each holding the keys
 * changed since the previous one (`churn` × keys per second of the interval).
 * A reader ends its input once `steadyCheckpoints` steady checkpoints
 * completed (or after `MAX_STEADY_MS`), so the run lasts as long as the
 * backend needs for them.
 *
 * The readers share a {@link ChurnProgress} with the bench by reference, so
 * the job runs in the bench's thread only (no worker threads).
 */
import { performance } from "node:perf_hooks";
import type { PollStatus, ReaderOutput, Source, SourceReader } from "../../src/core/source.ts";
import {
  KeyedProcessFunction,
  StreamExecutionEnvironment,
  ValueStateDescriptor,
  type CheckpointStats,
  type KeyedProcessContext,
  type Sink,
  type ValueState,
} from "../../src/index.ts";
import type { CompletedCheckpoint } from "../../src/checkpoint/types.ts";
import type { StateBackendName } from "../../src/state/state-backend-settings.ts";
import { seededRandom } from "../../src/util/seeded-random.ts";
import { watchCheckpoints } from "../checkpoint-watch.ts";
import { withCheckpointDir } from "./checkpoint-dir.ts";

/** Bytes of the payload kept per key (as bench/jobs/keyed-payload.ts). */
export const CHURN_PAYLOAD_BYTES = 1024;
/** The first steady checkpoint of an incremental run, counted from the fill checkpoint (left out: the fill's tail, a new base, the changes made while it was written). */
const INCREMENTAL_STEADY_OFFSET = 3;
/** Longest steady phase, should checkpoints stop completing. */
const MAX_STEADY_MS = 180_000;
/** How often the bench reads the checkpoint directory's new `_metadata` files. */
const WATCH_MS = 20;
/** How often a run reports its newest completed checkpoint to `progress`. */
const PROGRESS_MS = 5_000;
/** Seed of the random keys (the same keys change in every run of a size). */
const SEED = 12;

/** One run of the keyed-churn job. */
export interface KeyedChurnParams {
  /** Wished keyed state, in bytes: keys = stateBytes / `CHURN_PAYLOAD_BYTES`. */
  readonly stateBytes: number;
  readonly backend: StateBackendName;
  /** Incremental checkpoints (else every checkpoint is full). */
  readonly incremental: boolean;
  readonly parallelism: number;
  /** Exactly-once checkpoint interval, in ms (filesystem storage in a temporary directory). */
  readonly checkpointIntervalMs: number;
  /** Fraction of the keys updated per checkpoint interval in the steady phase, e.g. 0.01. */
  readonly churn: number;
  /** Steady checkpoints to wait for before the input ends. */
  readonly steadyCheckpoints: number;
}

/** What the readers tell the bench. */
interface ChurnProgress {
  /** Per reader: the first checkpoint it snapshotted after its fill (undefined while filling). */
  readonly fillCheckpoint: (number | undefined)[];
  /** The first steady checkpoint, counted from the latest fill checkpoint. */
  readonly steadyOffset: number;
}

/** What one run measured. */
export interface KeyedChurnMeasurement {
  readonly params: KeyedChurnParams;
  readonly keys: number;
  /** Wall time of the whole run (fill and steady phase). */
  readonly elapsedMs: number;
  readonly checkpoints: CheckpointStats | null;
  /** The `_metadata` of every completed checkpoint the bench saw while the job ran, by id. */
  readonly metadata: ReadonlyMap<number, CompletedCheckpoint>;
  /** The first steady checkpoint (the steady ones are this one and the next `steadyCheckpoints` − 1). */
  readonly firstSteadyCheckpoint: number;
  /** Steady checkpoints the readers waited for (the run's final checkpoint comes after them). */
  readonly steadyCheckpoints: number;
}

/** The keys a reader fills: `next`, `next + step`, … below `keys`. */
interface ChurnSplit {
  next: number;
  readonly step: number;
}

/**
 * The churn source of `keys` keys at `updatesPerSecond` (all readers) in the steady phase.
 */
function churnSource(keys: number, updatesPerSecond: number, steadyCheckpoints: number, progress: ChurnProgress): Source<number, ChurnSplit> {
  return {
    boundedness: "bounded",
    createSplits: (parallelism) => Array.from({ length: parallelism }, (_, k) => ({ next: k, step: parallelism })),
    createReader: (context) => new ChurnReader(keys, updatesPerSecond / context.parallelism, steadyCheckpoints, progress, context.subtaskIndex),
  };
}

class ChurnReader implements SourceReader<number, ChurnSplit> {
  private split: ChurnSplit | undefined;
  private readonly random: () => number;
  private steadyAt: number | undefined;
  private updates = 0;
  private ended = false;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly keys: number,
    private readonly ratePerReader: number,
    private readonly steadyCheckpoints: number,
    private readonly progress: ChurnProgress,
    private readonly index: number,
  ) {
    this.random = seededRandom(SEED + index);
    progress.fillCheckpoint[index] = undefined;
  }

  addSplits(splits: ChurnSplit[]): void {
    this.split = splits[0] && { ...splits[0] };
  }

  pollNext(output: ReaderOutput<number>, maxRecords: number): PollStatus {
    const s = this.split;
    if (this.ended || s === undefined) return "end-of-input";
    if (s.next < this.keys) {
      for (let n = 0; n < maxRecords && s.next < this.keys; n++, s.next += s.step) output.collect(s.next);
      return "more-available";
    }
    const now = performance.now();
    this.steadyAt ??= now;
    if (now - this.steadyAt > MAX_STEADY_MS) return "end-of-input";
    const due = Math.floor(((now - this.steadyAt) * this.ratePerReader) / 1000) + 1 - this.updates;
    const budget = Math.min(maxRecords, due);
    for (let n = 0; n < budget; n++) output.collect(Math.floor(this.random() * this.keys));
    this.updates += Math.max(0, budget);
    return budget > 0 ? "more-available" : "nothing-available";
  }

  isAvailable(): Promise<void> {
    const dueAt = (this.steadyAt ?? performance.now()) + Math.ceil((this.updates * 1000) / this.ratePerReader);
    return new Promise((resolve) => {
      this.timer = setTimeout(resolve, Math.max(0, dueAt - performance.now()));
    });
  }

  snapshotState(checkpointId: number): ChurnSplit[] {
    if (this.split && this.split.next >= this.keys) this.progress.fillCheckpoint[this.index] ??= checkpointId;
    return this.split ? [{ ...this.split }] : [];
  }

  notifyCheckpointComplete(checkpointId: number): void {
    const first = firstSteadyCheckpoint(this.progress);
    if (first !== undefined && checkpointId >= first + this.steadyCheckpoints - 1) this.ended = true;
  }

  close(): void {
    clearTimeout(this.timer);
  }
}

/** The first steady checkpoint: `steadyOffset` after the latest fill checkpoint of all readers, once every reader has one. */
function firstSteadyCheckpoint(progress: ChurnProgress): number | undefined {
  let last = 0;
  for (const id of progress.fillCheckpoint) {
    if (id === undefined) return undefined;
    last = Math.max(last, id);
  }
  return progress.fillCheckpoint.length > 0 ? last + progress.steadyOffset : undefined;
}

/** Writes a new payload for the record's key. */
class RewritePayload extends KeyedProcessFunction<number, number, never> {
  private payload!: ValueState<string>;
  private writes = 0;

  override open(): void {
    this.payload = this.getRuntimeContext().getState(new ValueStateDescriptor<string>("payload"));
  }

  processElement(key: number, _ctx: KeyedProcessContext<number>): void {
    this.payload.update(`${key}:${this.writes++}:`.padEnd(CHURN_PAYLOAD_BYTES, "x"));
  }
}

/** Drops every record. */
const discard: Sink<never> = { createWriter: () => ({ write() {} }) };

/**
 * Runs the keyed-churn job once, watching its checkpoint directory; every
 * `PROGRESS_MS` tells `progressLine` the phase and the newest completed checkpoint.
 *
 * @example
 * ```ts
 * const m = await runKeyedChurn({ stateBytes: 10e6, backend: "heap", incremental: true, parallelism: 2,
 *   checkpointIntervalMs: 1_000, churn: 0.01, steadyCheckpoints: 5 });
 * console.log(m.checkpoints?.history.completed.map((c) => c.durationMs));
 * ```
 */
export async function runKeyedChurn(params: KeyedChurnParams, progressLine: (line: string) => void = () => {}): Promise<KeyedChurnMeasurement> {
  const keys = Math.ceil(params.stateBytes / CHURN_PAYLOAD_BYTES);
  const updatesPerSecond = (params.churn * keys * 1000) / params.checkpointIntervalMs;
  const progress: ChurnProgress = { fillCheckpoint: [], steadyOffset: params.incremental ? INCREMENTAL_STEADY_OFFSET : 0 };
  return withCheckpointDir(params.checkpointIntervalMs, async (dir) => {
    const env = StreamExecutionEnvironment.create({ parallelism: params.parallelism, workers: 0, fresh: true, log: () => {} });
    env.enableCheckpointing(params.checkpointIntervalMs, "exactly-once");
    env.getCheckpointConfig().setCheckpointStorage(dir!);
    env.setStateBackend(params.backend);
    env.getCheckpointConfig().enableIncrementalCheckpointing(params.incremental);
    env
      .fromSource(churnSource(keys, updatesPerSecond, params.steadyCheckpoints, progress), undefined, "churn")
      .uid("churn")
      .keyBy((k) => k)
      .process(new RewritePayload())
      .uid("rewrite-payload")
      .sinkTo(discard)
      .uid("discard");
    const watch = watchCheckpoints(dir!, WATCH_MS);
    const started = performance.now();
    const result = await env
      .executeAsync("bench-keyed-churn")
      .then((client) => {
        const timer = setInterval(() => {
          const c = client.getCheckpointStats()?.lastCompleted;
          const first = firstSteadyCheckpoint(progress);
          const phase = first === undefined ? "filling" : `steady from checkpoint ${first}`;
          progressLine(`  ${((performance.now() - started) / 1000).toFixed(0)} s: ${phase}; ${c ? `checkpoint ${c.checkpointId} took ${c.durationMs} ms (sync ${c.maxSyncMs} ms)` : "no checkpoint completed yet"}`);
        }, PROGRESS_MS);
        return client.getJobExecutionResult().finally(() => clearInterval(timer));
      })
      .finally(() => watch.stop());
    const elapsedMs = performance.now() - started;
    const metadata = await watch.stop();
    const first = firstSteadyCheckpoint(progress);
    if (first === undefined) throw new Error("bench/jobs/keyed-churn.ts: the job ended before every reader finished its fill");
    return { params, keys, elapsedMs, checkpoints: result.checkpoints, metadata, firstSteadyCheckpoint: first, steadyCheckpoints: params.steadyCheckpoints };
  });
}
