/**
 * `DataStream.executeAndCollect()`: runs the job and hands its results to the
 * caller as an `AsyncIterable`, as they come (Flink's `executeAndCollect`).
 * The results travel from the job's collect sink (`client-result-sink.ts`)
 * over a `BroadcastChannel` named after the run's job id, opened before the
 * job starts.
 */
import { newJobId } from "../deploy/job-id.ts";
import { BroadcastChannel } from "node:worker_threads";
import { clientResultChannel, clientResultSink, type ClientResultMessage } from "../connectors/builtin/client-result-sink.ts";
import { Fifo } from "../util/fifo.ts";
import { Signal } from "../util/signal.ts";
import type { DataStream } from "./data-stream.ts";
import type { StreamExecutionEnvironment } from "./environment.ts";
import type { JobClient } from "../deploy/job-client.ts";
import { isWorker } from "../deploy/launch-context.ts";

/**
 * Without checkpointing, the job restarted after the iterator had returned
 * results of the failed attempt: the next attempt starts over, and the
 * iterator cannot tell which of its results were returned already.
 *
 * @example
 * ```ts
 * try {
 *   for await (const r of stream.executeAndCollect()) handle(r);
 * } catch (e) {
 *   if (e instanceof CollectRestartError) console.error("enable checkpointing for exactly-once results");
 * }
 * ```
 */
export class CollectRestartError extends Error {
  override readonly name = "CollectRestartError";
}

/**
 * The results of a job started by `executeAndCollect`, in the order the
 * collect sink received them. Breaking out of a `for await` loop (or `close()`)
 * cancels the job; a job that fails makes the iterator throw its error after
 * the results received before.
 *
 * @example
 * ```ts
 * const results = env.fromSequence(1, 1_000_000).filter((n) => n % 7 === 0).executeAndCollect("sevens");
 * for await (const n of results) if (n > 700) break; // cancels the job
 * console.log((await results.jobClient).getJobStatus()); // "CANCELED"
 * ```
 */
export class CollectResultIterator<T> implements AsyncIterableIterator<T> {
  /** The client of the job, e.g. for its metrics or a savepoint. */
  readonly jobClient: Promise<JobClient>;
  private readonly channel: BroadcastChannel;
  private readonly queue = new Fifo<T>();
  private readonly changed = new Signal();
  /** Highest checkpoint whose epoch was received (epochs are sent once per completed checkpoint, maybe again after a restore). */
  private lastEpoch = Number.NEGATIVE_INFINITY;
  /** Attempt of the records sent as they came. */
  private attempt = 0;
  private returned = 0;
  private endReceived = false;
  private outcome: { ok: true; stopped: boolean } | { ok: false; error: unknown } | undefined;
  private failure: Error | undefined;
  private closed = false;

  /** @internal */
  constructor(
    env: StreamExecutionEnvironment,
    jobName: string,
    private readonly limit: number,
    roots?: readonly number[],
  ) {
    const jobId = newJobId();
    this.jobClient = env.launch(jobName, jobId, roots); // in a worker thread it never resolves: the client thread owns the job
    this.channel = new BroadcastChannel(clientResultChannel(jobId));
    this.channel.onmessage = (event) => this.receive((event as { data: ClientResultMessage }).data);
    if (isWorker()) this.channel.close();
    this.jobClient
      .then((client) => client.getJobExecutionResult())
      .then(
        (result) => (this.outcome = { ok: true, stopped: result.savepointPath !== null }),
        (error: unknown) => (this.outcome = { ok: false, error }),
      )
      .finally(() => this.changed.notify());
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  async next(): Promise<IteratorResult<T, undefined>> {
    for (;;) {
      if (this.closed) return { done: true, value: undefined };
      if (this.returned >= this.limit) return this.return();
      if (this.queue.size > 0) {
        this.returned++;
        return { done: false, value: this.queue.shift()! };
      }
      if (this.failure) {
        const failure = this.failure;
        await this.close();
        throw failure;
      }
      const outcome = this.outcome;
      if (outcome && !outcome.ok) {
        await this.close();
        throw outcome.error;
      }
      // a stopped job (stop-with-savepoint) ends without the end mark: its sink was cancelled after the savepoint
      if (outcome?.ok && (this.endReceived || outcome.stopped)) return this.return();
      await this.changed.wait();
    }
  }

  /** Stops: cancels the job if it still runs (called when a `for await` loop is left early). */
  async return(): Promise<IteratorResult<T, undefined>> {
    await this.close();
    return { done: true, value: undefined };
  }

  /** Cancels the job if it still runs and stops receiving results. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.channel.close();
    if (!this.outcome) await (await this.jobClient).cancel();
  }

  private receive(m: ClientResultMessage): void {
    if (this.closed) return;
    if (m.kind === "end") this.endReceived = true;
    else if (m.checkpointId !== null) {
      if (m.checkpointId <= this.lastEpoch) return; // sent again after a restore
      this.lastEpoch = m.checkpointId;
      for (const v of m.values) this.queue.push(v as T);
    } else {
      if (m.attempt < this.attempt || this.failure) return; // late records of a failed attempt
      if (m.attempt > this.attempt) {
        this.queue.clear();
        this.attempt = m.attempt;
        if (this.returned > 0) {
          this.failure ??= new CollectRestartError(
            `executeAndCollect: the job restarted (attempt ${m.attempt}) after ${this.returned} results were returned; without checkpointing the new attempt starts over and the results would repeat: enable checkpointing for exactly-once results`,
          );
          this.changed.notify();
          return;
        }
      }
      for (const v of m.values) this.queue.push(v as T);
    }
    this.changed.notify();
  }
}

/**
 * Adds the collect sink to `stream` (per completed checkpoint if the job checkpoints) and starts the job:
 * the whole program, or (`detached`, for the table API) only what the collect sink consumes.
 */
export function executeAndCollect<T>(stream: DataStream<T>, env: StreamExecutionEnvironment, jobName: string, limit: number, detached = false): CollectResultIterator<T> {
  if (!(limit > 0)) throw new RangeError(`executeAndCollect: limit must be a positive number of results, got ${limit}`);
  const epochs = env.checkpointSettings().intervalMs > 0;
  const sink = stream.sinkTo(clientResultSink<T>(epochs)).name("Collect").uid("execute-and-collect").setParallelism(1);
  if (!detached) return new CollectResultIterator<T>(env, jobName, limit);
  env.graph.detach([sink.nodeId()]);
  return new CollectResultIterator<T>(env, jobName, limit, [sink.nodeId()]);
}
