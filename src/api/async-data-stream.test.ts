/**
 * Async I/O on the real engine (in-process tasks): the three forms of the
 * async function, output order and watermarks, capacity with backpressure,
 * the end of bounded input, checkpoints, timeouts, and the refusal of async
 * functions where a synchronous one is expected.
 */
import { describe, expect, it } from "vitest";
import { StreamExecutionEnvironment } from "./environment.ts";
import { AsyncDataStream } from "./async-data-stream.ts";
import type { SingleOutputStreamOperator } from "./data-stream.ts";
import { RichAsyncFunction, type ResultFuture } from "../core/async-function.ts";
import { ProcessFunction, type ProcessContext } from "../core/process-function.ts";
import type { Collector } from "../core/collector.ts";
import { collectSink } from "../connectors/builtin/collect-sink.ts";
import { WatermarkStrategy } from "../time/watermark-strategy.ts";
import { sequenceSource } from "../connectors/builtin/sequence-source.ts";
import { seededRandom, testSeed } from "../util/seeded-random.ts";

const SEED = testSeed();
const repro = `WEIR_SEED=${SEED}`;

/** Resolves after `ms` of wall time (a simulated service's latency). */
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Counts requests in flight and remembers the highest count. */
class InFlight {
  now = 0;
  max = 0;
  async around<T>(work: () => Promise<T>): Promise<T> {
    this.now++;
    this.max = Math.max(this.max, this.now);
    try {
      return await work();
    } finally {
      this.now--;
    }
  }
}

describe("AsyncDataStream: the async function as a lambda, an object literal or a class", () => {
  it("all three give the results in input order (orderedWait), with inferred types", async () => {
    const env = StreamExecutionEnvironment.create({ parallelism: 1 });
    const numbers = env.fromSequence(1, 300);
    const random = seededRandom(SEED);
    const delays = Array.from({ length: 301 }, () => Math.floor(random() * 3));

    const lambda: SingleOutputStreamOperator<{ n: number; square: number }> = AsyncDataStream.orderedWait(
      numbers,
      async (n) => {
        await sleep(delays[n]!);
        return { n, square: n * n };
      },
      5_000,
    );
    const literal: SingleOutputStreamOperator<string> = AsyncDataStream.orderedWait(
      numbers,
      {
        asyncInvoke(n, result: ResultFuture<string>) {
          setTimeout(() => result.complete([`#${n}`]), delays[n]);
        },
      },
      5_000,
      10,
    );
    const opened: number[] = [];
    class Twice extends RichAsyncFunction<number, number> {
      open(): void {
        opened.push(this.getRuntimeContext().getIndexOfThisSubtask());
      }
      async asyncInvoke(n: number, result: ResultFuture<number>): Promise<void> {
        await sleep(delays[n]!);
        result.complete([n, n]);
      }
    }
    const klass: SingleOutputStreamOperator<number> = AsyncDataStream.orderedWait(numbers, new Twice(), 5_000, 7);
    lambda.sinkTo(collectSink("lambda"));
    literal.sinkTo(collectSink("literal"));
    klass.sinkTo(collectSink("class"));
    const result = await env.execute("async-forms");
    const ns = Array.from({ length: 300 }, (_, i) => i + 1);
    expect(result.getCollected("lambda"), repro).toEqual(ns.map((n) => ({ n, square: n * n })));
    expect(result.getCollected("literal"), repro).toEqual(ns.map((n) => `#${n}`));
    expect(result.getCollected("class"), repro).toEqual(ns.flatMap((n) => [n, n]));
    expect(opened).toEqual([0]);
  });

  it("refuses what is not an async function, and bad settings, at the call", () => {
    const env = StreamExecutionEnvironment.create();
    const s = env.fromSequence(1, 2);
    // @ts-expect-error not an async function
    expect(() => AsyncDataStream.orderedWait(s, { invoke: () => {} }, 100)).toThrow(/the async function must be a function returning a Promise, or an object with asyncInvoke/);
    expect(() => AsyncDataStream.unorderedWait(s, async (n) => n, -1)).toThrow(/AsyncDataStream.unorderedWait: timeoutMs must be/);
    expect(() => AsyncDataStream.orderedWait(s, async (n) => n, 100, 0)).toThrow(/capacity must be a whole number >= 1, got 0/);
  });
});

describe("AsyncDataStream: unordered output", () => {
  it(`results leave as they complete, but none crosses a watermark (seed ${SEED})`, async () => {
    const env = StreamExecutionEnvironment.create({ parallelism: 1 });
    // Timestamp n, a watermark after every 10th number: no record is late at the source.
    const watermarks = WatermarkStrategy.forGenerator<number>(() => ({
      onEvent: (n, ts, out) => {
        if (n % 10 === 0) out.emitWatermark(ts);
      },
      onPeriodicEmit: () => {},
    })).withTimestampAssigner((n) => n);
    const random = seededRandom(SEED);
    const delays = Array.from({ length: 2_001 }, () => Math.floor(random() * 4));
    const late: number[] = [];
    AsyncDataStream.unorderedWait(
      env.fromSource(sequenceSource(1, 2_000), watermarks, "numbers"),
      async (n) => {
        await sleep(delays[n]!);
        return n;
      },
      5_000,
      50,
    )
      .process(
        new (class extends ProcessFunction<number, number> {
          processElement(n: number, ctx: ProcessContext, out: Collector<number>): void {
            if (ctx.timestamp()! <= ctx.timerService().currentWatermark()) late.push(n);
            out.collect(n);
          }
        })(),
      )
      .sinkTo(collectSink("out"));
    const out = (await env.execute("async-unordered")).getCollected<number>("out");
    expect(late, repro).toEqual([]);
    expect([...out].sort((a, b) => a - b), repro).toEqual(Array.from({ length: 2_000 }, (_, i) => i + 1));
    expect(out, `${repro}: nothing was reordered, the test proves nothing`).not.toEqual([...out].sort((a, b) => a - b));
  });
});

describe("AsyncDataStream: capacity and backpressure", () => {
  for (const placement of ["chained to the source", "behind a channel"] as const) {
    it(`${placement}: never more than capacity requests; at capacity the task takes no input and sleeps`, async () => {
      const CAPACITY = 10;
      const BATCH = 16;
      const env = StreamExecutionEnvironment.create({ parallelism: 1, batchSize: BATCH });
      const inFlight = new InFlight();
      let passed = 0;
      let stalled = true;
      let release!: () => void;
      const released = new Promise<void>((r) => (release = r));
      const counted = env.fromSequence(1, 500).map((n) => {
        passed++;
        return n;
      });
      const input = placement === "chained to the source" ? counted : counted.rebalance();
      AsyncDataStream.orderedWait(input, (n) => inFlight.around(async () => (stalled ? (await released, n) : n)), 0, CAPACITY).sinkTo(collectSink("out"));
      const done = env.execute(`async-capacity-${placement}`);
      // The first requests stall until released: measure what the task does meanwhile.
      while (inFlight.now < CAPACITY) await sleep(5);
      const passedAtCapacity = passed;
      const cpu0 = process.cpuUsage();
      const t0 = performance.now();
      await sleep(300);
      const used = process.cpuUsage(cpu0);
      const cpuMs = (used.user + used.system) / 1_000;
      const wallMs = performance.now() - t0;
      const passedWhileStalled = passed - passedAtCapacity;
      stalled = false;
      release();
      const out = (await done).getCollected<number>("out");
      expect(out).toEqual(Array.from({ length: 500 }, (_, i) => i + 1));
      expect(inFlight.max).toBe(CAPACITY);
      if (placement === "chained to the source") {
        // The source runs in the same task: it read one batch beyond the capacity at most, then nothing.
        expect(passedAtCapacity).toBeLessThanOrEqual(CAPACITY + BATCH);
        expect(passedWhileStalled).toBe(0);
      }
      expect(cpuMs, `the process used ${cpuMs.toFixed(0)} ms of CPU in ${wallMs.toFixed(0)} ms while every request stalled: the task spins`).toBeLessThan(wallMs * 0.2);
    });
  }
});

describe("AsyncDataStream: end of input and checkpoints", () => {
  it(`bounded input ends only after every request, with checkpoints every few ms (seed ${SEED})`, async () => {
    const env = StreamExecutionEnvironment.create({ parallelism: 2, checkpointInterval: 5, mode: "exactly-once" });
    const random = seededRandom(SEED);
    const delays = Array.from({ length: 3_001 }, (_, n) => (n > 2_900 ? 60 : Math.floor(random() * 5)));
    AsyncDataStream.unorderedWait(
      env.fromSequence(1, 3_000),
      async (n) => {
        await sleep(delays[n]!);
        return n % 3 === 0 ? [] : [n, -n];
      },
      10_000,
      30,
    ).sinkTo(collectSink("out"));
    const result = await env.execute("async-end");
    const expected = Array.from({ length: 3_000 }, (_, i) => i + 1).flatMap((n) => (n % 3 === 0 ? [] : [n, -n]));
    expect(result.getCollected<number>("out").sort((a, b) => a - b), repro).toEqual(expected.sort((a, b) => a - b));
    expect(result.checkpoints?.counts.completed, repro).toBeGreaterThan(0);
    expect(result.checkpoints?.counts.failed, repro).toBe(0);
  });
});

describe("AsyncDataStream: failures", () => {
  it("a request without result in time fails the job with an AsyncTimeoutError naming the operator", async () => {
    const env = StreamExecutionEnvironment.create({ parallelism: 1 });
    AsyncDataStream.orderedWait(env.fromSequence(1, 5), (n) => (n === 3 ? new Promise<number>(() => {}) : Promise.resolve(n)), 50)
      .uid("lookup")
      .sinkTo(collectSink("out"));
    await expect(env.execute("async-timeout")).rejects.toThrow(/async I\/O operator 'AsyncWait\(ordered\)' \(uid 'lookup'\): no result within the timeout of 50 ms \(1 attempt\) for input 3/);
  });

  it("map(async ...) is refused at the call and points to AsyncDataStream; a Promise returned at run time fails the job", async () => {
    const env = StreamExecutionEnvironment.create({ parallelism: 1 });
    const s = env.fromSequence(1, 3);
    expect(() => s.map(async (n) => n)).toThrow(/^map\(\) got an async function: .* would emit Promises, not their results; call asynchronous code .* with AsyncDataStream.orderedWait/);
    // @ts-expect-error the types refuse it too, JavaScript does not
    expect(() => s.filter({ async filter() { return true; } })).toThrow(/filter\(\) got an async function: .* keep every record \(a Promise is truthy\)/);
    // @ts-expect-error the types refuse it too, JavaScript does not
    expect(() => s.flatMap(async () => [])).toThrow(/flatMap\(\) got an async function/);
    s.map((n) => Promise.resolve(n)).uid("lookup").sinkTo(collectSink("out"));
    await expect(env.execute("map-promise")).rejects.toThrow(/the map function of operator 'Map' \(uid 'lookup'\) returned a Promise, which would be emitted instead of its result; call asynchronous code .* AsyncDataStream/);
  });
});
