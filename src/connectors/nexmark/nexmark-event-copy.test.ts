/**
 * The Nexmark source's own copy of its events: the same as the engine's generic
 * plain-data copy, and trusted only where no user code has seen the events.
 */
import { describe, expect, it } from "vitest";
import { collectSink, StreamExecutionEnvironment, WatermarkStrategy } from "../../index.ts";
import { copyPlainData } from "../../state/plain-copy.ts";
import { NexmarkGenerator } from "./nexmark-generator.ts";
import { copyNexmarkEvent } from "./nexmark-event-copy.ts";
import type { NexmarkEvent } from "./nexmark-event.ts";
import { NexmarkSource } from "./nexmark-source.ts";

describe("copyNexmarkEvent", () => {
  it("gives what copyPlainData gives (keys in the same order), sharing no object with the event, for every type", () => {
    const g = new NexmarkGenerator({ events: 2_000 });
    const types = new Set<number>();
    for (let n = 0; n < 2_000; n++) {
      const e = g.event(n);
      types.add(e.type);
      const c = copyNexmarkEvent(e);
      expect(JSON.stringify(c)).toBe(JSON.stringify(copyPlainData(e)));
      expect(c).toEqual(e);
      expect(c).not.toBe(e);
      const inner = (x: NexmarkEvent) => x.person ?? x.auction ?? x.bid;
      expect(inner(c)).not.toBe(inner(e));
    }
    expect([...types].sort()).toEqual([0, 1, 2]);
  });
});

describe("the Nexmark source's records in a job", () => {
  it("are checked again once a chained user function had them: a function put into an event is refused at the exchange", async () => {
    const env = StreamExecutionEnvironment.create({ parallelism: 1 });
    env
      .fromSource(NexmarkSource.create({ events: 100 }), WatermarkStrategy.noWatermarks(), "nexmark")
      .map((e) => Object.assign(e, { f: () => 1 }))
      .uid("poison")
      .keyBy((e) => e.type)
      .map((e) => e.type)
      .sinkTo(collectSink("types"));
    await expect(env.execute()).rejects.toThrow(/operator 'Map' \(uid 'poison'\) emitted a record that contains a function at \.f/);
  });
});
