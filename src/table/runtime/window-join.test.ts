import { describe, expect, it } from "vitest";
import { collectSink, RestartStrategies, StreamExecutionEnvironment, WatermarkStrategy, type DataStream, type JobClient } from "../../index.ts";
import { KeyedCoProcessFunction } from "../../core/co-process-function.ts";
import type { KeyedProcessContext } from "../../core/process-function.ts";
import { engineKeyedState } from "../../core/runtime-context.ts";
import { throttledSequence } from "../../../test/fixtures/throttled-sequence-source.ts";
import { waitFor } from "../../../test/support/cli-process.ts";
import { rowWatermarks } from "../../../test/support/row-watermarks.ts";
import { tempDirs } from "../../../test/support/temp-dirs.ts";
import { randomInt, seededRandom, testSeed } from "../../util/seeded-random.ts";
import { folded, nestedLoopJoin, pairMatches, sequencedInputs, throttledSide, type SideRow } from "../../../test/support/join-oracle.ts";
import { sortRows } from "../data/changelog.ts";
import { Row } from "../data/row.ts";
import type { SqlValue } from "../types/sql-value.ts";
import type { JoinType } from "./join-spec.ts";
import { rowKeySelector } from "./row-key.ts";
import { windowJoin, type WindowJoinSpec } from "./window-join.ts";

const MINUTE = 60_000;
/** 2020-04-15 12:00 (UTC), epoch ms. */
const NOON = Date.UTC(2020, 3, 15, 12, 0);

/** Rows `[num, id, window_start, window_end]` on both sides, joined on num. */
const docSpec = (joinType: JoinType): WindowJoinSpec => ({
  joinType, leftKeys: [0], rightKeys: [0], leftArity: 4, rightArity: 4,
  leftWindowStart: 2, leftWindowEnd: 3, rightWindowStart: 2, rightWindowEnd: 3,
});

/** A row of `TUMBLE(TABLE t, DESCRIPTOR(row_time), INTERVAL '5' MINUTES)` at 12:mm. */
const tumbled = (side: "L" | "R", minute: number, num: number, id: string): SideRow => {
  const start = NOON + Math.floor(minute / 5) * 5 * MINUTE;
  return { side, fields: [num, id, start, start + 5 * MINUTE] };
};

/** Flink's window join documentation: LeftTable and RightTable, tumbling 5-minute windows. */
const docRows: SideRow[] = [
  tumbled("L", 2, 1, "L1"), tumbled("L", 6, 2, "L2"), tumbled("L", 3, 3, "L3"),
  tumbled("R", 1, 2, "R2"), tumbled("R", 4, 3, "R3"), tumbled("R", 5, 4, "R4"),
];

const w1 = [NOON, NOON + 5 * MINUTE];
const w2 = [NOON + 5 * MINUTE, NOON + 10 * MINUTE];

describe("window join: the examples of Flink's window join documentation", () => {
  const cases: [JoinType, SqlValue[][]][] = [
    ["FULL", [
      [1, "L1", ...w1, null, null, null, null],
      [null, null, null, null, 2, "R2", ...w1],
      [3, "L3", ...w1, 3, "R3", ...w1],
      [2, "L2", ...w2, null, null, null, null],
      [null, null, null, null, 4, "R4", ...w2],
    ]],
    ["SEMI", [[3, "L3", ...w1]]],
    ["ANTI", [[1, "L1", ...w1], [2, "L2", ...w2]]],
  ];
  for (const [joinType, expected] of cases) {
    it(joinType, async () => {
      const env = StreamExecutionEnvironment.create({ parallelism: 1, autoWatermarkInterval: 0 });
      const { left, right } = sequencedInputs(env, docRows, 5);
      windowJoin(left, right, docSpec(joinType), { uid: "join", name: "WindowJoin" }).sinkTo(collectSink("out"));
      const result = await env.execute("window-join-doc");
      const rows = result.getCollected<Row>("out");
      expect(rows.every((r) => r.kind === "+I")).toBe(true);
      expect(sortRows(rows)).toEqual(sortRows(expected.map((fields) => Row.of(...fields))));
    });
  }
});

describe("window join: golden changelog (parallelism 1)", () => {
  it("FULL: a window is joined when the watermark reaches its end - 1; rows for a fired window are dropped", async () => {
    const env = StreamExecutionEnvironment.create({ parallelism: 1, autoWatermarkInterval: 0 });
    const rows: SideRow[] = [
      { side: "L", fields: [1, "a", 0, 10] },
      { side: "R", fields: [1, "x", 0, 10] },
      { side: "W", watermark: 8 },
      { side: "R", fields: [1, "z", 0, 10] }, // in time: the window fires at 9
      { side: "W", watermark: 9 },
      { side: "L", fields: [1, "late", 0, 10] }, // dropped: its window fired
      { side: "R", fields: [1, "y", 10, 20] },
      { side: "W", watermark: 19 },
      { side: "L", fields: [null, "n", 20, 30] },
    ];
    const { left, right } = sequencedInputs(env, rows);
    windowJoin(left, right, docSpec("FULL"), { uid: "join", name: "WindowJoin" }).sinkTo(collectSink("out"));
    const result = await env.execute("window-join-golden");
    expect(result.getCollected<Row>("out").map((r) => Row.toString(r))).toEqual([
      "+I[1, a, 0, 10, 1, x, 0, 10]",
      "+I[1, a, 0, 10, 1, z, 0, 10]",
      "+I[null, null, null, null, 1, y, 10, 20]",
      "+I[null, n, 20, 30, null, null, null, null]",
    ]);
  });
});

describe("window join: a side of the window columns alone", () => {
  it("holds and joins its rows (nothing but the window to keep per row)", async () => {
    const env = StreamExecutionEnvironment.create({ parallelism: 1, autoWatermarkInterval: 0 });
    const rows: SideRow[] = [
      { side: "L", fields: [0, 10] },
      { side: "L", fields: [0, 10] },
      { side: "R", fields: ["x", 0, 10] },
      { side: "L", fields: [10, 20] },
      { side: "W", watermark: 19 },
    ];
    const { left, right } = sequencedInputs(env, rows);
    const spec: WindowJoinSpec = { joinType: "FULL", leftKeys: [], rightKeys: [], leftArity: 2, rightArity: 3, leftWindowStart: 0, leftWindowEnd: 1, rightWindowStart: 1, rightWindowEnd: 2 };
    windowJoin(left, right, spec, { uid: "join", name: "WindowJoin" }).sinkTo(collectSink("out"));
    const result = await env.execute("window-join-window-columns");
    expect(result.getCollected<Row>("out").map((r) => Row.toString(r))).toEqual(["+I[0, 10, x, 0, 10]", "+I[0, 10, x, 0, 10]", "+I[10, 20, null, null, null]"]);
  });
});

describe("window join: inputs", () => {
  it("must be insert-only: a retraction fails the job with an error naming the join", async () => {
    const env = StreamExecutionEnvironment.create({ parallelism: 1, autoWatermarkInterval: 0 });
    const left = env.fromCollection([Row.of(1, "a", 0, 10), Row.ofKind("-D", 1, "a", 0, 10)]);
    const right = env.fromCollection<Row>([]);
    windowJoin(left, right, docSpec("INNER"), { uid: "join", name: "WindowJoin" }).sinkTo(collectSink("out"));
    await expect(env.execute("window-join-retraction")).rejects.toThrow(/window join needs insert-only inputs, got a -D row/);
  });
});

const BOUND = 30;
/** Rows `[k, t, s, window_start, window_end]`: HOP(size 20, slide 10) over times at most BOUND out of order. */
function hopRows(random: () => number, n: number): Row[] {
  const out: Row[] = [];
  for (let i = 0; i < n; i++) {
    const k = random() < 0.1 ? null : randomInt(random, 0, 4);
    const t = i * 2 + randomInt(random, 0, BOUND);
    const s = random() < 0.1 ? null : "abcdef"[randomInt(random, 0, 5)]!;
    const last = Math.floor(t / 10) * 10;
    for (const start of [last - 10, last]) out.push(Row.of(k, t, s, start, start + 20));
  }
  return out;
}

const hopSpec = (joinType: JoinType, condition?: (f: SqlValue[]) => SqlValue): WindowJoinSpec => ({
  joinType, leftKeys: [0], rightKeys: [0], leftArity: 5, rightArity: 5, condition,
  leftWindowStart: 3, leftWindowEnd: 4, rightWindowStart: 3, rightWindowEnd: 4,
});

/** `l.s < r.s`, NULL when either is NULL. */
const sLess = (f: SqlValue[]): SqlValue => (f[2] === null || f[7] === null ? null : (f[2] as string) < (f[7] as string));

function oracle(s: WindowJoinSpec, lefts: Row[], rights: Row[]): Row[] {
  return nestedLoopJoin(s, lefts.map((r) => r.fields), rights.map((r) => r.fields), (l, r) =>
    l[3] === r[3] && l[4] === r[4] && pairMatches(s, l, r));
}

describe("window join: random HOP windows against a nested loop (parallelism 2)", () => {
  it("every join type, with and without a residual condition", async () => {
    const seed = testSeed();
    const random = seededRandom(seed);
    const lefts = hopRows(random, 200);
    const rights = hopRows(random, 200);
    const env = StreamExecutionEnvironment.create({ parallelism: 2, autoWatermarkInterval: 1 });
    const left = throttledSide(env, "left", lefts, 1, BOUND);
    const right = throttledSide(env, "right", rights, 1, BOUND);
    const types: JoinType[] = ["INNER", "LEFT", "RIGHT", "FULL", "SEMI", "ANTI"];
    const cases = types.flatMap((t) => [hopSpec(t), hopSpec(t, sLess)]);
    cases.forEach((s, i) => windowJoin(left, right, s, { uid: `join-${i}`, name: s.joinType }).sinkTo(collectSink(`out-${i}`)));
    const result = await env.execute("window-join-random");
    cases.forEach((s, i) => {
      const out = result.getCollected<Row>(`out-${i}`);
      expect(out.every((r) => r.kind === "+I"), `WEIR_SEED=${seed} ${s.joinType} #${i}: insert-only`).toBe(true);
      expect(folded(out), `WEIR_SEED=${seed} ${s.joinType} #${i}`).toEqual(oracle(s, lefts, rights));
    });
  }, 60_000);

  it("a failure amid buffered windows leaves no trace (exactly-once, parallelism 2)", async () => {
    const seed = testSeed();
    const random = seededRandom(seed);
    const lefts = hopRows(random, 250);
    const rights = hopRows(random, 250);
    const failAt = randomInt(random, Math.floor(lefts.length / 4), Math.floor(lefts.length / 2));
    const env = StreamExecutionEnvironment.create({ parallelism: 2, autoWatermarkInterval: 2 });
    env.enableCheckpointing(50, "exactly-once");
    env.setRestartStrategy(RestartStrategies.fixedDelayRestart(3, 0));
    const s = hopSpec("FULL", sLess);
    windowJoin(throttledSide(env, "left", lefts, 1, BOUND, failAt), throttledSide(env, "right", rights, 1, BOUND), s, { uid: "join", name: "WindowJoin" }).sinkTo(
      collectSink("out"),
    );
    const result = await env.execute("window-join-recovery");
    const msg = `WEIR_SEED=${seed} failAt=${failAt}`;
    expect(result.restarts, `${msg}: the failure was injected`).toBe(1);
    expect(folded(result.getCollected<Row>("out")), msg).toEqual(oracle(s, lefts, rights));
  }, 60_000);
});

/**
 * Writes, at the first left row, a window of each side in the form of earlier versions (an array of fields
 * per row), with the event-time timer that fires it, as the window join did.
 */
class EarlierRowsWriter extends KeyedCoProcessFunction<string, Row, Row, Row> {
  override processElement1(_row: Row, ctx: KeyedProcessContext<string>): void {
    const left = engineKeyedState<unknown>(this.getRuntimeContext(), "_left");
    if (left.get() !== undefined) return;
    // [2000, 3000) gets rows after the savepoint too; [5000, 6000) none
    left.set(new Map([
      [3_000, [{ s: 2_000, e: 3_000, rows: [[1, "old-a", 2_000, 3_000, 2_010], [1, "old-b", 2_000, 3_000, 2_020]] }]],
      [6_000, [{ s: 5_000, e: 6_000, rows: [[1, "old-c", 5_000, 6_000, 5_010]] }]],
    ]));
    engineKeyedState<unknown>(this.getRuntimeContext(), "_right").set(new Map([
      [3_000, [{ s: 2_000, e: 3_000, rows: [[1, "old-r", 2_000, 3_000, 2_030]] }]],
      [6_000, [{ s: 5_000, e: 6_000, rows: [[1, "old-s", 5_000, 6_000, 5_020]] }]],
    ]));
    ctx.timerService().registerEventTimeTimer(2_999);
    ctx.timerService().registerEventTimeTimer(5_999);
  }

  override processElement2(): void {}
}

describe("window join: a savepoint of an earlier version", () => {
  const tempDir = tempDirs("weir-window-join-");
  const BY_KEY = rowKeySelector([0]);

  /** Rows `[1, name, window_start, window_end, t]` of TUMBLE(1 s) at t = 1 … 3000 ms: left every 100 ms, right every 250 ms. */
  function start(limit: () => number, joined: (left: DataStream<Row>, right: DataStream<Row>) => void, fromSavepoint?: string): Promise<JobClient> {
    const env = StreamExecutionEnvironment.create({ parallelism: 1, checkpointInterval: 50, checkpointDir: tempDir(), fromSavepoint, autoWatermarkInterval: 0 });
    const rows = env
      .fromSource(throttledSequence(1, 3_000, 50, 1, 0, limit), WatermarkStrategy.noWatermarks(), "numbers")
      .uid("numbers")
      .map((n) => Row.of(1, `${n % 250 === 0 ? "r" : "l"}${n}`, Math.floor(n / 1_000) * 1_000, Math.floor(n / 1_000) * 1_000 + 1_000, n))
      .uid("rows")
      .assignTimestampsAndWatermarks(rowWatermarks(4, 0))
      .uid("watermarks");
    joined(rows.filter((r) => (r.fields[4] as number) % 100 === 0).uid("left"), rows.filter((r) => (r.fields[4] as number) % 250 === 0).uid("right"));
    return env.executeAsync("window-join-savepoint");
  }

  it("joins the rows of a window buffered as an array per row with the rows that come after it", async () => {
    let limit = 1_000;
    const first = await start(() => limit, (l, r) => void l.connect(r).keyBy(BY_KEY, BY_KEY).process(new EarlierRowsWriter()).uid("join"));
    await waitFor("a completed checkpoint", () => (first.getCheckpointStats()?.counts.completed ?? 0) > 0, 60_000);
    const savepoint = await first.stopWithSavepoint(tempDir());
    limit = 3_001;
    const spec: WindowJoinSpec = { ...hopSpec("INNER"), leftWindowStart: 2, leftWindowEnd: 3, rightWindowStart: 2, rightWindowEnd: 3 };
    const second = await start(() => limit, (l, r) => void windowJoin(l, r, spec, { uid: "join", name: "WindowJoin" }).sinkTo(collectSink("out")), savepoint);
    const out = (await second.getJobExecutionResult()).getCollected<Row>("out").map((r) => r.fields);
    // window [2000, 3000): the earlier rows and the rows read after the savepoint, every pair
    const lefts = [[1, "old-a", 2_000, 3_000, 2_010], [1, "old-b", 2_000, 3_000, 2_020]];
    const rights = [[1, "old-r", 2_000, 3_000, 2_030]];
    for (let n = 2_000; n < 3_000; n += 100) lefts.push([1, `${n % 250 === 0 ? "r" : "l"}${n}`, 2_000, 3_000, n]);
    for (let n = 2_000; n < 3_000; n += 250) rights.push([1, `r${n}`, 2_000, 3_000, n]);
    const expected = lefts.flatMap((l) => rights.map((r) => [...l, ...r]));
    const inWindow = out.filter((f) => f[2] === 2_000);
    expect(sortRows(inWindow.map((f) => Row.of(...f)))).toEqual(sortRows(expected.map((f) => Row.of(...f))));
    // the later window: the row at 3000 ms, on both sides
    expect(out.filter((f) => f[2] === 3_000)).toEqual([[1, "r3000", 3_000, 4_000, 3_000, 1, "r3000", 3_000, 4_000, 3_000]]);
    // a window of earlier rows only, fired at the end of input
    expect(out.filter((f) => f[2] === 5_000)).toEqual([[1, "old-c", 5_000, 6_000, 5_010, 1, "old-s", 5_000, 6_000, 5_020]]);
  }, 120_000);
});
