import { describe, expect, it } from "vitest";
import type { ResultFuture } from "../../core/async-function.ts";
import { AsyncRetryStrategies, RetryPredicates } from "../../core/async-retry-strategy.ts";
import { randomInt, seededRandom, testSeed } from "../../util/seeded-random.ts";
import { AsyncFunctionError, AsyncPlainDataError, AsyncTimeoutError } from "./async-errors.ts";
import { AsyncHarness, ManualService, type Emitted } from "./test-async-harness.ts";

const SEED = testSeed();

/** The emitted elements as short strings: `v@ts` for records (`v` without timestamp), `W<ts>` for watermarks. */
function trace<OUT>(emitted: readonly Emitted<OUT>[]): string[] {
  return emitted.map((e) => ("watermark" in e ? `W${e.watermark}` : e.timestamp === Number.NEGATIVE_INFINITY ? String(e.record) : `${String(e.record)}@${e.timestamp}`));
}

async function errorOf(run: () => Promise<unknown>): Promise<unknown> {
  try {
    await run();
    return undefined;
  } catch (e) {
    return e;
  }
}

describe("AsyncWaitOperator: output order", () => {
  it("ordered: results leave in input order, each with its input's timestamp", async () => {
    const service = new ManualService<number, string>();
    const h = await AsyncHarness.open(service.call);
    for (const n of [1, 2, 3]) h.input(n, n * 10);
    service.resolve(3, "c");
    service.resolve(2, "b");
    await h.settle();
    expect(trace(h.emitted)).toEqual([]);
    service.resolve(1, "a");
    await h.settle();
    expect(trace(h.emitted)).toEqual(["a@10", "b@20", "c@30"]);
  });

  it("ordered: a watermark waits for the records before it and leaves at once when nothing is pending", async () => {
    const service = new ManualService<number, number>();
    const h = await AsyncHarness.open(service.call);
    h.watermark(5);
    expect(trace(h.emitted)).toEqual(["W5"]);
    h.input(1, 10);
    h.watermark(10);
    h.input(2, 11);
    service.resolve(2, 20);
    await h.settle();
    expect(trace(h.emitted)).toEqual(["W5"]);
    service.resolve(1, 10);
    await h.settle();
    expect(trace(h.emitted)).toEqual(["W5", "10@10", "W10", "20@11"]);
  });

  it("unordered: results leave as they complete, but never across a watermark", async () => {
    const service = new ManualService<string, string>();
    const h = await AsyncHarness.open(service.call, { outputMode: "unordered" });
    h.input("a", 1);
    h.input("b", 2);
    h.watermark(2);
    h.input("c", 3);
    service.resolve("c", "C");
    service.resolve("b", "B");
    await h.settle();
    expect(trace(h.emitted)).toEqual(["B@2"]); // c waits behind the watermark
    service.resolve("a", "A");
    await h.settle();
    expect(trace(h.emitted)).toEqual(["B@2", "A@1", "W2", "C@3"]);
  });

  it("a lambda's array is several results, an empty array none", async () => {
    const service = new ManualService<number, string>();
    const h = await AsyncHarness.open(service.call);
    h.input(1);
    h.input(2);
    service.resolve(1, ["x", "y"]);
    service.resolve(2, []);
    await h.settle();
    expect(h.output()).toEqual(["x", "y"]);
    expect(h.operator.hasPendingWork()).toBe(false);
  });

  it(`randomized (seed ${SEED}): ordered output is the input order, unordered output keeps every record between its watermarks`, async () => {
    const seed = SEED;
    const random = seededRandom(seed);
    for (const outputMode of ["ordered", "unordered"] as const) {
      const service = new ManualService<number, number>();
      const h = await AsyncHarness.open(service.call, { outputMode, capacity: 1_000 });
      const inputs: (number | "W")[] = [];
      for (let n = 0; n < 200; n++) {
        if (random() < 0.1) inputs.push("W");
        inputs.push(n);
      }
      let wm = 0;
      for (const x of inputs) x === "W" ? h.watermark(++wm) : h.input(x, wm);
      while (service.inFlight().length > 0) {
        const pending = service.inFlight();
        service.resolve(pending[randomInt(random, 0, pending.length - 1)]!, 0);
        if (random() < 0.3) await h.settle();
      }
      await h.settle();
      const expected = inputs.map((x) => (x === "W" ? "W" : x));
      // The emitted stream, records identified by their timestamp (the watermarks before them) and order of arrival.
      const got = h.emitted.map((e) => ("watermark" in e ? "W" : e.timestamp));
      const context = `seed ${seed} (WEIR_SEED=${seed}), ${outputMode}`;
      expect(got.length, context).toBe(expected.length);
      if (outputMode === "ordered") expect(got, context).toEqual(expected.map((x) => (x === "W" ? "W" : inputs.slice(0, inputs.indexOf(x)).filter((y) => y === "W").length)));
      else {
        // every record sits between the same two watermarks as in the input
        let seen = 0;
        for (const x of got) x === "W" ? seen++ : expect(x, context).toBe(seen);
      }
    }
  });
});

describe("AsyncWaitOperator: capacity", () => {
  it("takes no input at capacity; the inputs of the batch beyond it wait unrequested until a slot frees", async () => {
    const service = new ManualService<number, number>();
    const h = await AsyncHarness.open(service.call, { capacity: 2 });
    h.input(1);
    expect(h.operator.acceptsInput()).toBe(true);
    h.input(2);
    expect(h.operator.acceptsInput()).toBe(false);
    h.input(3); // the rest of a batch: kept, not requested
    h.watermark(7);
    h.input(4);
    expect(service.inFlight()).toEqual([1, 2]);
    service.resolve(2, 2);
    await h.settle();
    expect(service.inFlight()).toEqual([1]); // completed but not emitted (ordered): still takes a slot
    service.resolve(1, 1);
    await h.settle();
    expect(service.inFlight()).toEqual([3, 4]);
    expect(h.operator.acceptsInput()).toBe(false);
    service.resolve(3, 3);
    await h.settle();
    expect(h.operator.acceptsInput()).toBe(true);
    service.resolve(4, 4);
    await h.settle();
    expect(trace(h.emitted)).toEqual(["1", "2", "3", "W7", "4"]);
    expect(h.operator.hasPendingWork()).toBe(false);
  });
});

describe("AsyncWaitOperator: timeouts", () => {
  it("by default fails with an AsyncTimeoutError naming the operator, on the job's clock", async () => {
    const service = new ManualService<number, number>();
    const h = await AsyncHarness.open(service.call, { timeoutMs: 100 });
    h.input(1);
    await h.advance(50);
    h.input(2);
    await h.advance(49);
    const e = await errorOf(() => h.advance(1));
    expect(e).toBeInstanceOf(AsyncTimeoutError);
    expect((e as Error).message).toMatch(/^async I\/O operator 'Lookup' \(uid 'lookup'\): no result within the timeout of 100 ms \(1 attempt\) for input 1;/);
  });

  it("the timeout hook completes with a default; the late result of the request is ignored", async () => {
    const service = new ManualService<number, string>();
    const timedOut: number[] = [];
    const h = await AsyncHarness.open<number, string>(
      {
        asyncInvoke: (n, rf) => void service.call(n).then((r) => rf.complete(r as string[]), (e) => rf.completeExceptionally(e)),
        timeout: (n, rf) => {
          timedOut.push(n);
          rf.complete([`default-${n}`]);
        },
      },
      { timeoutMs: 100 },
    );
    h.input(1);
    h.input(2);
    service.resolve(2, ["two"]);
    await h.advance(100);
    expect(timedOut).toEqual([1]);
    service.resolve(1, ["late"]);
    await h.settle();
    expect(h.output()).toEqual(["default-1", "two"]);
  });

  it("one timer at a time: requests that completed do not time out", async () => {
    const service = new ManualService<number, number>();
    const h = await AsyncHarness.open(service.call, { timeoutMs: 100 });
    for (let n = 0; n < 50; n++) h.input(n);
    expect(h.clock.pendingTimers()).toBe(1);
    for (let n = 0; n < 50; n++) service.resolve(n, n);
    await h.advance(1_000);
    expect(h.output()).toHaveLength(50);
  });

  it("unordered: a request stuck behind many completed ones still times out", async () => {
    const service = new ManualService<number, number>();
    const timedOut: number[] = [];
    const h = await AsyncHarness.open<number, number>(
      { asyncInvoke: (n, rf) => void service.call(n).then((r) => rf.complete([r as number])), timeout: (n, rf) => (timedOut.push(n), rf.complete([-n])) },
      { outputMode: "unordered", timeoutMs: 1_000, capacity: 2 },
    );
    h.input(0); // never answered
    for (let n = 1; n <= 200; n++) {
      h.input(n);
      service.resolve(n, n);
      await h.advance(1);
    }
    expect(timedOut).toEqual([]);
    await h.advance(1_000);
    expect(timedOut).toEqual([0]);
    expect(h.output()).toHaveLength(201);
    expect(h.output().at(-1)).toBe(-0);
  });
});

describe("AsyncWaitOperator: retries", () => {
  it("fixed delay: retries a failed attempt after the delay, up to maxAttempts, then fails with the last error", async () => {
    const service = new ManualService<number, number>();
    const retry = new AsyncRetryStrategies.FixedDelayRetryStrategyBuilder<number>(3, 100).ifException(RetryPredicates.HAS_EXCEPTION_PREDICATE).build();
    const h = await AsyncHarness.open(service.call, { retryStrategy: retry });
    h.input(1);
    service.reject(1, new Error("unavailable"));
    await h.settle();
    await h.advance(99);
    expect(service.requests).toHaveLength(1);
    await h.advance(1);
    expect(service.requests).toHaveLength(2);
    service.reject(1, new Error("unavailable"));
    await h.advance(100);
    expect(service.requests).toHaveLength(3);
    service.reject(1, new Error("still unavailable"));
    const e = await errorOf(() => h.settle());
    expect(e).toBeInstanceOf(AsyncFunctionError);
    expect((e as Error).message).toBe("async function of operator 'Lookup' (uid 'lookup') failed (3 attempts): still unavailable");
    expect(((e as AsyncFunctionError).cause as Error).message).toBe("still unavailable");
  });

  it("an error the predicate does not match fails at once", async () => {
    const service = new ManualService<number, number>();
    const retry = new AsyncRetryStrategies.FixedDelayRetryStrategyBuilder<number>(3, 10).ifException((e) => (e as Error).message === "busy").build();
    const h = await AsyncHarness.open(service.call, { retryStrategy: retry });
    h.input(1);
    service.reject(1, new Error("not found"));
    expect(await errorOf(() => h.settle())).toBeInstanceOf(AsyncFunctionError);
    expect(service.requests).toHaveLength(1);
  });

  it("exponential backoff: delays grow by the multiplier up to the maximum; a result predicate retries empty results", async () => {
    const service = new ManualService<number, string>();
    const retry = new AsyncRetryStrategies.ExponentialBackoffDelayRetryStrategyBuilder<string>(5, 10, 30, 2).ifResult(RetryPredicates.EMPTY_RESULT_PREDICATE).build();
    const h = await AsyncHarness.open(service.call, { retryStrategy: retry });
    h.input(1);
    const attemptTimes: number[] = [h.clock.now()];
    for (let attempt = 1; attempt < 5; attempt++) {
      service.resolve(1, []);
      await h.settle();
      const before = service.requests.length;
      while (service.requests.length === before) await h.advance(1);
      attemptTimes.push(h.clock.now());
    }
    expect(attemptTimes.slice(1).map((t, i) => t - attemptTimes[i]!)).toEqual([10, 20, 30, 30]);
    service.resolve(1, []); // the last attempt's empty result is the result
    await h.settle();
    expect(h.output()).toEqual([]);
    expect(h.operator.hasPendingWork()).toBe(false);
  });

  it("the timeout covers all attempts: a retry waiting for its delay is dropped and the timeout hook decides", async () => {
    const service = new ManualService<number, string>();
    const retry = new AsyncRetryStrategies.FixedDelayRetryStrategyBuilder<string>(10, 80).ifException(RetryPredicates.HAS_EXCEPTION_PREDICATE).build();
    const h = await AsyncHarness.open<number, string>(
      {
        asyncInvoke: (n, rf) => void service.call(n).then((r) => rf.complete(r as string[]), (e) => rf.completeExceptionally(e)),
        timeout: (n, rf) => rf.complete([`gave up on ${n}`]),
      },
      { timeoutMs: 100, retryStrategy: retry },
    );
    h.input(1);
    service.reject(1, new Error("busy"));
    await h.advance(80);
    expect(service.requests).toHaveLength(2);
    service.reject(1, new Error("busy"));
    await h.advance(20); // deadline: the retry due at 160 must not run
    await h.advance(100);
    expect(service.requests).toHaveLength(2);
    expect(h.output()).toEqual(["gave up on 1"]);
  });
});

describe("AsyncWaitOperator: checkpoints", () => {
  it("keeps in-flight, completed-but-waiting and backlog inputs with the watermarks between them, and requests them again after a restore", async () => {
    const service = new ManualService<number, number>();
    const h = await AsyncHarness.open(service.call, { capacity: 3 });
    h.input(1, 100);
    h.input(2, 200);
    h.watermark(200);
    h.input(3, 300);
    h.input(4, 400); // backlog
    service.resolve(2, 20); // completed, waiting behind 1
    await h.settle();
    const bytes = await h.snapshot();
    service.resolve(1, 10); // after the barrier: emitted by this attempt, which then fails
    await h.settle();
    await h.close();

    const again = new ManualService<number, number>();
    const r = await AsyncHarness.open(again.call, { capacity: 3, restore: bytes });
    expect(again.inFlight()).toEqual([1, 2, 3]);
    for (const n of [3, 2, 1]) again.resolve(n, n * 10);
    await r.settle();
    expect(again.inFlight()).toEqual([4]);
    again.resolve(4, 40);
    await r.settle();
    expect(trace(r.emitted)).toEqual(["10@100", "20@200", "W200", "30@300", "40@400"]);
  });

  it("unordered: a restore keeps the watermarks between the records", async () => {
    const service = new ManualService<string, string>();
    const h = await AsyncHarness.open(service.call, { outputMode: "unordered" });
    h.input("a", 1);
    h.watermark(1);
    h.input("b", 2);
    const bytes = await h.snapshot();
    const again = new ManualService<string, string>();
    const r = await AsyncHarness.open(again.call, { outputMode: "unordered", restore: bytes });
    again.resolve("b", "B");
    await r.settle();
    expect(trace(r.emitted)).toEqual([]);
    again.resolve("a", "A");
    await r.settle();
    expect(trace(r.emitted)).toEqual(["A@1", "W1", "B@2"]);
  });
});

describe("AsyncWaitOperator: object semantics and misuse", () => {
  it("each attempt gets its own copy of the input, and results are copied when completed", async () => {
    const seen: number[] = [];
    let future: ResultFuture<{ n: number }> | undefined;
    const shared = { n: 0 };
    const retry = new AsyncRetryStrategies.FixedDelayRetryStrategyBuilder<{ n: number }>(2, 1).ifException(RetryPredicates.HAS_EXCEPTION_PREDICATE).build();
    const h = await AsyncHarness.open<{ n: number }, { n: number }>(
      {
        asyncInvoke(input, rf) {
          seen.push(input.n);
          input.n = -1; // must not reach the next attempt nor a snapshot
          if (seen.length === 1) throw new Error("first attempt fails");
          future = rf;
        },
      },
      { retryStrategy: retry },
    );
    h.input({ n: 7 });
    await h.advance(1);
    expect(seen).toEqual([7, 7]);
    shared.n = 1;
    future!.complete([shared, shared]);
    shared.n = 2; // after complete: no effect
    await h.settle();
    const out = h.output();
    expect(out).toEqual([{ n: 1 }, { n: 1 }]);
    expect(out[0]).not.toBe(out[1]);
    future!.complete([{ n: 99 }]); // only the first call counts
    await h.settle();
    expect(h.output()).toHaveLength(2);
  });

  it("refuses an input that is not plain data, naming the operator", async () => {
    const h = await AsyncHarness.open<object, number>(async () => 1);
    expect(() => h.input(new (class Order {})())).toThrow(AsyncPlainDataError);
    expect(() => h.input(new (class Order {})())).toThrow(/async I\/O operator 'Lookup' \(uid 'lookup'\) got an input that is an instance of class Order; inputs are kept in checkpoints/);
  });

  it("refuses a result that is not plain data", async () => {
    const h = await AsyncHarness.open<number, object>(async () => new (class Row {})());
    h.input(1);
    const e = await errorOf(() => h.settle());
    expect(e).toBeInstanceOf(AsyncPlainDataError);
    expect((e as Error).message).toMatch(/completed with a result that contains an instance of class Row at \[0\]/);
  });
});
