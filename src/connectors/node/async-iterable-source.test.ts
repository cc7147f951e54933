/**
 * fromAsyncIterable and fromCollection in real jobs: order, restarts from a
 * checkpoint in the middle (a function input is created again and skipped to
 * the checkpointed position; an object input is refused with a clear error),
 * and a read-ahead that stays bounded.
 */
import { describe, expect, it } from "vitest";
import type { SingleOutputStreamOperator } from "../../api/data-stream.ts";
import { StreamExecutionEnvironment } from "../../api/environment.ts";
import type { CheckpointListener } from "../../core/checkpointed-function.ts";
import type { ReaderOutput } from "../../core/source.ts";
import { RichFunction } from "../../core/rich-function.ts";
import { RestartStrategies } from "../../runtime/execution/restart-strategy.ts";
import { collectSink } from "../builtin/collect-sink.ts";
import { AsyncIterableSource } from "./async-iterable-source.ts";
import { SourceNotReplayableError } from "./replayable-input.ts";

/** 0..count-1, awaiting a timer now and then (so checkpoints complete while it runs). */
async function* numbers(count: number, pauseEvery = 50): AsyncGenerator<number> {
  for (let i = 0; i < count; i++) {
    if (i % pauseEvery === 0) await new Promise((r) => setTimeout(r, 1));
    yield i;
  }
}

/** Shared with the job's map (same thread): fail once, after `after` records and (if required) a completed checkpoint. */
const failure = { armed: false, seen: 0, checkpoints: 0, firstAfterRestart: undefined as number | undefined };

class FailOnce extends RichFunction implements CheckpointListener {
  constructor(
    private readonly after: number,
    private readonly requireCheckpoint = true,
  ) {
    super();
  }
  map(n: number): number {
    if (this.getRuntimeContext().getAttemptNumber() > 0) failure.firstAfterRestart ??= n;
    else if (failure.armed && ++failure.seen >= this.after && (failure.checkpoints > 0 || !this.requireCheckpoint)) {
      failure.armed = false;
      throw new Error(`injected failure at ${n}`);
    }
    return n;
  }
  notifyCheckpointComplete(): void {
    failure.checkpoints++;
  }
}

function arm(): void {
  Object.assign(failure, { armed: true, seen: 0, checkpoints: 0, firstAfterRestart: undefined });
}

/** A job reading a source through FailOnce into a collect sink (in order: parallelism 1), checkpointing every 5 ms, restarting once. */
function failingJob(build: (env: StreamExecutionEnvironment) => SingleOutputStreamOperator<number>, after: number, requireCheckpoint = true) {
  const env = StreamExecutionEnvironment.create({ parallelism: 1 });
  env.enableCheckpointing(5).setRestartStrategy(RestartStrategies.fixedDelayRestart(1, 0));
  build(env).uid("source").map(new FailOnce(after, requireCheckpoint)).uid("fail-once").sinkTo(collectSink("out")).uid("out");
  return env.execute("failing");
}

const range = (n: number) => Array.from({ length: n }, (_, i) => i);

describe("fromAsyncIterable", () => {
  it("emits the values of an async iterable in order, and of a sync one", async () => {
    const env = StreamExecutionEnvironment.create({ parallelism: 3 });
    // the source runs at parallelism 1 whatever the job's; one sink subtask keeps the order
    env.fromAsyncIterable(() => numbers(3_000)).map((n) => n * 2).setParallelism(1).sinkTo(collectSink("async")).setParallelism(1);
    env.fromAsyncIterable(() => range(10)[Symbol.iterator]()).sinkTo(collectSink("sync")).setParallelism(1);
    const result = await env.execute("iterables");
    expect(result.getCollected("async")).toEqual(range(3_000).map((n) => n * 2));
    expect(result.getCollected("sync")).toEqual(range(10));
  });

  it("after a failure creates the iterable again and skips to the checkpoint: every value exactly once", async () => {
    arm();
    let created = 0;
    const result = await failingJob((env) => env.fromAsyncIterable(() => (created++, numbers(4_000))), 2_500);
    expect(result.restarts).toBe(1);
    expect(created).toBe(2);
    expect(failure.firstAfterRestart).toBeGreaterThan(0); // resumed from a checkpoint, not from the start
    expect(result.getCollected("out")).toEqual(range(4_000));
  });

  it("refuses to read an iterable object again after a failure, naming the way out", async () => {
    arm();
    const once = numbers(4_000);
    const err = await failingJob((env) => env.fromAsyncIterable(once), 2_500).catch((e: unknown) => e);
    expect(String((err as Error).cause)).toMatch(/^SourceNotReplayableError: .*fromAsyncIterable: cannot resume at record \d+ \(from a checkpoint\): the input object can be read only once\. Pass a function that creates it again, env\.fromAsyncIterable\(\(\) => iterable\)/);

    // without a checkpoint to resume from: read by the failed attempt, it cannot be read from the start either
    arm();
    const env = StreamExecutionEnvironment.create({ parallelism: 1 });
    env.setRestartStrategy(RestartStrategies.fixedDelayRestart(1, 0));
    env.fromAsyncIterable(numbers(100)).map((n) => {
      if (n === 50 && failure.armed) {
        failure.armed = false;
        throw new Error("boom");
      }
      return n;
    }).sinkTo(collectSink("out"));
    const again = await env.execute("no-checkpoint").catch((e: unknown) => e);
    expect((again as Error).cause).toBeInstanceOf(Error);
    expect(String((again as Error).cause)).toMatch(/the input object was already read by an earlier attempt of this job and cannot be read again after a failure/);
  });

  it("fails clearly when the iterable created again is shorter than the checkpointed position", async () => {
    arm();
    let created = 0;
    const err = await failingJob((env) => env.fromAsyncIterable(() => numbers(created++ === 0 ? 4_000 : 10)), 2_500).catch((e: unknown) => e);
    expect(String((err as Error).cause)).toMatch(/ended after 10 values, before the checkpointed position \d+: the function must create the same values every time/);
  });

  it("reads ahead of the job by a bounded number of values", async () => {
    let pulled = 0;
    async function* endless() {
      for (;;) {
        pulled++;
        yield pulled;
      }
    }
    const reader = new AsyncIterableSource(() => endless()).createReader();
    reader.addSplits([{ index: 0 }]);
    const taken: number[] = [];
    const out = { collect: (v: number) => void taken.push(v) } as unknown as ReaderOutput<number>;
    expect(reader.pollNext(out, 10)).toBe("nothing-available"); // starts reading ahead
    for (let i = 0; i < 50; i++) await new Promise((r) => setImmediate(r));
    expect(pulled).toBeGreaterThan(100);
    expect(pulled).toBeLessThanOrEqual(1_025);
    const before = pulled;
    for (let i = 0; i < 50; i++) await new Promise((r) => setImmediate(r));
    expect(pulled).toBe(before); // full: waits for the job
    expect(reader.pollNext(out, 10)).toBe("more-available");
    expect(taken).toEqual(range(10).map((n) => n + 1));
    reader.close?.();
  });
});

describe("fromCollection", () => {
  it("emits an array, a Set and a generator in order, and replays from a checkpoint after a failure", async () => {
    const env = StreamExecutionEnvironment.create({ parallelism: 1 });
    env.fromCollection(["a", "b"]).sinkTo(collectSink("array"));
    env.fromCollection(new Set([3, 1, 2])).sinkTo(collectSink("set"));
    env.fromCollection((function* () { yield* range(5); })()).sinkTo(collectSink("generator"));
    const result = await env.execute("collections");
    expect(result.getCollected("array")).toEqual(["a", "b"]);
    expect(result.getCollected("set")).toEqual([3, 1, 2]);
    expect(result.getCollected("generator")).toEqual(range(5));

    arm();
    // the collection is emitted fast: the failure may come before the first checkpoint (a replay from the start)
    const replayed = await failingJob((env) => env.fromCollection(range(20_000)), 15_000, false);
    expect(replayed.restarts).toBe(1);
    expect(replayed.getCollected("out")).toEqual(range(20_000));
  });

  it("is read when the stream is defined: changing the array afterwards changes nothing", async () => {
    const env = StreamExecutionEnvironment.create();
    const values = [1, 2];
    env.fromCollection(values).sinkTo(collectSink("out"));
    values.push(3);
    expect((await env.execute("copy")).getCollected("out")).toEqual([1, 2]);
  });
});

describe("SourceNotReplayableError", () => {
  it("names the source and the position", () => {
    const e = new SourceNotReplayableError("fromReadable", 12, "env.fromReadable(() => stream)");
    expect(e.message).toMatch(/^fromReadable: cannot resume at record 12 \(from a checkpoint\)/);
    expect(e.position).toBe(12);
  });
});
