/**
 * The async I/O benchmark job, in the calling thread: every number goes
 * through a simulated service that answers after a fixed latency (a timer),
 * with at most `capacity` requests in flight.
 *
 * ```
 * fromSequence(1, N) → AsyncDataStream.orderedWait | unorderedWait((n) => answer after latencyMs, capacity) → counting sink
 * ```
 *
 * Its ceiling is capacity ÷ latency records per second and parallel instance
 * (100 ÷ 1 ms = 100 000/s); what the engine costs shows as the distance to it.
 */
import { AsyncDataStream, type CheckpointStats } from "../../src/index.ts";
import { countingSink } from "./counting-sink.ts";
import { runInProcess, type InProcessRunParams } from "./in-process-run.ts";

const RECEIVED = "async-io-received";

/** One run of the async I/O job. */
export interface AsyncIoParams extends InProcessRunParams {
  /** Numbers the source emits (1..records). */
  readonly records: number;
  readonly outputMode: "ordered" | "unordered";
  /** Requests in flight at most, per parallel instance. */
  readonly capacity: number;
  /** Time the simulated service takes to answer, in ms. */
  readonly latencyMs: number;
}

/** What one run measured. */
export interface AsyncIoMeasurement {
  readonly elapsedMs: number;
  /** Records the sinks received (equals `records` when nothing was lost or duplicated). */
  readonly received: number;
  readonly checkpoints: CheckpointStats | null;
}

/**
 * Runs the async I/O job once, in-process, and measures it.
 *
 * @example
 * ```ts
 * const m = await runAsyncIo({ records: 200_000, outputMode: "ordered", capacity: 100, latencyMs: 1, parallelism: 1, checkpointIntervalMs: 0 });
 * console.log(200_000 / (m.elapsedMs / 1000), "records/s");
 * ```
 */
export async function runAsyncIo(p: AsyncIoParams): Promise<AsyncIoMeasurement> {
  const run = await runInProcess(`bench-async-io-${p.outputMode}`, p, (env) => {
    const numbers = env.fromSequence(1, p.records).uid("sequence");
    const answer = (n: number) => new Promise<number>((resolve) => setTimeout(() => resolve(n), p.latencyMs));
    const wait = p.outputMode === "ordered" ? AsyncDataStream.orderedWait : AsyncDataStream.unorderedWait;
    wait(numbers, answer, 10_000, p.capacity).uid("service").sinkTo(countingSink(RECEIVED)).uid("received");
  });
  const received = run.result.getCollected<number>(RECEIVED).reduce((a, b) => a + b, 0);
  return { elapsedMs: run.elapsedMs, received, checkpoints: run.checkpoints };
}
