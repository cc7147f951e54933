/**
 * Flink's default object semantics in a job (no object reuse): an operator
 * may mutate what it receives without effect on another operator's state or
 * another consumer's records.
 */
import { describe, expect, it } from "vitest";
import { StreamExecutionEnvironment } from "./environment.ts";
import { collectSink } from "../connectors/builtin/collect-sink.ts";

interface Sum {
  k: string;
  sum: number;
}

describe("object semantics in a job", () => {
  it("a map that mutates what a reduce emits does not change the reduce's state", async () => {
    const env = StreamExecutionEnvironment.create();
    env
      .fromElements(1, 2, 3, 4, 5)
      .map((n): Sum => ({ k: "a", sum: n }))
      .keyBy((s) => s.k)
      .reduce((a, b) => {
        a.sum += b.sum;
        return a;
      })
      .map((s) => {
        const seen = s.sum;
        s.sum = 0;
        return seen;
      })
      .sinkTo(collectSink("sums"));
    const result = await env.execute();
    expect(result.getCollected<number>("sums")).toEqual([1, 3, 6, 10, 15]);
  });

  it("consumers of one stream each get their own records", async () => {
    const env = StreamExecutionEnvironment.create();
    const records = env.fromElements({ n: 1 }, { n: 2 }, { n: 3 }).map((r) => ({ n: r.n * 10 }));
    records
      .rebalance()
      .map((r) => {
        r.n = -1;
        return r.n;
      })
      .sinkTo(collectSink("first"));
    records.rebalance().map((r) => r.n).sinkTo(collectSink("second"));
    const result = await env.execute();
    expect(result.getCollected<number>("second")).toEqual([10, 20, 30]);
  });

  it("a consumer that begins with a filter which mutates its input does not change what another consumer gets, in either edge order", async () => {
    const env = StreamExecutionEnvironment.create({ parallelism: 2 });
    const records = env.fromElements({ n: 1 }, { n: 2 }, { n: 3 }, { n: 4 }).map((r) => ({ n: r.n, tags: [r.n] }));
    records.filter((r) => {
      r.tags.push(-1); // a filter may mutate what it receives: the record is its own
      r.n = -r.n;
      return r.n % 2 === 0;
    }).map((r) => r.tags.length).sinkTo(collectSink("filtered"));
    records.map((r) => `${r.n}:${r.tags.join(",")}`).sinkTo(collectSink("plain"));
    records.filter((r) => r.tags.length === 1 && r.n > 0).map((r) => r.n).sinkTo(collectSink("last"));
    const result = await env.execute();
    expect(result.getCollected<number>("filtered")).toEqual([2, 2]);
    expect(result.getCollected<string>("plain").sort()).toEqual(["1:1", "2:2", "3:3", "4:4"]);
    expect(result.getCollected<number>("last").sort()).toEqual([1, 2, 3, 4]);
  });

  for (const objectReuse of [false, true]) {
    it(`a record of an output with two consumers that is not plain data is refused once, naming its producer${objectReuse ? " (object reuse)" : ""}`, async () => {
      const env = StreamExecutionEnvironment.create();
      if (objectReuse) env.getConfig().enableObjectReuse();
      const records = env.fromElements(1, 2, 3).map((n) => (n === 2 ? { n, f: () => n } : { n })).uid("poison");
      records.rebalance().map((r) => r.n).sinkTo(collectSink("first"));
      records.rebalance().map((r) => r.n).sinkTo(collectSink("second"));
      await expect(env.execute()).rejects.toThrow(/operator 'Map' \(uid 'poison'\) emitted a record that contains a function at \.f/);
    });
  }
});
