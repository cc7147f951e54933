import { describe, expect, it } from "vitest";
import { StreamExecutionEnvironment, WatermarkStrategy } from "../../index.ts";
import { collectSink } from "../../connectors/builtin/collect-sink.ts";
import { randomInt, seededRandom, testSeed } from "../../util/seeded-random.ts";
import { aggCall, BIGINT, decimalType, INT, STRING } from "../../../test/support/agg-calls.ts";
import { recoveryInput } from "../../../test/support/fail-once-input.ts";
import { throttledSequence } from "../../../test/fixtures/throttled-sequence-source.ts";
import { formatChangelog, MultisetTable, UpsertTable } from "../data/changelog.ts";
import { Row } from "../data/row.ts";
import type { RowKind } from "../data/row-kind.ts";
import { parseDecimal, type Decimal } from "../types/decimal.ts";
import type { SqlValue } from "../types/sql-value.ts";
import { sqlValueKey } from "../types/sql-value-key.ts";
import { groupAggregate, type GroupAggregateSpec } from "./group-aggregate.ts";

const dec = (s: string): Decimal => parseDecimal(s)!;

async function run(rows: Row[], spec: GroupAggregateSpec, parallelism = 1): Promise<Row[]> {
  const env = StreamExecutionEnvironment.create({ parallelism, autoWatermarkInterval: 0 });
  groupAggregate(env.fromCollection(rows), spec, { uid: "agg", name: "GroupAggregate" }).sinkTo(collectSink("out"));
  return (await env.execute("group-aggregate")).getCollected<Row>("out");
}

describe("groupAggregate", () => {
  it("emits the clicks example's changelog exactly (parallelism 1)", async () => {
    const clicks = ["Mary", "Bob", "Mary", "Liz", "Bob"].map((u, i) => Row.of(u, `/p${i}`));
    const out = await run(clicks, { groupKeys: [0], calls: [aggCall("COUNT", [[1, STRING]])], generateUpdateBefore: true });
    expect(formatChangelog(out).split("\n")).toEqual(["+I[Mary, 1]", "+I[Bob, 1]", "-U[Mary, 1]", "+U[Mary, 2]", "+I[Liz, 1]", "-U[Bob, 1]", "+U[Bob, 2]"]);
  });

  it("without update-before emits only +U; nothing when the row did not change; -D when the group empties", async () => {
    const rows = [Row.of("a", 5), Row.of("a", 3), Row.of("a", 9), Row.ofKind("-D", "a", 9), Row.ofKind("-D", "a", 3), Row.ofKind("-D", "a", 5), Row.ofKind("-D", "b", 1)];
    const out = await run(rows, { groupKeys: [0], calls: [aggCall("MAX", [[1, INT]])], generateUpdateBefore: false });
    expect(formatChangelog(out).split("\n")).toEqual(["+I[a, 5]", "+U[a, 9]", "+U[a, 5]", "-D[a, 5]"]);
  });

  it("retracts MIN/MAX through their multiset and COUNT DISTINCT through its value counts", async () => {
    const spec: GroupAggregateSpec = {
      groupKeys: [0],
      calls: [aggCall("MIN", [[1, INT]]), aggCall("MAX", [[1, INT]]), aggCall("COUNT", [[2, STRING]], { distinct: true }), aggCall("SUM", [[1, INT]])],
      generateUpdateBefore: true,
    };
    const rows = [
      Row.of("k", 1, "x"),
      Row.of("k", 7, "y"),
      Row.of("k", 1, "x"),
      Row.ofKind("-U", "k", 1, "x"),
      Row.ofKind("+U", "k", 4, "x"),
      Row.ofKind("-D", "k", 1, "x"), // the last 1 goes: MIN is 4
      Row.ofKind("-D", "k", 7, "y"), // MAX 4, one distinct value left
    ];
    const out = await run(rows, spec);
    expect(formatChangelog(out).split("\n")).toEqual([
      "+I[k, 1, 1, 1, 1]",
      "-U[k, 1, 1, 1, 1]",
      "+U[k, 1, 7, 2, 8]",
      "-U[k, 1, 7, 2, 8]",
      "+U[k, 1, 7, 2, 9]",
      "-U[k, 1, 7, 2, 9]",
      "+U[k, 1, 7, 2, 8]",
      "-U[k, 1, 7, 2, 8]",
      "+U[k, 1, 7, 2, 12]",
      "-U[k, 1, 7, 2, 12]",
      "+U[k, 4, 7, 2, 11]",
      "-U[k, 4, 7, 2, 11]",
      "+U[k, 4, 4, 1, 4]",
    ]);
  });

  it("keeps DECIMAL and BIGINT sums exact, wraps INT as Java, truncates integer AVG, a global group keyed to one row", async () => {
    const big = 2n ** 62n;
    const rows = [Row.of(dec("0.10"), big, 2147483647, 7), Row.of(dec("0.20"), big, 1, 8), Row.of(dec("12345678901234567890.05"), 3, null, null)];
    const spec: GroupAggregateSpec = {
      groupKeys: [],
      calls: [
        aggCall("SUM", [[0, decimalType(30, 2)]]),
        aggCall("SUM", [[1, BIGINT]]),
        aggCall("SUM", [[2, INT]]),
        aggCall("AVG", [[3, INT]]),
        aggCall("AVG", [[0, decimalType(30, 2)]]),
        aggCall("SUM0", [[3, INT]], { filterArg: 4 }),
      ],
      generateUpdateBefore: true,
    };
    const withFilter = rows.map((r, i) => Row.of(...r.fields, i !== 1));
    const out = await run(withFilter, spec);
    const table = new MultisetTable().applyAll(out);
    expect(formatChangelog(table.rows())).toBe(
      `+I[12345678901234567890.35, ${(2n * big + 3n) - 2n ** 64n}, -2147483648, 7, 4115226300411522630.116667, 7]`,
    );
    expect(formatChangelog(out.slice(0, 1))).toBe(`+I[0.10, ${big}, 2147483647, 7, 0.100000, 7]`);
  });

  it("a downstream function that mutates the DECIMALs of an emitted row changes neither the group's key nor its results", async () => {
    const rows = ["1.00", "3.00", "2.00"].map((p) => Row.of(dec("9.50"), dec(p)));
    const spec: GroupAggregateSpec = { groupKeys: [0], calls: [aggCall("MAX", [[1, decimalType(10, 2)]])], generateUpdateBefore: true };
    const env = StreamExecutionEnvironment.create({ parallelism: 1, autoWatermarkInterval: 0 });
    groupAggregate(env.fromCollection(rows), spec, { uid: "agg", name: "GroupAggregate" })
      .map((r: Row) => {
        const printed = formatChangelog([r]);
        for (const d of r.fields) (d as { unscaled: bigint }).unscaled = -1n;
        return printed;
      })
      .sinkTo(collectSink("out"));
    const out = (await env.execute("group-aggregate-mutation")).getCollected<string>("out");
    expect(out).toEqual(["+I[9.50, 1.00]", "-U[9.50, 1.00]", "+U[9.50, 3.00]"]);
  });

  it("with a state TTL forgets an idle group: a later row starts it again from nothing", async () => {
    // Two polls of the source 400 ms apart; the TTL (100 ms) passes between them, not within one.
    const rows = [Row.of("a", "/1"), Row.of("a", "/2"), Row.of("b", "/3"), Row.of("a", "/4"), Row.ofKind("-D", "b", "/3")];
    const env = StreamExecutionEnvironment.create({ parallelism: 1, autoWatermarkInterval: 0 });
    const input = env
      .fromSource(throttledSequence(0, rows.length - 1, 3, 400), WatermarkStrategy.noWatermarks(), "numbers")
      .map((i: number) => rows[i]!);
    const spec: GroupAggregateSpec = { groupKeys: [0], calls: [aggCall("COUNT", [])], generateUpdateBefore: true, stateTtlMs: 100 };
    groupAggregate(input, spec, { uid: "agg", name: "GroupAggregate" }).sinkTo(collectSink("out"));
    const out = (await env.execute("group-aggregate-ttl")).getCollected<Row>("out");
    // a's count starts again at 1 (its old row stays downstream); b's retraction finds nothing and is ignored
    expect(formatChangelog(out).split("\n")).toEqual(["+I[a, 1]", "-U[a, 1]", "+U[a, 2]", "+I[b, 1]", "+I[a, 1]"]);
  });

  it("equals a plain oracle over a random changelog (parallelism 2)", async () => {
    const seed = testSeed();
    const random = seededRandom(seed);
    const { rows, oracle, spec } = randomChangelog(random, 600);
    const out = await run(rows, spec, 2);
    expect(fold(out, spec), `WEIR_SEED=${seed}`).toEqual(oracle);
  });

  it("a failure with exactly-once checkpoints leaves the folded result identical (parallelism 2)", async () => {
    await expectRecoveryIdentical((spec) => spec);
  }, 60_000);
});

describe("groupAggregate with mini-batch", () => {
  it("folds each key's rows of a batch into one change: the clicks example", async () => {
    const rows = [Row.of("Mary", "./home"), Row.of("Bob", "./cart"), Row.of("Mary", "./prod?id=1"), Row.of("Liz", "./home"), Row.of("Bob", "./prod?id=3")];
    const spec: GroupAggregateSpec = { groupKeys: [0], calls: [aggCall("COUNT", [[1, STRING]])], generateUpdateBefore: true, miniBatch: { size: 1000, allowLatencyMs: 3_600_000 } };
    const out = await run(rows, spec);
    // one batch (flushed at the end of input): keys in the order of their first row, each with its final count
    expect(formatChangelog(out).split("\n")).toEqual(["+I[Mary, 2]", "+I[Bob, 2]", "+I[Liz, 1]"]);
  });

  for (const size of [1, 7, 100_000]) {
    it(`equals a plain oracle over a random changelog, batches of ${size} row(s) (parallelism 2)`, async () => {
      const seed = testSeed();
      const random = seededRandom(seed);
      const { rows, oracle, spec } = randomChangelog(random, 600);
      const out = await run(rows, { ...spec, miniBatch: { size, allowLatencyMs: 3_600_000 } }, 2);
      const plain = await run(rows, spec, 2);
      expect(fold(out, spec), `WEIR_SEED=${seed}`).toEqual(oracle);
      if (size === 1) expect(out.length, `WEIR_SEED=${seed}`).toBe(plain.length);
      else expect(out.length, `WEIR_SEED=${seed}`).toBeLessThan(plain.length);
    });
  }

  it("flushes before each barrier: a failure with exactly-once checkpoints leaves the folded result identical (parallelism 2)", async () => {
    // neither size nor latency flushes during the run: only barriers (and the end of input) do
    await expectRecoveryIdentical((spec) => ({ ...spec, miniBatch: { size: 1_000_000, allowLatencyMs: 3_600_000 } }));
  }, 60_000);
});

/**
 * Runs a random changelog through `groupAggregate` (with `specOf` of its spec) at parallelism 2 with exactly-once
 * checkpoints every 50 ms and one injected failure, and expects one restart and the folded result of the oracle.
 */
async function expectRecoveryIdentical(specOf: (spec: GroupAggregateSpec) => GroupAggregateSpec): Promise<void> {
  const seed = testSeed();
  const random = seededRandom(seed);
  const { rows, oracle, spec } = randomChangelog(random, 1200);
  const failAt = randomInt(random, Math.floor(rows.length / 4), Math.floor(rows.length / 2));
  const { env, input } = recoveryInput(rows, failAt);
  groupAggregate(input, specOf(spec), { uid: "agg", name: "GroupAggregate" }).sinkTo(collectSink("out"));
  const result = await env.execute("group-aggregate-recovery");
  const msg = `WEIR_SEED=${seed} failAt=${failAt}`;
  expect(result.restarts, msg).toBe(1);
  expect(fold(result.getCollected<Row>("out"), spec), msg).toEqual(oracle);
}

/** The table a changelog describes: retract mode, or upsert mode by the group key without update-before rows. */
function fold(out: readonly Row[], spec: GroupAggregateSpec): Row[] {
  if (spec.generateUpdateBefore) return new MultisetTable().applyAll(out).sortedRows();
  expect(out.some((r) => r.kind === "-U")).toBe(false);
  return new UpsertTable([0]).applyAll(out).sortedRows();
}

/**
 * A random changelog over rows [k STRING, x INT (nullable), d DECIMAL(10,2), s STRING, f BOOLEAN]:
 * inserts, and retractions (-D, or -U followed by +U of a new row) of rows still live;
 * the oracle is the final result computed directly over the live rows.
 */
function randomChangelog(random: () => number, n: number): { rows: Row[]; oracle: Row[]; spec: GroupAggregateSpec } {
  const spec: GroupAggregateSpec = {
    groupKeys: [0],
    calls: [
      aggCall("COUNT", []),
      aggCall("COUNT", [[1, INT]]),
      aggCall("SUM", [[1, INT]]),
      aggCall("SUM", [[2, decimalType(10, 2)]]),
      aggCall("MIN", [[1, INT]]),
      aggCall("MAX", [[3, STRING]]),
      aggCall("AVG", [[1, INT]]),
      aggCall("COUNT", [[3, STRING]], { distinct: true }),
      aggCall("SUM", [[1, INT]], { distinct: true, filterArg: 4 }),
      aggCall("LISTAGG", [[3, STRING]], { separator: "|" }),
    ],
    generateUpdateBefore: random() < 0.8,
  };
  const live: SqlValue[][] = [];
  const rows: Row[] = [];
  const fresh = (): SqlValue[] => [
    `k${randomInt(random, 0, 6)}`,
    random() < 0.1 ? null : randomInt(random, -50, 50),
    { unscaled: BigInt(randomInt(random, -100000, 100000)), scale: 2 },
    `s${randomInt(random, 0, 9)}`,
    random() < 0.5,
  ];
  const emit = (kind: RowKind, fields: SqlValue[]) => rows.push({ kind, fields: [...fields] });
  while (rows.length < n) {
    if (live.length === 0 || random() < 0.6) {
      const f = fresh();
      live.push(f);
      emit("+I", f);
    } else {
      const i = randomInt(random, 0, live.length - 1);
      const old = live.splice(i, 1)[0]!;
      if (random() < 0.5) emit("-D", old);
      else {
        emit("-U", old);
        const f = [old[0]!, ...fresh().slice(1)];
        live.push(f);
        emit("+U", f);
      }
    }
  }
  // The oracle over the live rows, in the order each group received them (retractions remove the first equal row).
  // LISTAGG is order-sensitive: its values per group in arrival order, a retraction removing the first equal value.
  const byKey = new Map<string, SqlValue[][]>();
  const order: SqlValue[][] = [];
  const lists = new Map<string, string[]>();
  for (const r of rows) {
    const list = lists.get(r.fields[0] as string) ?? [];
    lists.set(r.fields[0] as string, list);
    if (r.kind === "+I" || r.kind === "+U") {
      order.push(r.fields);
      list.push(r.fields[3] as string);
    } else {
      order.splice(order.findIndex((f) => sqlValueKey(f) === sqlValueKey(r.fields)), 1);
      list.splice(list.indexOf(r.fields[3] as string), 1);
    }
  }
  for (const f of order) {
    const list = byKey.get(f[0] as string) ?? [];
    list.push(f);
    byKey.set(f[0] as string, list);
  }
  const oracle: Row[] = [];
  for (const [k, fs] of byKey) {
    const xs = fs.map((f) => f[1] as number | null).filter((x): x is number => x !== null);
    const sumDec = fs.reduce((s, f) => s + (f[2] as Decimal).unscaled, 0n);
    const ss = fs.map((f) => f[3] as string);
    const filtered = [...new Set(fs.filter((f) => f[4] === true && f[1] !== null).map((f) => f[1] as number))];
    const sum = xs.reduce((a, b) => a + b, 0);
    oracle.push(
      Row.of(
        k,
        fs.length,
        xs.length,
        xs.length === 0 ? null : sum,
        { unscaled: sumDec, scale: 2 },
        xs.length === 0 ? null : Math.min(...xs),
        [...ss].sort()[ss.length - 1]!,
        xs.length === 0 ? null : Math.trunc(sum / xs.length) + 0,
        new Set(ss).size,
        filtered.length === 0 ? null : filtered.reduce((a, b) => a + b, 0),
        lists.get(k)!.join("|"),
      ),
    );
  }
  return { rows, oracle: new MultisetTable().applyAll(oracle).sortedRows(), spec };
}
