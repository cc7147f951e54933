import { describe, expect, it } from "vitest";
import { StreamExecutionEnvironment } from "../../api/environment.ts";
import { collectSink } from "../../connectors/builtin/collect-sink.ts";

describe("records in and out of a job (JobClient.getRecordCounts)", () => {
  it("one chain from source to sink: in counts what the source read, out what the sink wrote", async () => {
    const env = StreamExecutionEnvironment.create({ parallelism: 1, log: () => {} });
    env
      .fromSequence(1, 100)
      .filter((n) => n % 4 === 0)
      .sinkTo(collectSink("kept"));
    const client = await env.executeAsync("one-chain");
    const result = await client.getJobExecutionResult();
    expect(result.getCollected("kept")).toHaveLength(25);
    expect(client.getRecordCounts()).toEqual({ in: 100, out: 25 });
  });

  it("several sources, tasks and sinks: summed over subtasks and sinks", async () => {
    const env = StreamExecutionEnvironment.create({ parallelism: 3, log: () => {} });
    const numbers = env.fromSequence(1, 60);
    const words = env.fromElements("a", "b", "c", "d");
    numbers
      .keyBy((n) => n % 5)
      .map((n) => n * 2)
      .sinkTo(collectSink("doubled"));
    numbers.filter((n) => n > 50).sinkTo(collectSink("large"));
    words.map((w) => w.toUpperCase()).sinkTo(collectSink("upper"));
    const client = await env.executeAsync("several");
    await client.getJobExecutionResult();
    expect(client.getRecordCounts()).toEqual({ in: 64, out: 60 + 10 + 4 });
  });
});
