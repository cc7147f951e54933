import { describe, expect, it } from "vitest";
import { StreamExecutionEnvironment } from "./environment.ts";
import { OutputTag } from "../core/output-tag.ts";
import { ProcessFunction, type ProcessContext } from "../core/process-function.ts";
import type { Collector } from "../core/collector.ts";
import { collectSink } from "../connectors/builtin/collect-sink.ts";

const odd = new OutputTag<string>("odd");

class SplitOdd extends ProcessFunction<number, number> {
  processElement(n: number, ctx: ProcessContext, out: Collector<number>): void {
    if (n % 2 === 0) out.collect(n);
    else ctx.output(odd, `odd ${n}`);
  }
}

describe("side outputs", () => {
  it("routes ctx.output records to getSideOutput(tag), in parallel and through a keyBy", async () => {
    const env = StreamExecutionEnvironment.create({ parallelism: 3 });
    const main = env.fromSequence(1, 1000).process(new SplitOdd());
    main.sinkTo(collectSink("even"));
    main.getSideOutput(odd).keyBy((s) => s.length).map((s) => s.toUpperCase()).sinkTo(collectSink("odd"));
    const result = await env.execute("side");
    const even = result.getCollected<number>("even").sort((a, b) => a - b);
    const oddOut = result.getCollected<string>("odd");
    expect(even).toEqual(Array.from({ length: 500 }, (_, i) => 2 * (i + 1)));
    expect(oddOut.length).toBe(500);
    expect(new Set(oddOut)).toEqual(new Set(Array.from({ length: 500 }, (_, i) => `ODD ${2 * i + 1}`)));
  });

  it("drops side records nobody consumes", async () => {
    const env = StreamExecutionEnvironment.create({ parallelism: 2 });
    env.fromSequence(1, 10).process(new SplitOdd()).sinkTo(collectSink("even"));
    const result = await env.execute("side-unused");
    expect(result.getCollected<number>("even").length).toBe(5);
  });
});
