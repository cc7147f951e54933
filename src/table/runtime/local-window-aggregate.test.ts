/**
 * Two-phase window aggregation (localWindowAggregate → globalWindowAggregate) gives the rows of the
 * one-phase windowAggregate: over seeded random rows with NULLs and late rows, TUMBLE/HOP/CUMULATE,
 * at parallelism 1 and 3, with the local phase at parallelism 3, across a failure with exactly-once
 * checkpoints, and from a savepoint of the one-phase operator (and back).
 */
import { describe, expect, it } from "vitest";
import { RestartStrategies, StreamExecutionEnvironment, WatermarkStrategy, type DataStream, type JobClient } from "../../index.ts";
import { throttledSequence } from "../../../test/fixtures/throttled-sequence-source.ts";
import { waitFor } from "../../../test/support/cli-process.ts";
import { tempDirs } from "../../../test/support/temp-dirs.ts";
import { aggCall, decimalType, INT, STRING } from "../../../test/support/agg-calls.ts";
import { recoveryInput } from "../../../test/support/fail-once-input.ts";
import { rowWatermarks } from "../../../test/support/row-watermarks.ts";
import { collectSink } from "../../connectors/builtin/collect-sink.ts";
import { randomInt, seededRandom, testSeed } from "../../util/seeded-random.ts";
import { MultisetTable } from "../data/changelog.ts";
import { Row } from "../data/row.ts";
import { parseDecimal } from "../types/decimal.ts";
import type { AggregateCall } from "./aggregate-call.ts";
import { localWindowAggregate } from "./local-window-aggregate.ts";
import { canRunInTwoPhases, globalWindowAggregate, windowAggregate, type WindowAggregateSpec } from "./window-aggregate.ts";
import type { WindowSpec } from "./window-spec.ts";

type SlicedWindow = Exclude<WindowSpec, { kind: "session" }>;

/** Random rows [ts, v INT (NULL one time in 5), s STRING, k STRING (NULL one time in 7), d DECIMAL] with disorder up to `disorder` ms. */
function randomRows(random: () => number, n: number, disorder: number): Row[] {
  let t = 1_000_000;
  const rows: Row[] = [];
  for (let i = 0; i < n; i++) {
    t += randomInt(random, 0, 40);
    const v = randomInt(random, 0, 4) === 0 ? null : randomInt(random, -100, 100);
    const k = randomInt(random, 0, 6) === 0 ? null : `k${randomInt(random, 0, 3)}`;
    rows.push(Row.of(t - randomInt(random, 0, disorder), v, `s${randomInt(random, 0, 5)}`, k, parseDecimal(`${randomInt(random, 0, 999)}.${randomInt(random, 10, 99)}`)!));
  }
  return rows;
}

const DEC = decimalType(10, 2);
const calls: AggregateCall[] = [
  aggCall("COUNT", []),
  aggCall("COUNT", [[1, INT]]),
  aggCall("SUM", [[1, INT]]),
  aggCall("MIN", [[1, INT]]),
  aggCall("MAX", [[1, INT]]),
  aggCall("AVG", [[1, INT]]),
  aggCall("SUM", [[4, DEC]]),
  aggCall("AVG", [[4, DEC]]),
  aggCall("MAX", [[2, STRING]]),
];

const windows: [string, SlicedWindow][] = [
  ["TUMBLE with an offset", { kind: "tumble", timeField: 0, size: 500, offset: 70 }],
  ["HOP", { kind: "hop", timeField: 0, size: 600, slide: 200, offset: 0 }],
  ["HOP, size not a multiple of the slide", { kind: "hop", timeField: 0, size: 500, slide: 200, offset: 30 }],
  ["CUMULATE", { kind: "cumulate", timeField: 0, maxSize: 1000, step: 250, offset: 0 }],
];

/** The two phases of `spec` over `input`; the local phase at `localParallelism`, the global one named `uid`. */
function twoPhases(input: DataStream<Row>, spec: WindowAggregateSpec, localParallelism: number, uid = "window-agg"): DataStream<Row> {
  const partials = localWindowAggregate(input, { ...spec, window: spec.window as SlicedWindow }, { uid: "local-window-agg", name: "LocalWindowAggregate" }).setParallelism(localParallelism);
  return globalWindowAggregate(partials, spec, { uid, name: "GlobalWindowAggregate" });
}

/**
 * The rows of `spec` over `rows` (one reader, a watermark after each row), in one or two phases at
 * `parallelism`; with `spread`, the rows are spread over 3 subtasks before the aggregation.
 */
async function run(rows: Row[], spec: WindowAggregateSpec, phases: 1 | 2, parallelism: number, spread = false): Promise<Row[]> {
  const env = StreamExecutionEnvironment.create({ parallelism, autoWatermarkInterval: 0 });
  let input: DataStream<Row> = env.fromCollection(rows).assignTimestampsAndWatermarks(rowWatermarks(spec.window.timeField, 200)).setParallelism(1);
  if (spread) input = input.rebalance().map((r: Row) => r).setParallelism(3);
  const out = phases === 1 ? windowAggregate(input, spec, { uid: "window-agg", name: "WindowAggregate" }) : twoPhases(input, spec, spread ? 3 : 1);
  out.sinkTo(collectSink("out"));
  return (await env.execute(`window-aggregate-${phases}-phase`)).getCollected<Row>("out");
}

const table = (rows: readonly Row[]) => new MultisetTable().applyAll(rows).sortedRows().map((r) => Row.toString(r));

describe("two-phase window aggregation: the rows of one phase over random rows with NULLs and late rows", () => {
  for (const [name, window] of windows) {
    it(name, async () => {
      const seed = testSeed();
      const rows = randomRows(seededRandom(seed), 1500, 300);
      const spec: WindowAggregateSpec = { window, groupKeys: [3], calls };
      const one = table(await run(rows, spec, 1, 1));
      expect(one.length, `WEIR_SEED=${seed}`).toBeGreaterThan(10);
      expect(table(await run(rows, spec, 2, 1)), `WEIR_SEED=${seed} parallelism 1`).toEqual(one);
      expect(table(await run(rows, spec, 2, 3)), `WEIR_SEED=${seed} parallelism 3`).toEqual(one);
    }, 60_000);
  }

  it("without a group key (one global group), and with two keys", async () => {
    const seed = testSeed();
    const rows = randomRows(seededRandom(seed), 1500, 300);
    for (const groupKeys of [[], [3, 2]]) {
      const spec: WindowAggregateSpec = { window: windows[1]![1], groupKeys, calls };
      expect(table(await run(rows, spec, 2, 3)), `WEIR_SEED=${seed} keys ${groupKeys.join(",")}`).toEqual(table(await run(rows, spec, 1, 1)));
    }
  }, 60_000);

  it("the local phase on 3 subtasks (rows spread after the watermarks; none late)", async () => {
    const seed = testSeed();
    const rows = randomRows(seededRandom(seed), 1500, 150);
    for (const [, window] of windows) {
      const spec: WindowAggregateSpec = { window, groupKeys: [3], calls };
      expect(table(await run(rows, spec, 2, 2, true)), `WEIR_SEED=${seed} ${window.kind}`).toEqual(table(await run(rows, spec, 1, 1)));
    }
  }, 60_000);
});

describe("two-phase window aggregation: a failure with exactly-once checkpoints leaves the result of one phase", () => {
  for (const [name, window] of [windows[1]!, windows[3]!]) {
    it(name, async () => {
      const seed = testSeed();
      const random = seededRandom(seed);
      const rows = randomRows(random, 1500, 300);
      const failAt = randomInt(random, 300, 700);
      const spec: WindowAggregateSpec = { window, groupKeys: [3], calls };
      const { env, input: failing } = recoveryInput(rows, failAt);
      twoPhases(failing.assignTimestampsAndWatermarks(rowWatermarks(0, 200)).setParallelism(1), spec, 1).sinkTo(collectSink("out"));
      const result = await env.execute("two-phase-window-aggregate-recovery");
      const msg = `WEIR_SEED=${seed} failAt=${failAt}`;
      expect(result.restarts, msg).toBe(1);
      expect(table(result.getCollected<Row>("out")), msg).toEqual(table(await run(rows, spec, 1, 1)));
    }, 60_000);
  }
});

describe("two-phase window aggregation: savepoints of one phase and of two", () => {
  const tempDir = tempDirs("weir-two-phase-");
  const spec: WindowAggregateSpec = { window: { kind: "hop", timeField: 0, size: 1_000, slide: 500, offset: 0 }, groupKeys: [3], calls: [aggCall("COUNT", []), aggCall("SUM", [[1, INT]])] };

  /** Rows at t = 1 … 3000 ms over 3 keys, `phases` of `spec` with the (global) uid `window-agg`. */
  function start(limit: () => number, phases: 1 | 2, fromSavepoint?: string, allowNonRestoredState = false): Promise<JobClient> {
    const env = StreamExecutionEnvironment.create({ parallelism: 2, checkpointInterval: 50, checkpointDir: tempDir(), fromSavepoint, allowNonRestoredState, autoWatermarkInterval: 0 });
    env.setRestartStrategy(RestartStrategies.noRestart());
    const input = env
      .fromSource(throttledSequence(1, 3_000, 50, 1, 0, limit), WatermarkStrategy.noWatermarks(), "numbers")
      .uid("numbers")
      .setParallelism(1)
      .map((n: number) => Row.of(n, n % 10, "s", `k${n % 3}`))
      .uid("rows")
      .setParallelism(1)
      .assignTimestampsAndWatermarks(rowWatermarks(0, 0))
      .uid("watermarks")
      .setParallelism(1);
    const out = phases === 1 ? windowAggregate(input, spec, { uid: "window-agg", name: "WindowAggregate" }) : twoPhases(input, spec, 1);
    out.sinkTo(collectSink("out")).uid("out");
    return env.executeAsync("two-phase-savepoint");
  }

  /**
   * The rows of a job in `after` phases resumed from a savepoint that a job in `before` phases took
   * mid-window (collect sinks report only at a job's end: the windows fired before the stop are not seen).
   */
  async function resumed(before: 1 | 2, after: 1 | 2): Promise<Row[]> {
    let limit = 1_234;
    const first = await start(() => limit, before);
    await waitFor("a completed checkpoint", () => (first.getCheckpointStats()?.counts.completed ?? 0) > 0, 60_000);
    const savepoint = await first.stopWithSavepoint(tempDir());
    limit = 3_001;
    const second = await start(() => limit, after, savepoint, before === 2 && after === 1);
    return (await second.getJobExecutionResult()).getCollected<Row>("out");
  }

  /** `rows` equal the rows of `whole` from their first window end on, and their first window began before the stop. */
  function expectTheRestOf(whole: Row[], rows: Row[]): void {
    const end = (r: Row) => r.fields[4] as number;
    const first = Math.min(...rows.map(end));
    expect(first - 1_000).toBeLessThan(1_234); // a window with rows before the savepoint and after it
    expect(table(rows)).toEqual(table(whole.filter((r) => end(r) >= first)));
  }

  it("a savepoint of the one-phase operator restores into two phases, and one of two phases into one (the local phase's empty state left out)", async () => {
    const whole = (await (await start(() => 3_001, 1)).getJobExecutionResult()).getCollected<Row>("out");
    expect(whole.length).toBeGreaterThan(15);
    expectTheRestOf(whole, await resumed(1, 2));
    expectTheRestOf(whole, await resumed(2, 1));
  }, 120_000);

  it("a savepoint of two phases is refused by one phase without leave to drop the local phase's (empty) state", async () => {
    let limit = 1_234;
    const first = await start(() => limit, 2);
    await waitFor("a completed checkpoint", () => (first.getCheckpointStats()?.counts.completed ?? 0) > 0, 60_000);
    const savepoint = await first.stopWithSavepoint(tempDir());
    limit = 3_001;
    const second = await start(() => limit, 1, savepoint);
    await expect(second.getJobExecutionResult()).rejects.toThrow(/has state for operator uid 'local-window-agg', which this job does not have/);
  }, 120_000);
});

describe("canRunInTwoPhases", () => {
  const hop = windows[1]![1];
  it("is false for DISTINCT, SESSION and a user-defined function without merge", () => {
    expect(canRunInTwoPhases({ window: hop, groupKeys: [], calls })).toBe(true);
    expect(canRunInTwoPhases({ window: hop, groupKeys: [], calls: [aggCall("COUNT", [[2, STRING]], { distinct: true })] })).toBe(false);
    expect(canRunInTwoPhases({ window: { kind: "session", timeField: 0, gap: 10, partitionKeys: [] }, groupKeys: [], calls })).toBe(false);
    const udf = { name: "f", createAccumulator: () => ({}), accumulate: () => {}, getValue: () => null };
    const user: AggregateCall = { fn: "USER", args: [1], argTypes: [INT], distinct: false, resultType: INT, text: "f($1)", udf: udf as unknown as AggregateCall["udf"] };
    expect(canRunInTwoPhases({ window: hop, groupKeys: [], calls: [user] })).toBe(false);
    expect(canRunInTwoPhases({ window: hop, groupKeys: [], calls: [{ ...user, udf: { ...udf, merge: () => {} } as unknown as AggregateCall["udf"] }] })).toBe(true);
  });
});
