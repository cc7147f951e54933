/**
 * The seed scenario of Weir's demo: a source of integers feeds `sum_even` and
 * `sum_odd`; a checkpoint is taken when the source is at offset 5; `sum_odd`
 * fails at 7; the job restores that checkpoint, the source rewinds to 5 and
 * replays — and the sums equal those of a run without the failure.
 */
import { StreamExecutionEnvironment } from "../api/environment.ts";
import { KeyedProcessFunction, type KeyedProcessContext } from "../core/process-function.ts";
import type { Collector } from "../core/collector.ts";
import { collectSink } from "../connectors/builtin/collect-sink.ts";
import { RestartStrategies } from "../runtime/execution/restart-strategy.ts";
import { ValueStateDescriptor, type ValueState } from "../state/index.ts";
import { GatedIntegerSource } from "./gated-integer-source.ts";
import { WatermarkStrategy } from "../time/watermark-strategy.ts";

/** What the scenario reports. */
export interface SeedScenarioResult {
  sumEven: number;
  sumOdd: number;
  restarts: number;
}

/** Keyed running sum that can fail once at a given input (first attempt only). */
class RunningSum extends KeyedProcessFunction<string, number, number> {
  private sum!: ValueState<number>;

  constructor(private readonly failAt: number | null, private readonly say: (line: string) => void) {
    super();
  }

  open(): void {
    this.sum = this.getRuntimeContext().getState(new ValueStateDescriptor<number>("sum", 0));
  }

  processElement(n: number, ctx: KeyedProcessContext<string>, out: Collector<number>): void {
    if (n === this.failAt && this.getRuntimeContext().getAttemptNumber() === 0) {
      this.say(`${this.getRuntimeContext().getTaskName()} failed at ${n}`);
      throw new Error(`injected failure in ${this.getRuntimeContext().getTaskName()} at ${n}`);
    }
    const s = this.sum.value()! + n;
    this.sum.update(s);
    this.say(`  ${this.getRuntimeContext().getTaskName()} += ${n} -> ${s}   (${ctx.getCurrentKey()})`);
    out.collect(s);
  }
}

/**
 * Runs the scenario in-process; `fail` injects the failure in `sum_odd` at 7.
 * Every step is reported through `say`.
 */
export async function runSeedScenario(fail: boolean, say: (line: string) => void): Promise<SeedScenarioResult> {
  const source = new GatedIntegerSource(1, 10, 5, say);
  const env = StreamExecutionEnvironment.create({ parallelism: 1, log: (line) => say(line) });
  env.getCheckpointConfig().setCheckpointingMode("exactly-once");
  env.setRestartStrategy(RestartStrategies.fixedDelayRestart(1, 0));
  const numbers = env.fromSource(source, WatermarkStrategy.noWatermarks(), "integers").uid("integers");
  numbers
    .filter((n) => n % 2 === 0)
    .keyBy(() => "even")
    .process(new RunningSum(null, say))
    .name("sum_even")
    .uid("sum_even")
    .sinkTo(collectSink("sum_even"));
  numbers
    .filter((n) => n % 2 === 1)
    .keyBy(() => "odd")
    .process(new RunningSum(fail ? 7 : null, say))
    .name("sum_odd")
    .uid("sum_odd")
    .sinkTo(collectSink("sum_odd"));
  const client = await env.executeAsync(fail ? "seed-with-failure" : "seed-failure-free");
  await source.paused;
  const checkpoint = await client.triggerCheckpoint();
  say(`checkpoint ${checkpoint.checkpointId} complete at source offset ${source.lastSnapshotOffset}`);
  source.release();
  const result = await client.getJobExecutionResult();
  const last = (name: string) => result.getCollected<number>(name).at(-1) ?? 0;
  return { sumEven: last("sum_even"), sumOdd: last("sum_odd"), restarts: result.restarts };
}
