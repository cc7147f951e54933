/**
 * executeAndCollect: results as they come, through `for await`; leaving the
 * loop cancels the job; with checkpointing every result exactly once across
 * an injected failure; without, a restart after results were returned fails
 * the loop instead of repeating them; a failed job makes the loop throw.
 */
import { describe, expect, it } from "vitest";
import { RestartStrategies } from "../runtime/execution/restart-strategy.ts";
import { StreamExecutionEnvironment } from "./environment.ts";
import { CollectRestartError } from "./execute-and-collect.ts";

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

/** from..to, with a timer now and then so the job runs a while (and checkpoints complete meanwhile). */
async function* paced(from: number, to: number, every = 100): AsyncGenerator<number> {
  for (let n = from; n <= to; n++) {
    if (n % every === 0) await new Promise((r) => setTimeout(r, 1));
    yield n;
  }
}

describe("executeAndCollect", () => {
  it("returns the results of a bounded job in order and ends with it", async () => {
    const env = StreamExecutionEnvironment.create({ parallelism: 1 });
    const results: number[] = [];
    const it = env.fromSequence(1, 5_000).map((n) => n * 2).executeAndCollect("doubles");
    for await (const n of it) results.push(n);
    expect(results).toEqual(range(1, 5_000).map((n) => n * 2));
    expect((await it.jobClient).getJobStatus()).toBe("FINISHED");
  });

  it("returns results while the job runs, and leaving the loop cancels the job", async () => {
    let finallyRan = false;
    async function* endless() {
      try {
        for (let n = 0; ; n++) {
          await new Promise((r) => setImmediate(r));
          yield n;
        }
      } finally {
        finallyRan = true;
      }
    }
    for (const checkpointing of [false, true]) {
      finallyRan = false;
      const env = StreamExecutionEnvironment.create({ parallelism: 1 });
      if (checkpointing) env.enableCheckpointing(10);
      const it = env.fromAsyncIterable(() => endless()).executeAndCollect("endless");
      const seen: number[] = [];
      for await (const n of it) {
        seen.push(n);
        if (seen.length === 50) break;
      }
      expect(seen).toEqual(range(0, 49));
      const client = await it.jobClient;
      expect(client.getJobStatus()).toBe("CANCELED");
      await expect(client.getJobExecutionResult()).rejects.toThrow(/was cancelled/);
      const deadline = Date.now() + 5_000;
      while (!finallyRan && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
      expect(finallyRan).toBe(true); // the source closed its iterator
    }
  });

  it("stops after `limit` results and cancels the job", async () => {
    const env = StreamExecutionEnvironment.create({ parallelism: 1 });
    const it = env.fromAsyncIterable(() => paced(1, 1_000_000)).executeAndCollect("limited", 7);
    const results: number[] = [];
    for await (const n of it) results.push(n);
    expect(results).toEqual(range(1, 7));
    expect((await it.jobClient).getJobStatus()).toBe("CANCELED");
  });

  it("with checkpointing returns every result exactly once across a failure after results were returned", async () => {
    const failure = { armed: false, fired: false };
    const env = StreamExecutionEnvironment.create({ parallelism: 2 });
    env.enableCheckpointing(10).setRestartStrategy(RestartStrategies.fixedDelayRestart(1, 0));
    const it = env
      .fromAsyncIterable(() => paced(1, 20_000))
      .uid("numbers")
      .rebalance()
      .map((n) => {
        if (failure.armed && !failure.fired) {
          failure.fired = true;
          throw new Error(`injected failure at ${n}`);
        }
        return n;
      })
      .uid("maybe-fail")
      .executeAndCollect("exactly-once");
    const results: number[] = [];
    for await (const n of it) {
      results.push(n);
      if (results.length === 1_000) failure.armed = true; // results were returned: now fail
    }
    expect(failure.fired).toBe(true);
    expect((await (await it.jobClient).getJobExecutionResult()).restarts).toBe(1);
    expect(results.length).toBe(20_000);
    expect(results.sort((a, b) => a - b)).toEqual(range(1, 20_000));
  });

  it("without checkpointing refuses to go on after a restart once results were returned", async () => {
    const failure = { armed: false, fired: false };
    const env = StreamExecutionEnvironment.create({ parallelism: 1 });
    env.setRestartStrategy(RestartStrategies.fixedDelayRestart(1, 0));
    const it = env
      .fromAsyncIterable(() => paced(1, 1_000_000))
      .map((n) => {
        if (failure.armed && !failure.fired) {
          failure.fired = true;
          throw new Error("injected");
        }
        return n;
      })
      .executeAndCollect("no-checkpoints");
    let returned = 0;
    const loop = (async () => {
      for await (const n of it) {
        void n;
        if (++returned === 100) failure.armed = true;
      }
    })();
    await expect(loop).rejects.toThrow(CollectRestartError);
    await expect(loop).rejects.toThrow(/the job restarted \(attempt 1\) after \d+ results were returned; without checkpointing/);
    expect((await it.jobClient).getJobStatus()).toBe("CANCELED");
  });

  it("throws the job's error after the results received before it", async () => {
    const env = StreamExecutionEnvironment.create({ parallelism: 1 });
    const it = env
      .fromAsyncIterable(() => paced(1, 1_000))
      .map((n) => {
        if (n === 500) throw new Error("bad record 500");
        return n;
      })
      .executeAndCollect("failing");
    const results: number[] = [];
    const err = await (async () => {
      for await (const n of it) results.push(n);
    })().catch((e: unknown) => e);
    expect(String(err)).toMatch(/bad record 500/);
    expect(results).toEqual(range(1, results.length)); // what came before, in order, nothing after
    expect(results.length).toBeLessThan(500);
  });

  it("rejects a limit that is not a positive number", () => {
    const env = StreamExecutionEnvironment.create();
    expect(() => env.fromSequence(1, 2).executeAndCollect("x", 0)).toThrow(/limit must be a positive number/);
  });
});
