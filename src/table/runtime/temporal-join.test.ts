import { describe, expect, it } from "vitest";
import { collectSink, RestartStrategies, StreamExecutionEnvironment } from "../../index.ts";
import { randomInt, seededRandom, testSeed } from "../../util/seeded-random.ts";
import { folded, sequencedInputs, throttledSide, type SideRow } from "../../../test/support/join-oracle.ts";
import { sortRows } from "../data/changelog.ts";
import { Row } from "../data/row.ts";
import type { RowKind } from "../data/row-kind.ts";
import type { SqlValue } from "../types/sql-value.ts";
import type { JoinType } from "./join-spec.ts";
import { temporalJoin, type TemporalJoinSpec } from "./temporal-join.ts";

/** Orders `[id, currency, time]` joined with the rates `[currency, rate, time]` valid at the order's time. */
const spec = (joinType: JoinType, condition?: (f: SqlValue[]) => SqlValue): TemporalJoinSpec => ({
  joinType, leftKeys: [1], rightKeys: [0], leftArity: 3, rightArity: 3, leftTimeField: 2, rightTimeField: 2, condition,
});

const order = (id: SqlValue, currency: SqlValue, time: number): SideRow => ({ side: "L", fields: [id, currency, time] });
const rate = (kind: RowKind, currency: string, r: string, time: number): SideRow => ({ side: "R", kind, fields: [currency, r, time] });

describe("temporal join: golden changelog (parallelism 1)", () => {
  it("LEFT: each order is emitted when the watermark passes its time, with the rate valid then", async () => {
    const env = StreamExecutionEnvironment.create({ parallelism: 1, autoWatermarkInterval: 0 });
    const rows: SideRow[] = [
      rate("+I", "EUR", "1.0", 0),
      order("o1", "EUR", 5),
      rate("-U", "EUR", "1.0", 0),
      rate("+U", "EUR", "1.1", 10),
      order("o2", "EUR", 12),
      order("o3", "USD", 12),
      order("o0", "EUR", -1),
      { side: "W", watermark: 12 },
      rate("-D", "EUR", "1.1", 20),
      order("o4", "EUR", 15),
      order("o5", "EUR", 25),
      order("o6", null, 25),
    ];
    const { left, right } = sequencedInputs(env, rows);
    temporalJoin(left, right, spec("LEFT"), { uid: "join", name: "TemporalJoin" }).sinkTo(collectSink("out"));
    const result = await env.execute("temporal-join-golden");
    expect(result.getCollected<Row>("out").map((r) => Row.toString(r))).toEqual([
      // W(12): the orders up to 12, in time order per currency
      "+I[o0, EUR, -1, null, null, null]",
      "+I[o1, EUR, 5, EUR, 1.0, 0]",
      "+I[o2, EUR, 12, EUR, 1.1, 10]",
      "+I[o3, USD, 12, null, null, null]",
      // the end of the input
      "+I[o4, EUR, 15, EUR, 1.1, 10]",
      "+I[o5, EUR, 25, null, null, null]",
      "+I[o6, null, 25, null, null, null]",
    ]);
  });
});

const BOUND = 30;

/** A versioned table's changelog `[k, v, t]`: inserts, updates (-U old, +U new) and deletes of keys 0..4 at times at most BOUND out of order. */
function versionedChangelog(random: () => number, n: number): Row[] {
  const current = new Map<number, SqlValue[]>();
  const out: Row[] = [];
  for (let i = 0; i < n; i++) {
    const k = randomInt(random, 0, 4);
    const t = i * 3 + randomInt(random, 0, BOUND);
    const v = random() < 0.1 ? null : randomInt(random, 0, 9);
    const old = current.get(k);
    if (old === undefined) {
      current.set(k, [k, v, t]);
      out.push(Row.of(k, v, t));
    } else if (random() < 0.2) {
      current.delete(k);
      out.push(Row.ofKind("-D", k, old[1]!, t));
    } else {
      current.set(k, [k, v, t]);
      out.push(Row.ofKind("-U", ...old), Row.ofKind("+U", k, v, t));
    }
  }
  return out;
}

/** Orders `[id, k, t]`, k in 0..5 (5 has no versions) or NULL. */
function probeRows(random: () => number, n: number): Row[] {
  return Array.from({ length: n }, (_, i) => Row.of(i, random() < 0.1 ? null : randomInt(random, 0, 5), i * 3 + randomInt(random, 0, BOUND)));
}

/** `r.v >= l.id % 5`, NULL when v is NULL. */
const vAtLeast = (f: SqlValue[]): SqlValue => (f[4] === null ? null : (f[4] as number) >= (f[0] as number) % 5);

/** The batch temporal join: per left row, the latest right row of its key at or below its time (by time, then changelog order), ignoring -U. */
function oracle(s: TemporalJoinSpec, lefts: Row[], rights: Row[]): Row[] {
  const versions = rights.map((r, n) => ({ r, n })).filter(({ r }) => r.kind !== "-U");
  const out: Row[] = [];
  for (const l of lefts) {
    const [, k, t] = l.fields as [number, number | null, number];
    let valid: { r: Row; n: number } | undefined;
    for (const v of versions) {
      if (k === null || v.r.fields[0] !== k || (v.r.fields[2] as number) > t) continue;
      if (valid === undefined || (v.r.fields[2] as number) > (valid.r.fields[2] as number) || ((v.r.fields[2] as number) === (valid.r.fields[2] as number) && v.n > valid.n)) valid = v;
    }
    const joined = valid !== undefined && valid.r.kind !== "-D" && (s.condition === undefined || s.condition([...l.fields, ...valid.r.fields]) === true);
    if (joined) out.push(Row.of(...l.fields, ...valid!.r.fields));
    else if (s.joinType === "LEFT") out.push(Row.of(...l.fields, null, null, null));
  }
  return sortRows(out);
}

describe("temporal join: random versioned tables against the batch definition (parallelism 2)", () => {
  it("INNER and LEFT, with and without a residual condition", async () => {
    const seed = testSeed();
    const random = seededRandom(seed);
    const rights = versionedChangelog(random, 300);
    const lefts = probeRows(random, 300);
    const env = StreamExecutionEnvironment.create({ parallelism: 2, autoWatermarkInterval: 1 });
    const left = throttledSide(env, "left", lefts, 2, BOUND);
    const right = throttledSide(env, "right", rights, 2, BOUND);
    const cases = [spec("INNER"), spec("LEFT"), spec("INNER", vAtLeast), spec("LEFT", vAtLeast)];
    cases.forEach((s, i) => temporalJoin(left, right, s, { uid: `join-${i}`, name: s.joinType }).sinkTo(collectSink(`out-${i}`)));
    const result = await env.execute("temporal-join-random");
    cases.forEach((s, i) => {
      const out = result.getCollected<Row>(`out-${i}`);
      expect(out.every((r) => r.kind === "+I"), `WEIR_SEED=${seed} #${i}: insert-only`).toBe(true);
      expect(folded(out), `WEIR_SEED=${seed} ${s.joinType} #${i}`).toEqual(oracle(s, lefts, rights));
    });
  }, 60_000);

  it("a failure amid buffered orders and versions leaves no trace (exactly-once, parallelism 2)", async () => {
    const seed = testSeed();
    const random = seededRandom(seed);
    const rights = versionedChangelog(random, 400);
    const lefts = probeRows(random, 400);
    const failAt = randomInt(random, 100, 200);
    const env = StreamExecutionEnvironment.create({ parallelism: 2, autoWatermarkInterval: 2 });
    env.enableCheckpointing(50, "exactly-once");
    env.setRestartStrategy(RestartStrategies.fixedDelayRestart(3, 0));
    const s = spec("LEFT", vAtLeast);
    temporalJoin(throttledSide(env, "left", lefts, 2, BOUND), throttledSide(env, "right", rights, 2, BOUND, failAt), s, { uid: "join", name: "TemporalJoin" }).sinkTo(
      collectSink("out"),
    );
    const result = await env.execute("temporal-join-recovery");
    const msg = `WEIR_SEED=${seed} failAt=${failAt}`;
    expect(result.restarts, `${msg}: the failure was injected`).toBe(1);
    expect(folded(result.getCollected<Row>("out")), msg).toEqual(oracle(s, lefts, rights));
  }, 60_000);
});
