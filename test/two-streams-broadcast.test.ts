/**
 * Broadcast state under failure: a keyed stream connected to a broadcast
 * stream of rules, checkpointed every 20 ms; one subtask throws once, after a
 * checkpoint completed. Every subtask reports its broadcast state (a counter of
 * applied rules and the last rule per slot) every 250 rules into an
 * exactly-once sink: after restore and replay the reports equal those of a
 * failure-free run on every subtask, so the broadcast state was restored
 * identically everywhere, without loss or duplicates.
 */
import { describe, expect, it } from "vitest";
import {
  collectSink, KeyedBroadcastProcessFunction, MapStateDescriptor, RestartStrategies, StreamExecutionEnvironment,
  ValueStateDescriptor, WatermarkStrategy,
  type Collector, type KeyedBroadcastContext, type KeyedReadOnlyBroadcastContext, type ValueState,
} from "../src/index.ts";
import { throttledSequence } from "./fixtures/throttled-sequence-source.ts";

const RULES = 3000;
const SLOTS = 50;
const PARALLELISM = 3;
const rules = new MapStateDescriptor<string, number>("rules");

type Report = [subtask: number, rule: number, state: [string, number][]];

/** Reports the broadcast state every 250 rules; subtask 1 fails once after a completed checkpoint. */
class ApplyRules extends KeyedBroadcastProcessFunction<number, number, number, Report> {
  private seen!: ValueState<number>;
  private checkpointed = false;
  open(): void {
    this.seen = this.getRuntimeContext().getState(new ValueStateDescriptor<number>("seen", 0));
  }
  notifyCheckpointComplete(): void {
    this.checkpointed = true;
  }
  processElement(_event: number, ctx: KeyedReadOnlyBroadcastContext<number>): void {
    this.seen.update(this.seen.value()! + (ctx.getBroadcastState(rules).get("count") ?? 0));
  }
  processBroadcastElement(n: number, ctx: KeyedBroadcastContext, out: Collector<Report>): void {
    const rc = this.getRuntimeContext();
    if (this.checkpointed && rc.getAttemptNumber() === 0 && rc.getIndexOfThisSubtask() === 1 && n % 7 === 0)
      throw new Error(`injected failure at rule ${n}`);
    const state = ctx.getBroadcastState(rules);
    state.put("count", (state.get("count") ?? 0) + 1);
    state.put(`slot${n % SLOTS}`, n);
    if (n % 250 === 0) out.collect([rc.getIndexOfThisSubtask(), n, [...state.entries()].sort(([a], [b]) => (a < b ? -1 : 1))]);
  }
}

/** The reports of a failure-free run, computed directly. */
function expectedReports(): Report[] {
  const out: Report[] = [];
  const state = new Map<string, number>();
  for (let n = 1; n <= RULES; n++) {
    state.set("count", n);
    state.set(`slot${n % SLOTS}`, n);
    if (n % 250 === 0)
      for (let s = 0; s < PARALLELISM; s++) out.push([s, n, [...state.entries()].sort(([a], [b]) => (a < b ? -1 : 1))]);
  }
  return out;
}

const byReport = (a: Report, b: Report) => a[1] - b[1] || a[0] - b[0];

describe("broadcast state", () => {
  it("is identical on every subtask after a failure and restore from a checkpoint (exactly-once)", async () => {
    const env = StreamExecutionEnvironment.create({ parallelism: PARALLELISM });
    env.enableCheckpointing(20, "exactly-once");
    env.setRestartStrategy(RestartStrategies.fixedDelayRestart(3, 0));
    const ruleStream = env
      .fromSource(throttledSequence(1, RULES, 20, 1), WatermarkStrategy.noWatermarks(), "rules").uid("rules").setParallelism(1)
      .broadcast(rules);
    env
      .fromSource(throttledSequence(1, 600, 5, 1), WatermarkStrategy.noWatermarks(), "events").uid("events")
      .keyBy((n) => n % 7)
      .connect(ruleStream)
      .process(new ApplyRules()).uid("apply-rules")
      .sinkTo(collectSink("reports")).uid("reports");
    const result = await env.execute("broadcast-restore");
    expect(result.restarts, "the injected failure happened once").toBe(1);
    expect(result.getCollected<Report>("reports").sort(byReport)).toEqual(expectedReports().sort(byReport));
  }, 60_000);
});
