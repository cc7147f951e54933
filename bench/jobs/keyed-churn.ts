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
 * the churn rate, on timers, until the bench ends the input.
 *
 * Checkpoints are exactly-once to a filesystem storage, but the periodic
 * trigger is set beyond the run's end: once every reader finished its fill,
 * the bench triggers them itself (`JobClient.triggerCheckpoint`), one at a
 * time, each `checkpointIntervalMs` after the previous trigger or when the
 * previous one completed, whichever is later — what the periodic trigger does
 * with one checkpoint in flight at most. So the fill is not slowed down by
 * checkpoints of a half-filled state, and the first checkpoint holds every
 * key. A full checkpoint writes every key each time: all of a full run's
 * checkpoints are steady. In an incremental run the first one is the chain's
 * base, and the next one holds the changes made while the base was written:
 * more than an interval's worth when the base took longer than the interval,
 * and so on. The steady checkpoints start with the first one whose
 * predecessor took at most the interval (or after
 * `MAX_SETTLING_CHECKPOINTS`), each holding the keys changed since the
 * previous trigger.
 *
 * The readers share a {@link ChurnProgress} with the bench by reference, so
 * the job runs in the bench's thread only (no worker threads).
 */
import { performance } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
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
import { withCheckpointDir } from "./checkpoint-dir.ts";

/** Bytes of the payload kept per key (as bench/jobs/keyed-payload.ts). */
export const CHURN_PAYLOAD_BYTES = 1024;
/** Most checkpoints an incremental run takes before its steady ones (the base, then the catch-up deltas). */
const MAX_SETTLING_CHECKPOINTS = 8;
/** Interval of the periodic trigger: beyond any run, so only the bench triggers checkpoints. */
const PERIODIC_OFF_MS = 24 * 3_600_000;
/** How often the bench looks whether the readers finished their fill. */
const FILL_POLL_MS = 20;
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
  /** Time from one checkpoint trigger to the next (at the earliest), in ms. */
  readonly checkpointIntervalMs: number;
  /** Fraction of the keys updated per checkpoint interval after the fill, e.g. 0.01. */
  readonly churn: number;
  /** Steady checkpoints to take before the input ends. */
  readonly steadyCheckpoints: number;
}

/** What the readers and the bench tell each other. */
interface ChurnProgress {
  /** Per reader: whether it emitted its whole share of the keys. */
  readonly filled: boolean[];
  /** Set by the bench: the readers end their input. */
  end: boolean;
}

/** What one run measured. */
export interface KeyedChurnMeasurement {
  readonly keys: number;
  /** Wall time of the fill: from `executeAsync` until every reader emitted its keys. */
  readonly fillMs: number;
  /** Wall time of the whole run. */
  readonly elapsedMs: number;
  readonly checkpoints: CheckpointStats | null;
  /** Every checkpoint the bench triggered, as stored (its `_metadata`), by id. */
  readonly metadata: ReadonlyMap<number, CompletedCheckpoint>;
  /** The first steady checkpoint (the steady ones are this one and the next `steadyCheckpoints` − 1). */
  readonly firstSteadyCheckpoint: number;
  readonly steadyCheckpoints: number;
}

/** The keys a reader fills: `next`, `next + step`, … below `keys`. */
interface ChurnSplit {
  next: number;
  readonly step: number;
}

/** The churn source of `keys` keys at `updatesPerSecond` (all readers) after the fill. */
function churnSource(keys: number, updatesPerSecond: number, progress: ChurnProgress): Source<number, ChurnSplit> {
  return {
    boundedness: "bounded",
    createSplits: (parallelism) => Array.from({ length: parallelism }, (_, k) => ({ next: k, step: parallelism })),
    createReader: (context) => new ChurnReader(keys, updatesPerSecond / context.parallelism, progress, context.subtaskIndex),
  };
}

class ChurnReader implements SourceReader<number, ChurnSplit> {
  private split: ChurnSplit | undefined;
  private readonly random: () => number;
  private churnSince: number | undefined;
  private updates = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly keys: number,
    private readonly ratePerReader: number,
    private readonly progress: ChurnProgress,
    private readonly index: number,
  ) {
    this.random = seededRandom(SEED + index);
    progress.filled[index] = false;
  }

  addSplits(splits: ChurnSplit[]): void {
    this.split = splits[0] && { ...splits[0] };
  }

  pollNext(output: ReaderOutput<number>, maxRecords: number): PollStatus {
    const s = this.split;
    if (this.progress.end || s === undefined) return "end-of-input";
    if (s.next < this.keys) {
      for (let n = 0; n < maxRecords && s.next < this.keys; n++, s.next += s.step) output.collect(s.next);
      if (s.next >= this.keys) this.progress.filled[this.index] = true;
      return "more-available";
    }
    const now = performance.now();
    this.churnSince ??= now;
    const due = Math.floor(((now - this.churnSince) * this.ratePerReader) / 1000) + 1 - this.updates;
    const budget = Math.min(maxRecords, due);
    for (let n = 0; n < budget; n++) output.collect(Math.floor(this.random() * this.keys));
    this.updates += Math.max(0, budget);
    return budget > 0 ? "more-available" : "nothing-available";
  }

  isAvailable(): Promise<void> {
    const dueAt = (this.churnSince ?? performance.now()) + Math.ceil((this.updates * 1000) / this.ratePerReader);
    return new Promise((resolve) => {
      this.timer = setTimeout(resolve, Math.max(0, dueAt - performance.now()));
    });
  }

  snapshotState(): ChurnSplit[] {
    return this.split ? [{ ...this.split }] : [];
  }

  close(): void {
    clearTimeout(this.timer);
  }
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
 * Runs the keyed-churn job once: the fill, then the checkpoints (see the
 * module comment); tells `progressLine` about the fill and each checkpoint.
 *
 * @example
 * ```ts
 * const m = await runKeyedChurn({ stateBytes: 10e6, backend: "heap", incremental: true, parallelism: 2,
 *   checkpointIntervalMs: 1_000, churn: 0.01, steadyCheckpoints: 3 });
 * console.log(m.checkpoints?.history.completed.map((c) => c.durationMs));
 * ```
 */
export async function runKeyedChurn(params: KeyedChurnParams, progressLine: (line: string) => void = () => {}): Promise<KeyedChurnMeasurement> {
  const keys = Math.ceil(params.stateBytes / CHURN_PAYLOAD_BYTES);
  const updatesPerSecond = (params.churn * keys * 1000) / params.checkpointIntervalMs;
  const progress: ChurnProgress = { filled: [], end: false };
  return withCheckpointDir(params.checkpointIntervalMs, async (dir) => {
    const env = StreamExecutionEnvironment.create({ parallelism: params.parallelism, workers: 0, fresh: true, log: () => {} });
    env.enableCheckpointing(PERIODIC_OFF_MS, "exactly-once");
    env.getCheckpointConfig().setCheckpointStorage(dir!);
    env.setStateBackend(params.backend);
    env.getCheckpointConfig().enableIncrementalCheckpointing(params.incremental);
    env
      .fromSource(churnSource(keys, updatesPerSecond, progress), undefined, "churn")
      .uid("churn")
      .keyBy((k) => k)
      .process(new RewritePayload())
      .uid("rewrite-payload")
      .sinkTo(discard)
      .uid("discard");
    const started = performance.now();
    const client = await env.executeAsync("bench-keyed-churn");
    const result = client.getJobExecutionResult();
    let finished = false;
    result.then(() => (finished = true), () => (finished = true));
    try {
      while (!(progress.filled.length === params.parallelism && progress.filled.every(Boolean))) {
        if (finished) break; // the result says why below
        await sleep(FILL_POLL_MS);
      }
      const fillMs = performance.now() - started;
      progressLine(`  filled ${keys.toLocaleString("en-US")} keys in ${(fillMs / 1000).toFixed(1)} s`);
      const metadata = new Map<number, CompletedCheckpoint>();
      let firstSteadyCheckpoint = 0;
      let steady = 0;
      let previousMs = Number.POSITIVE_INFINITY; // a full run has no settling; an incremental run's first checkpoint is its base
      for (let taken = 0; steady < params.steadyCheckpoints && !finished; taken++) {
        const settled = !params.incremental || previousMs <= params.checkpointIntervalMs || taken >= MAX_SETTLING_CHECKPOINTS;
        const triggeredAt = performance.now();
        const checkpoint = await client.triggerCheckpoint();
        previousMs = performance.now() - triggeredAt;
        metadata.set(checkpoint.checkpointId, checkpoint);
        if (steady === 0 && settled) firstSteadyCheckpoint = checkpoint.checkpointId;
        if (steady > 0 || settled) steady++;
        progressLine(`  checkpoint ${checkpoint.checkpointId}${steady === 0 ? " (settling)" : ""} took ${Math.round(previousMs)} ms`);
        await sleep(Math.max(0, params.checkpointIntervalMs - previousMs));
      }
      progress.end = true;
      const done = await result;
      return { keys, fillMs, elapsedMs: performance.now() - started, checkpoints: done.checkpoints, metadata, firstSteadyCheckpoint, steadyCheckpoints: params.steadyCheckpoints };
    } finally {
      progress.end = true;
      await result.catch(() => {});
    }
  });
}
