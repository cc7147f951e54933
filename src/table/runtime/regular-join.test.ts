import { describe, expect, it } from "vitest";
import { collectSink, RestartStrategies, StreamExecutionEnvironment, WatermarkStrategy } from "../../index.ts";
import { randomInt, seededRandom, testSeed } from "../../util/seeded-random.ts";
import { throttledSequence } from "../../../test/fixtures/throttled-sequence-source.ts";
import { FailOnce } from "../../../test/support/fail-once.ts";
import { finalRows, folded, nestedLoopJoin, randomChangelog, sequencedInputs, type SideRow } from "../../../test/support/join-oracle.ts";
import { ChangelogMode } from "../plan/changelog-mode.ts";
import { Row } from "../data/row.ts";
import type { RowKind } from "../data/row-kind.ts";
import type { SqlValue } from "../types/sql-value.ts";
import type { JoinType } from "./join-spec.ts";
import { regularJoin, regularJoinChangelogMode, type RegularJoinSpec } from "./regular-join.ts";

/** `l.a < r.b` over `[l.k, l.a, r.k, r.b]`, NULL when either is NULL. */
const aLessThanB = (f: SqlValue[]): SqlValue => (f[1] === null || f[3] === null ? null : (f[1] as string) < (f[3] as string));

const spec = (joinType: JoinType, condition?: (f: SqlValue[]) => SqlValue): RegularJoinSpec => ({
  joinType, leftKeys: [0], rightKeys: [0], leftArity: 2, rightArity: 2, condition,
});

/** Both columns as keys, NULL matching NULL: `INTERSECT`/`EXCEPT` as SEMI/ANTI joins. */
const nullSafeSpec = (joinType: JoinType): RegularJoinSpec => ({
  joinType, leftKeys: [0, 1], rightKeys: [0, 1], nullSafeKeys: [true, true], leftArity: 2, rightArity: 2,
});

async function golden(joinType: JoinType, rows: SideRow[], condition?: (f: SqlValue[]) => SqlValue): Promise<string[]> {
  const env = StreamExecutionEnvironment.create({ parallelism: 1, autoWatermarkInterval: 0 });
  const { left, right } = sequencedInputs(env, rows);
  regularJoin(left, right, spec(joinType, condition), { uid: "join", name: "Join" }).sinkTo(collectSink("out"));
  const result = await env.execute("regular-join-golden");
  return result.getCollected<Row>("out").map((r) => Row.toString(r));
}

const L = (k: SqlValue, a: SqlValue, kind: RowKind = "+I"): SideRow => ({ side: "L", kind, fields: [k, a] });
const R = (k: SqlValue, b: SqlValue, kind: RowKind = "+I"): SideRow => ({ side: "R", kind, fields: [k, b] });

describe("regular join: golden changelogs (parallelism 1)", () => {
  it("LEFT: the padded row is retracted when the first match arrives and comes back when the last goes", async () => {
    expect(await golden("LEFT", [L(1, "a"), R(1, "x"), R(1, "y"), R(1, "x", "-D"), R(1, "y", "-U"), R(2, "z", "+U")])).toEqual([
      "+I[1, a, null, null]",
      "-D[1, a, null, null]",
      "+I[1, a, 1, x]",
      "+I[1, a, 1, y]",
      "-D[1, a, 1, x]",
      "-D[1, a, 1, y]",
      "+I[1, a, null, null]",
    ]);
  });

  it("INNER over retracting inputs, duplicates counted", async () => {
    expect(await golden("INNER", [L(1, "a"), L(1, "a"), R(1, "x"), L(1, "a", "-U"), L(1, "b", "+U"), R(1, "x", "-D"), L(1, "a", "-D")])).toEqual([
      "+I[1, a, 1, x]",
      "+I[1, a, 1, x]",
      "-D[1, a, 1, x]",
      "+I[1, b, 1, x]",
      "-D[1, a, 1, x]",
      "-D[1, b, 1, x]",
    ]);
  });

  it("FULL with NULL keys: they never match, each side pads them at once", async () => {
    expect(await golden("FULL", [L(null, "a"), R(null, "x"), R(1, "y"), L(1, "b"), L(null, "a", "-D"), L(1, "b", "-D")])).toEqual([
      "+I[null, a, null, null]",
      "+I[null, null, null, x]",
      "+I[null, null, 1, y]",
      "-D[null, null, 1, y]",
      "+I[1, b, 1, y]",
      "-D[null, a, null, null]",
      "-D[1, b, 1, y]",
      "+I[null, null, 1, y]",
    ]);
  });

  it("RIGHT with a residual condition (l.a < r.b, NULL does not match)", async () => {
    expect(await golden("RIGHT", [R(1, "m"), L(1, "z"), L(1, null), L(1, "a"), R(1, "m", "-D")], aLessThanB)).toEqual([
      "+I[null, null, 1, m]",
      "-D[null, null, 1, m]",
      "+I[1, a, 1, m]",
      "-D[1, a, 1, m]",
    ]);
  });

  it("SEMI and ANTI emit the left row when it gains its first match or loses its last", async () => {
    const rows = [L(1, "a"), L(null, "n"), R(1, "x"), R(1, "y"), R(1, "x", "-D"), R(1, "y", "-D"), L(1, "a", "-D")];
    expect(await golden("SEMI", rows)).toEqual(["+I[1, a]", "-D[1, a]"]);
    expect(await golden("ANTI", rows)).toEqual(["+I[1, a]", "+I[null, n]", "-D[1, a]", "+I[1, a]", "-D[1, a]"]);
  });
});

describe("regular join: state TTL", () => {
  it("forgets a key's rows after the TTL of processing time without a row of the key", async () => {
    const env = StreamExecutionEnvironment.create({ parallelism: 1, autoWatermarkInterval: 0 });
    // one row every 400 ms, a TTL of 100 ms: each row is forgotten before the next arrives
    const { left, right } = sequencedInputs(env, [L(1, "a"), R(1, "x"), L(1, "a", "-D")], 400);
    regularJoin(left, right, { ...spec("INNER"), stateTtlMs: 100 }, { uid: "ttl", name: "Join" }).sinkTo(collectSink("ttl"));
    regularJoin(left, right, spec("INNER"), { uid: "no-ttl", name: "Join" }).sinkTo(collectSink("no-ttl"));
    const result = await env.execute("regular-join-ttl");
    expect(result.getCollected<Row>("no-ttl").map((r) => Row.toString(r))).toEqual(["+I[1, a, 1, x]", "-D[1, a, 1, x]"]);
    expect(result.getCollected<Row>("ttl").map((r) => Row.toString(r))).toEqual([]);
  });
});

describe("regular join: changelog mode", () => {
  it("is insert-only for INNER and SEMI over insert-only inputs, +I/-D otherwise", () => {
    const I = ChangelogMode.INSERT_ONLY;
    expect(regularJoinChangelogMode("INNER", I, I)).toEqual(I);
    expect(regularJoinChangelogMode("SEMI", I, I)).toEqual(I);
    expect(regularJoinChangelogMode("INNER", I, ChangelogMode.RETRACT).kinds).toEqual(["+I", "-D"]);
    expect(regularJoinChangelogMode("LEFT", I, I).kinds).toEqual(["+I", "-D"]);
    expect(regularJoinChangelogMode("ANTI", I, I).kinds).toEqual(["+I", "-D"]);
  });
});

const TYPES: JoinType[] = ["INNER", "LEFT", "RIGHT", "FULL", "SEMI", "ANTI"];

/** A row `[k, s]`: k in 0..9 or NULL, s a short string or NULL. */
const randomRow = (random: () => number) => (): SqlValue[] => [
  random() < 0.1 ? null : randomInt(random, 0, 9),
  random() < 0.1 ? null : "abcdef"[randomInt(random, 0, 5)]!,
];

describe("regular join: random changelogs against a nested loop (parallelism 2)", () => {
  const variants: [string, (t: JoinType) => RegularJoinSpec][] = [
    ["", (t) => spec(t)],
    [", with a residual condition", (t) => spec(t, aLessThanB)],
    [", on null-safe keys", nullSafeSpec],
  ];
  for (const [what, specOf] of variants) {
    it(`every join type${what}`, async () => {
      const seed = testSeed();
      const random = seededRandom(seed);
      const lefts = randomChangelog(random, 150, randomRow(random));
      const rights = randomChangelog(random, 150, randomRow(random));
      const env = StreamExecutionEnvironment.create({ parallelism: 2, autoWatermarkInterval: 0 });
      const left = env.fromCollection(lefts);
      const right = env.fromCollection(rights);
      for (const t of TYPES) regularJoin(left, right, specOf(t), { uid: `join-${t}`, name: t }).sinkTo(collectSink(t));
      const result = await env.execute("regular-join-random");
      for (const t of TYPES) {
        const expected = nestedLoopJoin(specOf(t), finalRows(lefts), finalRows(rights));
        expect(folded(result.getCollected<Row>(t)), `WEIR_SEED=${seed} ${t}`).toEqual(expected);
      }
    }, 60_000);
  }
});

describe("regular join: the folded output equals the batch join after every input row (parallelism 1)", () => {
  it("LEFT, RIGHT, FULL and ANTI, with NULL-key marker rows showing where each input row's output ends", async () => {
    const seed = testSeed();
    const random = seededRandom(seed);
    const newRow = randomRow(random);
    const lefts = randomChangelog(random, 40, () => [newRow()[0]!, "abcdef"[randomInt(random, 0, 5)]!]);
    const rights = randomChangelog(random, 40, () => [newRow()[0]!, "abcdef"[randomInt(random, 0, 5)]!]);
    // both changelogs interleaved at random; after each row a marker on both sides: [NULL, "#i"] never matches,
    // so the preserved side emits it padded right away, after everything the row before it caused
    const sequence: SideRow[] = [];
    const inputs: { side: "L" | "R"; row: Row }[] = [];
    for (let l = 0, r = 0; l < lefts.length || r < rights.length; ) {
      const fromLeft = r >= rights.length || (l < lefts.length && random() < 0.5);
      const row = fromLeft ? lefts[l++]! : rights[r++]!;
      inputs.push({ side: fromLeft ? "L" : "R", row });
      sequence.push({ side: fromLeft ? "L" : "R", kind: row.kind, fields: row.fields });
      const marker = [null, `#${inputs.length}`];
      sequence.push({ side: "L", fields: marker }, { side: "R", fields: marker });
    }
    const env = StreamExecutionEnvironment.create({ parallelism: 1, autoWatermarkInterval: 0 });
    const { left, right } = sequencedInputs(env, sequence, 8);
    const types: JoinType[] = ["LEFT", "RIGHT", "FULL", "ANTI"];
    for (const t of types) regularJoin(left, right, spec(t, aLessThanB), { uid: `join-${t}`, name: t }).sinkTo(collectSink(t));
    const result = await env.execute("regular-join-every-point");
    for (const t of types) {
      const markerField = t === "RIGHT" ? 3 : 1;
      const out = result.getCollected<Row>(t);
      let from = 0;
      for (let i = 1; i <= inputs.length; i++) {
        const end = out.findIndex((r, j) => j >= from && r.fields[markerField] === `#${i}`);
        expect(end, `WEIR_SEED=${seed} ${t}: marker #${i}`).toBeGreaterThanOrEqual(0);
        from = end + 1;
        const seen = (side: "L" | "R") => {
          const changes: Row[] = [];
          inputs.slice(0, i).forEach((x, j) => {
            if (x.side === side) changes.push(x.row);
            changes.push({ kind: "+I", fields: [null, `#${j + 1}`] });
          });
          return finalRows(changes);
        };
        const expected = nestedLoopJoin(spec(t, aLessThanB), seen("L"), seen("R"));
        // the markers of the other side (FULL) may come after this one
        const got = folded(out.slice(0, from)).filter((r) => !(t === "FULL" && r.fields[3] === `#${i}` && r.fields[1] !== `#${i}`));
        expect(got, `WEIR_SEED=${seed} ${t} after input #${i} ${Row.toString(inputs[i - 1]!.row)}`).toEqual(
          expected.filter((r) => !(t === "FULL" && r.fields[3] === `#${i}`)),
        );
      }
    }
  }, 60_000);
});

describe("regular join: recovery", () => {
  it("a failure amid joined state leaves no trace (exactly-once, parallelism 2)", async () => {
    const seed = testSeed();
    const random = seededRandom(seed);
    const N = 400;
    const lefts = randomChangelog(random, N, randomRow(random)).slice(0, N);
    const rights = randomChangelog(random, N, randomRow(random)).slice(0, N);
    const failAt = randomInt(random, N / 4, N / 2);
    const env = StreamExecutionEnvironment.create({ parallelism: 2, autoWatermarkInterval: 0 });
    env.enableCheckpointing(50, "exactly-once");
    env.setRestartStrategy(RestartStrategies.fixedDelayRestart(3, 0));
    const side = (name: string, rows: Row[], fail: boolean) => {
      const numbers = env.fromSource(throttledSequence(0, rows.length - 1, 10, 2), WatermarkStrategy.noWatermarks(), name).uid(name).setParallelism(1);
      return (fail ? numbers.map(new FailOnce(rows, failAt)) : numbers.map((i: number) => rows[i]!)).uid(`${name}-rows`).setParallelism(1);
    };
    regularJoin(side("left", lefts, true), side("right", rights, false), spec("FULL", aLessThanB), { uid: "join", name: "Join" }).sinkTo(
      collectSink("out"),
    );
    const result = await env.execute("regular-join-recovery");
    const msg = `WEIR_SEED=${seed} failAt=${failAt}`;
    expect(result.restarts, `${msg}: the failure was injected`).toBe(1);
    expect(folded(result.getCollected<Row>("out")), msg).toEqual(nestedLoopJoin(spec("FULL", aLessThanB), finalRows(lefts), finalRows(rights)));
  }, 60_000);
});
