/**
 * The stateful table operators of `src/table/runtime/` under an injected
 * failure with exactly-once checkpoints at parallelism 2: the folded output
 * equals the batch result over the whole input, as if nothing had failed.
 */
import { describe, expect, it } from "vitest";
import { RestartStrategies, StreamExecutionEnvironment, WatermarkStrategy, type DataStream, type SingleOutputStreamOperator } from "../src/index.ts";
import { collectSink } from "../src/connectors/builtin/collect-sink.ts";
import { formatChangelog, MultisetTable, sortRows } from "../src/table/data/changelog.ts";
import { Row } from "../src/table/data/row.ts";
import type { SqlValue } from "../src/table/types/sql-value.ts";
import { deduplicate } from "../src/table/runtime/deduplicate.ts";
import { rank, type RankSpec } from "../src/table/runtime/rank.ts";
import { windowDeduplicate } from "../src/table/runtime/window-deduplicate.ts";
import { windowRank, type WindowRankSpec } from "../src/table/runtime/window-rank.ts";
import type { WindowSpec } from "../src/table/runtime/window-spec.ts";
import { windowTableFunction } from "../src/table/runtime/window-table-function.ts";
import { randomInt, seededRandom, testSeed } from "../src/util/seeded-random.ts";
import { throttledSequence } from "./fixtures/throttled-sequence-source.ts";
import { FailOnce } from "./support/fail-once.ts";
import { stateBackendCases, type StateBackendCase } from "./support/state-backends.ts";
import { rowWatermarks } from "./support/row-watermarks.ts";
import {
  dedupOracle,
  onTimeWindowRows,
  presentRows,
  randomChangelog,
  randomWindowEvents,
  TOP2_BY_PRICE,
  topNOracle,
  windowDedupOracle,
  windowTopNOracle,
  windowTvfOracle,
  type WindowEvent,
} from "./support/table-operator-oracles.ts";

const N = 1200;
const BOUND = 25;

/** Runs `build` over `rows` replayed from a throttled source with a failure injected once, exactly-once checkpoints every 50 ms. */
async function runWithFailure(
  rows: readonly Row[],
  eventTime: boolean,
  build: (input: DataStream<Row>) => DataStream<Row>,
  random: () => number,
  backend: StateBackendCase,
): Promise<{ out: Row[]; restarts: number; failAt: number }> {
  const failAt = randomInt(random, Math.floor(rows.length / 4), Math.floor(rows.length / 2));
  const env = StreamExecutionEnvironment.create({ parallelism: 2, autoWatermarkInterval: 0 });
  env.enableCheckpointing(50, "exactly-once");
  backend.apply(env);
  env.setRestartStrategy(RestartStrategies.fixedDelayRestart(3, 0));
  const failOnce = new FailOnce(rows, failAt);
  let input: DataStream<Row> = env
    .fromSource(throttledSequence(0, rows.length - 1, 15, 2, 0, failOnce.sourceLimit), WatermarkStrategy.noWatermarks(), "numbers")
    .setParallelism(1)
    .map(failOnce)
    .setParallelism(1);
  if (eventTime) input = (input as SingleOutputStreamOperator<Row>).assignTimestampsAndWatermarks(rowWatermarks(3, BOUND)).setParallelism(1);
  build(input).sinkTo(collectSink("out"));
  const result = await env.execute("table-operator-recovery");
  return { out: result.getCollected<Row>("out"), restarts: result.restarts, failAt };
}

/** The TVF on one subtask, so the window operators downstream see the watermarks in input order. */
function tvf(input: DataStream<Row>, window: WindowSpec): DataStream<Row> {
  return (windowTableFunction(input, window, { uid: "tvf", name: "WindowTableFunction" }) as SingleOutputStreamOperator<Row>).setParallelism(1);
}

function expectFolded(out: readonly Row[], expected: readonly SqlValue[][], msg: string): void {
  const folded = new MultisetTable().applyAll(out).sortedRows();
  expect(formatChangelog(folded), msg).toBe(formatChangelog(sortRows(expected.map((f) => Row.of(...f)))));
}

const events = (random: () => number): WindowEvent[] => randomWindowEvents(random, N, 5, 60);

describe.each(stateBackendCases())("table operators: a failure amid state leaves no trace (exactly-once, parallelism 2), $name", (backend) => {
  it("Top-N with retraction", async () => {
    const seed = testSeed();
    const random = seededRandom(seed);
    const rows = randomChangelog(random, N);
    const spec: RankSpec = {
      partitionKeys: [0],
      orderBy: [
        { field: 2, descending: true, nullsFirst: false },
        { field: 1, descending: false, nullsFirst: false },
      ],
      rankType: "ROW_NUMBER",
      rankStart: 1,
      rankEnd: 3,
      outputRankNumber: true,
      generateUpdateBefore: true,
    };
    const { out, restarts, failAt } = await runWithFailure(rows, false, (s) => rank(s, spec, { uid: "rank", name: "Rank" }), random, backend);
    const msg = `WEIR_SEED=${seed} failAt=${failAt}`;
    expect(restarts, `${msg}: the failure was injected`).toBe(1);
    expectFolded(out, topNOracle(presentRows(rows), spec), msg);
  }, 60_000);

  it("deduplication keep-last on event time", async () => {
    const seed = testSeed();
    const random = seededRandom(seed);
    const evs = events(random);
    const spec = { keys: [0, 2], keepLast: true, timeField: 3, generateUpdateBefore: true };
    const { out, restarts, failAt } = await runWithFailure(evs.map((e) => Row.of(...e)), false, (s) => deduplicate(s, spec, { uid: "dedup", name: "Deduplicate" }), random, backend);
    const msg = `WEIR_SEED=${seed} failAt=${failAt}`;
    expect(restarts, `${msg}: the failure was injected`).toBe(1);
    expectFolded(out, dedupOracle(evs, spec.keys, true, 3), msg);
  }, 60_000);

  it("SESSION window TVF", async () => {
    const seed = testSeed();
    const random = seededRandom(seed);
    const evs = events(random);
    const window: WindowSpec = { kind: "session", timeField: 3, gap: 20, partitionKeys: [0] };
    const { out, restarts, failAt } = await runWithFailure(evs.map((e) => Row.of(...e)), true, (s) => windowTableFunction(s, window, { uid: "session", name: "Session" }), random, backend);
    const msg = `WEIR_SEED=${seed} failAt=${failAt}`;
    expect(restarts, `${msg}: the failure was injected`).toBe(1);
    expectFolded(out, windowTvfOracle(evs, window, BOUND), msg);
  }, 60_000);

  it("window Top-N over hopping windows", async () => {
    const seed = testSeed();
    const random = seededRandom(seed);
    const evs = events(random);
    const window: WindowSpec = { kind: "hop", timeField: 3, size: 120, slide: 40, offset: 0 };
    const spec: WindowRankSpec = { ...TOP2_BY_PRICE, partitionKeys: [0], orderBy: [...TOP2_BY_PRICE.orderBy, { field: 1, descending: false, nullsFirst: false }] };
    const { out, restarts, failAt } = await runWithFailure(
      evs.map((e) => Row.of(...e)),
      true,
      (s) => windowRank(tvf(s, window), spec, { uid: "window-rank", name: "WindowRank" }),
      random,
      backend,
    );
    const msg = `WEIR_SEED=${seed} failAt=${failAt}`;
    expect(restarts, `${msg}: the failure was injected`).toBe(1);
    expectFolded(out, windowTopNOracle(onTimeWindowRows(evs, window, BOUND), spec), msg);
  }, 60_000);

  it("window deduplication keep-first over tumbling windows", async () => {
    const seed = testSeed();
    const random = seededRandom(seed);
    const evs = events(random);
    const window: WindowSpec = { kind: "tumble", timeField: 3, size: 100, offset: 0 };
    const spec = { keys: [0], keepLast: false, timeField: 3, windowStartField: 4, windowEndField: 5 };
    const { out, restarts, failAt } = await runWithFailure(
      evs.map((e) => Row.of(...e)),
      true,
      (s) => windowDeduplicate(tvf(s, window), spec, { uid: "window-dedup", name: "WindowDeduplicate" }),
      random,
      backend,
    );
    const msg = `WEIR_SEED=${seed} failAt=${failAt}`;
    expect(restarts, `${msg}: the failure was injected`).toBe(1);
    expectFolded(out, windowDedupOracle(onTimeWindowRows(evs, window, BOUND), [0], false, 3), msg);
  }, 60_000);
});
