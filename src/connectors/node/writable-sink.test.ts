/**
 * WritableSink in real jobs: lines per record, one stream per subtask ended at
 * the end of the job; a checkpoint waits until the stream took every record
 * before its barrier; after a failure nothing is missing (at-least-once); a
 * stream error fails the job.
 */
import { createWriteStream } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { StreamExecutionEnvironment } from "../../api/environment.ts";
import type { CheckpointListener } from "../../core/checkpointed-function.ts";
import { RichFunction } from "../../core/rich-function.ts";
import { RestartStrategies } from "../../runtime/execution/restart-strategy.ts";
import { WritableSink } from "./writable-sink.ts";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "weir-writable-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A writable that keeps the text written to it; each write is acknowledged after `delayMs`. */
class Recorder extends Writable {
  text = "";
  lastAcknowledgedAt = 0;
  constructor(private readonly delayMs = 0) {
    super({ highWaterMark: 4096 });
  }
  override _write(chunk: Buffer, _encoding: BufferEncoding, done: (e?: Error) => void): void {
    this.text += chunk.toString();
    setTimeout(() => {
      this.lastAcknowledgedAt = performance.now();
      done();
    }, this.delayMs);
  }
}

describe("WritableSink", () => {
  it("writes a formatted line per record to a stream per subtask and ends each stream when the job ends", async () => {
    const env = StreamExecutionEnvironment.create({ parallelism: 2 });
    const paths: string[] = [];
    env
      .fromSequence(1, 10_000)
      .sinkTo(
        new WritableSink((ctx) => {
          paths[ctx.subtaskIndex] = join(dir, `out-${ctx.subtaskIndex}.txt`);
          return createWriteStream(paths[ctx.subtaskIndex]!, { flags: "a" });
        }, { format: (n: number) => `n=${n}` }),
      );
    await env.execute("write-files");
    // the streams were ended and flushed before the job ended: the files are complete
    const lines = (await Promise.all(paths.map((p) => readFile(p, "utf8")))).flatMap((t) => t.split("\n").filter(Boolean));
    expect(lines.sort()).toEqual(Array.from({ length: 10_000 }, (_, i) => `n=${i + 1}`).sort());
  });

  it("lets a checkpoint complete only after the stream took every record before its barrier", async () => {
    const recorder = new Recorder(300);
    let release!: () => void;
    async function* hundredThenWait() {
      for (let i = 0; i < 100; i++) yield i;
      await new Promise<void>((r) => (release = r));
    }
    const env = StreamExecutionEnvironment.create({ parallelism: 1 });
    env.fromAsyncIterable(() => hundredThenWait()).sinkTo(new WritableSink(() => recorder, { end: false }));
    const client = await env.executeAsync("flush-at-checkpoint");
    const deadline = Date.now() + 10_000;
    while (recorder.text.split("\n").length <= 100 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
    expect(recorder.lastAcknowledgedAt).toBe(0); // handed to the stream, not acknowledged yet
    await client.triggerCheckpoint();
    const completedAt = performance.now();
    expect(recorder.lastAcknowledgedAt).toBeGreaterThan(0);
    expect(completedAt).toBeGreaterThanOrEqual(recorder.lastAcknowledgedAt);
    release();
    await client.getJobExecutionResult();
  });

  it("after a failure writes every record at least once", async () => {
    const recorder = new Recorder();
    const failure = { armed: true, checkpoints: 0 };
    class FailOnce extends RichFunction implements CheckpointListener {
      map(n: number): number {
        if (failure.armed && n >= 30_000 && failure.checkpoints > 0) {
          failure.armed = false;
          throw new Error("injected");
        }
        return n;
      }
      notifyCheckpointComplete(): void {
        failure.checkpoints++;
      }
    }
    const env = StreamExecutionEnvironment.create({ parallelism: 1 });
    env.enableCheckpointing(10).setRestartStrategy(RestartStrategies.fixedDelayRestart(1, 0));
    env.fromSequence(1, 40_000).uid("numbers").map(new FailOnce()).uid("fail").sinkTo(new WritableSink(() => recorder, { end: false })).uid("out");
    const result = await env.execute("at-least-once");
    expect(result.restarts).toBe(1);
    const written = recorder.text.split("\n").filter(Boolean).map(Number);
    expect(new Set(written).size).toBe(40_000);
    expect(written.length).toBeGreaterThanOrEqual(40_000);
  });

  it("a job whose stream never takes its writes can still be cancelled, also during a checkpoint", async () => {
    let received = 0;
    const stuck = new Writable({
      highWaterMark: 16,
      write(_chunk, _encoding, _done) {
        received++; // never acknowledged
      },
    });
    const env = StreamExecutionEnvironment.create({ parallelism: 1 });
    env.fromSequence(1, 10_000_000).sinkTo(new WritableSink(() => stuck, { end: false }));
    const client = await env.executeAsync("stuck");
    const deadline = Date.now() + 10_000;
    while (received === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
    expect(received).toBe(1);
    const checkpoint = client.triggerCheckpoint().catch((e: unknown) => e); // waits for the stream: never completes
    await new Promise((r) => setTimeout(r, 50));
    const started = performance.now();
    await client.cancel();
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(client.getJobStatus()).toBe("CANCELED");
    expect(await checkpoint).toBeInstanceOf(Error);
  });

  it("fails the job when the stream fails", async () => {
    const broken = new Writable({
      write(_chunk, _encoding, done) {
        done(new Error("disk full"));
      },
    });
    const env = StreamExecutionEnvironment.create({ parallelism: 1 });
    env.fromSequence(1, 100_000).sinkTo(new WritableSink(() => broken));
    await expect(env.execute("broken")).rejects.toThrow(/WritableSink: the stream failed: disk full/);
  });
});
