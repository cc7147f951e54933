import { describe, expect, it } from "vitest";
import { collectSink, RestartStrategies, StreamExecutionEnvironment, type Collector } from "../../index.ts";
import { randomInt, seededRandom, testSeed } from "../../util/seeded-random.ts";
import { folded, nestedLoopJoin, pairMatches, sequencedInputs, throttledSide, type SideRow } from "../../../test/support/join-oracle.ts";
import { Row } from "../data/row.ts";
import type { SqlValue } from "../types/sql-value.ts";
import { sqlValueKey } from "../types/sql-value-key.ts";
import { intervalJoin, type IntervalJoinSpec } from "./interval-join.ts";
import type { JoinType } from "./join-spec.ts";

/** Rows `[k, t, s]` on both sides; `r.t BETWEEN l.t + lower AND l.t + upper`. */
const spec = (joinType: JoinType, lowerBound: number, upperBound: number, condition?: (f: SqlValue[]) => SqlValue): IntervalJoinSpec => ({
  joinType, leftKeys: [0], rightKeys: [0], leftArity: 3, rightArity: 3, leftTimeField: 1, rightTimeField: 1, lowerBound, upperBound, condition,
});

/** `l.s < r.s`, NULL when either is NULL. */
const sLess = (f: SqlValue[]): SqlValue => (f[2] === null || f[5] === null ? null : (f[2] as string) < (f[5] as string));

const L = (k: SqlValue, t: number, s: string): SideRow => ({ side: "L", fields: [k, t, s] });
const R = (k: SqlValue, t: number, s: string): SideRow => ({ side: "R", fields: [k, t, s] });
const W = (watermark: number): SideRow => ({ side: "W", watermark });

/** The batch interval join. */
function oracle(s: IntervalJoinSpec, lefts: SqlValue[][], rights: SqlValue[][]): Row[] {
  return nestedLoopJoin(s, lefts, rights, (l, r) => {
    const tl = l[s.leftTimeField] as number | null;
    const tr = r[s.rightTimeField] as number | null;
    return tl !== null && tr !== null && tr >= tl + s.lowerBound && tr <= tl + s.upperBound && pairMatches(s, l, r);
  });
}

describe("interval join: golden changelog (parallelism 1)", () => {
  it("FULL: pairs as they meet, unmatched rows padded when the watermark passes their last chance, late rows at once", async () => {
    const env = StreamExecutionEnvironment.create({ parallelism: 1, autoWatermarkInterval: 0 });
    const rows = [L(1, 100, "a"), R(1, 105, "x"), L(2, 100, "b"), W(106), R(1, 120, "y"), W(111), L(3, 50, "c"), R(1, 104, "z")];
    const { left, right } = sequencedInputs(env, rows);
    intervalJoin(left, right, spec("FULL", 0, 10), { uid: "join", name: "IntervalJoin" }).sinkTo(collectSink("out"));
    const result = await env.execute("interval-join-golden");
    expect(result.getCollected<Row>("out").map((r) => Row.toString(r))).toEqual([
      "+I[1, 100, a, 1, 105, x]",
      // W(111): the left rows at 100 can no longer match; (2, 100, b) never did
      "+I[2, 100, b, null, null, null]",
      // late: its matches (50..60) are below the watermark
      "+I[3, 50, c, null, null, null]",
      // late: the left row at 100 was cleaned up at 110
      "+I[null, null, null, 1, 104, z]",
      // the end of the input: the right row at 120 never matched
      "+I[null, null, null, 1, 120, y]",
    ]);
  });

  it("INNER with negative bounds and a residual condition; rows are kept until the watermark reaches their last chance", async () => {
    const env = StreamExecutionEnvironment.create({ parallelism: 1, autoWatermarkInterval: 0 });
    // l.t - 1 <= r.t <= l.t + 10: the right row at 90 can match left rows up to 100, the left row at 100 right rows up to 101
    const rows = [R(1, 90, "b"), R(1, 95, "a"), W(99), L(1, 100, "a"), W(100), R(1, 101, "c"), R(1, 102, "d"), L(null, 100, "a")];
    const { left, right } = sequencedInputs(env, rows);
    intervalJoin(left, right, spec("INNER", -10, 1, sLess), { uid: "join", name: "IntervalJoin" }).sinkTo(collectSink("out"));
    const result = await env.execute("interval-join-golden-inner");
    expect(result.getCollected<Row>("out").map((r) => Row.toString(r))).toEqual(["+I[1, 100, a, 1, 90, b]", "+I[1, 100, a, 1, 101, c]"]);
  });

  it("a retained side: its rows are kept for good, so a late row of the other side still joins them (the regular join's result)", async () => {
    const env = StreamExecutionEnvironment.create({ parallelism: 1, autoWatermarkInterval: 0 });
    // right rows are window ends (r.t in [l.t, l.t + 10]): the one at 110 comes before the watermark reaches it
    const rows = [L(1, 100, "a"), L(1, 95, "b"), R(1, 110, "x"), W(109), L(1, 101, "c"), W(200), L(1, 100, "late"), R(1, 210, "y"), L(2, 300, "d")];
    const { left, right } = sequencedInputs(env, rows);
    intervalJoin(left, right, { ...spec("INNER", 0, 10), retain: "right" }, { uid: "join", name: "IntervalJoin" }).sinkTo(collectSink("out"));
    const result = await env.execute("interval-join-golden-retained");
    expect(result.getCollected<Row>("out").map((r) => Row.toString(r))).toEqual([
      "+I[1, 100, a, 1, 110, x]",
      "+I[1, 101, c, 1, 110, x]",
      // 90 behind the watermark: an interval join would have dropped the right row at 110 by now
      "+I[1, 100, late, 1, 110, x]",
    ]);
  });

  it("only an INNER join retains a side", () => {
    const env = StreamExecutionEnvironment.create({ parallelism: 1 });
    const { left, right } = sequencedInputs(env, []);
    expect(() => intervalJoin(left, right, { ...spec("LEFT", 0, 10), retain: "right" }, { uid: "join", name: "IntervalJoin" })).toThrow(/only an INNER join can retain a side, got LEFT/);
  });
});

const BOUND = 40;
const TYPES: JoinType[] = ["INNER", "LEFT", "RIGHT", "FULL"];

/**
 * A key 0…4 in one of the forms a BIGINT or DECIMAL value takes (a number, a bigint, a DECIMAL with trailing
 * zeros), or one of five keys beyond 2^53 as a number or a bigint: equal keys in any forms must meet (the
 * join holds its rows by a number for a key in the safe range, by the key string for the others).
 */
function randomKey(random: () => number): SqlValue {
  const k = randomInt(random, 0, 4);
  const form = randomInt(random, 0, 9);
  if (form < 5) return k;
  if (form < 7) return BigInt(k);
  if (form < 8) return { unscaled: BigInt(k) * 100n, scale: 2 };
  return form < 9 ? 2 ** 60 + k * 1024 : 2n ** 60n + BigInt(k * 1024);
}

/** Each row's fields by their keys: rows equal but for the forms of their keys (7, 7n, 7.00) compare equal (a folded changelog keeps the form it met first). */
const keysOf = (rows: readonly Row[]): string[][] => rows.map((r) => r.fields.map((v) => sqlValueKey(v)));

/** `n` rows `[k, t, s]` whose times are at most BOUND out of order: none is late for a BOUND-bounded watermark. */
function randomRows(random: () => number, n: number): SqlValue[][] {
  return Array.from({ length: n }, (_, i) => [
    random() < 0.1 ? null : randomKey(random),
    i * 2 + randomInt(random, 0, BOUND),
    random() < 0.1 ? null : "abcdef"[randomInt(random, 0, 5)]!,
  ]);
}

const side = (env: StreamExecutionEnvironment, name: string, rows: SqlValue[][], failAt = -1) =>
  throttledSide(env, name, rows.map((fields): Row => ({ kind: "+I", fields })), 1, BOUND, failAt);

describe("interval join: random inputs against a nested loop", () => {
  it.each([
    [1, "heap"],
    [2, "heap"],
    [3, "heap"],
    [2, "disk"],
  ] as const)("every join type, with and without a residual condition, a retained side (parallelism %i, %s backend)", async (parallelism, backend) => {
    const seed = testSeed();
    const random = seededRandom(seed);
    const lefts = randomRows(random, 300);
    const rights = randomRows(random, 300);
    const env = StreamExecutionEnvironment.create({ parallelism, autoWatermarkInterval: 1 });
    env.setStateBackend(backend);
    const left = side(env, "left", lefts);
    const right = side(env, "right", rights);
    const cases = [
      ...TYPES.flatMap((t) => [spec(t, -15, 25), spec(t, 5, 30, sLess)]),
      { ...spec("INNER", -15, 25), retain: "left" as const },
      { ...spec("INNER", 5, 30, sLess), retain: "right" as const },
    ];
    cases.forEach((s, i) => {
      const joined = intervalJoin(left, right, s, { uid: `join-${i}`, name: s.joinType });
      joined.sinkTo(collectSink(`out-${i}`));
      // downstream, no output row is late on either time attribute: the join holds its watermark back
      joined
        .process((row: Row, ctx, out: Collector<string>) => {
          const watermark = ctx.timerService().currentWatermark();
          for (const t of [row.fields[1], row.fields[4]]) if (t !== null && (t as number) <= watermark) out.collect(`${Row.toString(row)} at watermark ${watermark}`);
        })
        .sinkTo(collectSink(`late-${i}`));
    });
    const result = await env.execute("interval-join-random");
    cases.forEach((s, i) => {
      const msg = `WEIR_SEED=${seed} parallelism ${parallelism} ${backend} ${s.joinType} #${i}`;
      expect(keysOf(folded(result.getCollected<Row>(`out-${i}`))), msg).toEqual(keysOf(oracle(s, lefts, rights)));
      expect(result.getCollected<string>(`late-${i}`), `${msg}: late downstream`).toEqual([]);
    });
  }, 60_000);
});

describe("interval join: recovery", () => {
  it.each(["heap", "disk"] as const)("a failure amid held rows leaves no trace (they are rebuilt from the restored state) (exactly-once, parallelism 2, %s backend)", async (backend) => {
    const seed = testSeed();
    const random = seededRandom(seed);
    const N = 500;
    const lefts = randomRows(random, N);
    const rights = randomRows(random, N);
    const failAt = randomInt(random, N / 4, N / 2);
    const env = StreamExecutionEnvironment.create({ parallelism: 2, autoWatermarkInterval: 2 });
    env.enableCheckpointing(50, "exactly-once");
    env.setRestartStrategy(RestartStrategies.fixedDelayRestart(3, 0));
    env.setStateBackend(backend); // disk: incremental checkpoints, so the keys rewritten by each flush are deltas
    const s = spec("FULL", -15, 25, sLess);
    intervalJoin(side(env, "left", lefts, failAt), side(env, "right", rights), s, { uid: "join", name: "IntervalJoin" }).sinkTo(collectSink("out"));
    const result = await env.execute("interval-join-recovery");
    const msg = `WEIR_SEED=${seed} failAt=${failAt} ${backend}`;
    expect(result.restarts, `${msg}: the failure was injected`).toBe(1);
    expect(keysOf(folded(result.getCollected<Row>("out"))), msg).toEqual(keysOf(oracle(s, lefts, rights)));
  }, 60_000);
});
