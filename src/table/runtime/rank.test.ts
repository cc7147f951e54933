import { describe, expect, it } from "vitest";
import { StreamExecutionEnvironment } from "../../api/environment.ts";
import { collectSink } from "../../connectors/builtin/collect-sink.ts";
import { seededRandom, testSeed } from "../../util/seeded-random.ts";
import { formatChangelog, MultisetTable, sortRows, UpsertTable } from "../data/changelog.ts";
import { Row } from "../data/row.ts";
import { presentRows, randomChangelog, topNOracle } from "../../../test/support/table-operator-oracles.ts";
import { rank, type RankSpec } from "./rank.ts";

async function runRank(input: readonly Row[], spec: RankSpec, parallelism = 1): Promise<Row[]> {
  const env = StreamExecutionEnvironment.create({ parallelism, autoWatermarkInterval: 0 });
  rank(env.fromCollection(input), spec, { uid: "rank", name: "Rank" }).sinkTo(collectSink("out"));
  return (await env.execute("rank")).getCollected<Row>("out");
}

const top2BySales: RankSpec = {
  partitionKeys: [0],
  orderBy: [{ field: 2, descending: true, nullsFirst: false }],
  rankType: "ROW_NUMBER",
  rankStart: 1,
  rankEnd: 2,
  outputRankNumber: true,
  generateUpdateBefore: true,
};

/** [category, product, sales] as they arrive and get retracted. */
const products: Row[] = [
  Row.of("fruit", "apple", 10),
  Row.of("fruit", "pear", 20),
  Row.of("veg", "leek", 5),
  Row.of("fruit", "kiwi", 15),
  Row.ofKind("-D", "fruit", "pear", 20),
  Row.ofKind("-U", "fruit", "apple", 10),
  Row.ofKind("+U", "fruit", "apple", 30),
];

describe("Top-N golden changelogs (top 2 products per category by sales)", () => {
  it("with the row number: each rank position is updated", async () => {
    expect(formatChangelog(await runRank(products, top2BySales))).toBe(
      [
        "+I[fruit, apple, 10, 1]",
        "-U[fruit, apple, 10, 1]",
        "+U[fruit, pear, 20, 1]",
        "+I[fruit, apple, 10, 2]",
        "+I[veg, leek, 5, 1]",
        "-U[fruit, apple, 10, 2]",
        "+U[fruit, kiwi, 15, 2]",
        "-U[fruit, pear, 20, 1]",
        "+U[fruit, kiwi, 15, 1]",
        "-U[fruit, kiwi, 15, 2]",
        "+U[fruit, apple, 10, 2]",
        "-D[fruit, apple, 10, 2]",
        "-U[fruit, kiwi, 15, 1]",
        "+U[fruit, apple, 30, 1]",
        "+I[fruit, kiwi, 15, 2]",
      ].join("\n"),
    );
  });

  it("with the row number and no update-before: an upsert stream by (category, rank)", async () => {
    const out = await runRank(products, { ...top2BySales, generateUpdateBefore: false });
    expect(out.some((r) => r.kind === "-U")).toBe(false);
    const table = new UpsertTable([0, 3]).applyAll(out);
    expect(formatChangelog(table.sortedRows())).toBe(["+I[fruit, apple, 30, 1]", "+I[fruit, kiwi, 15, 2]", "+I[veg, leek, 5, 1]"].join("\n"));
  });

  it("without the row number: rows enter (+I) and leave (-D) the top 2", async () => {
    expect(formatChangelog(await runRank(products, { ...top2BySales, outputRankNumber: false }))).toBe(
      [
        "+I[fruit, apple, 10]",
        "+I[fruit, pear, 20]",
        "+I[veg, leek, 5]",
        "+I[fruit, kiwi, 15]",
        "-D[fruit, apple, 10]",
        "-D[fruit, pear, 20]",
        "+I[fruit, apple, 10]",
        "-D[fruit, apple, 10]",
        "+I[fruit, apple, 30]",
      ].join("\n"),
    );
  });

  it("RANK with ties: a row whose rank changed is updated, ties share a rank", async () => {
    const input = [Row.of("x", "a", 5), Row.of("x", "b", 5), Row.of("x", "c", 7), Row.of("x", "d", 1)];
    const spec: RankSpec = { ...top2BySales, rankType: "RANK", rankEnd: 2 };
    expect(formatChangelog(await runRank(input, spec))).toBe(
      [
        "+I[x, a, 5, 1]",
        "+I[x, b, 5, 1]",
        "+I[x, c, 7, 1]",
        "-U[x, a, 5, 1]",
        "+U[x, a, 5, 2]",
        "-U[x, b, 5, 1]",
        "+U[x, b, 5, 2]",
      ].join("\n"),
    );
  });

  it("ROW_NUMBER ties keep their arrival order when a row comes back up into the top", async () => {
    const input = [Row.of("x", "B", 5), Row.of("x", "C", 5), Row.of("x", "A", 1), Row.ofKind("-D", "x", "A", 1)];
    const spec: RankSpec = { ...top2BySales, rankEnd: 1, orderBy: [{ field: 2, descending: false, nullsFirst: true }] };
    expect(formatChangelog(await runRank(input, spec))).toBe(
      ["+I[x, B, 5, 1]", "-U[x, B, 5, 1]", "+U[x, A, 1, 1]", "-U[x, A, 1, 1]", "+U[x, B, 5, 1]"].join("\n"),
    );
  });

  it("an insert-only Top-N refuses a retraction", async () => {
    const run = runRank([Row.of("x", "a", 1), Row.ofKind("-D", "x", "a", 1)], { ...top2BySales, inputInsertOnly: true });
    await expect(run).rejects.toThrow(/operator 'rank' was planned for an insert-only input but received a -D row/);
  });
});

/** Configurations of the randomized suite over [category, id, score] rows. */
const configs: [string, RankSpec, "retract" | "insert-only"][] = [
  ["ROW_NUMBER top 3 with the number, NULL scores first", spec("ROW_NUMBER", 1, 3, true, true), "retract"],
  ["ROW_NUMBER ranks 2..4 without the number", spec("ROW_NUMBER", 2, 4, false, false), "retract"],
  ["RANK top 3 with ties", { ...spec("RANK", 1, 3, true, true), orderBy: [{ field: 2, descending: true, nullsFirst: false }] }, "retract"],
  ["DENSE_RANK ranks 2..3 with ties", { ...spec("DENSE_RANK", 2, 3, true, true), orderBy: [{ field: 2, descending: false, nullsFirst: true }] }, "retract"],
  ["ROW_NUMBER top 2 over an insert-only input, bounded state", { ...spec("ROW_NUMBER", 1, 2, true, true), inputInsertOnly: true }, "insert-only"],
  ["RANK top 3 over an insert-only input with ties at the boundary", { ...spec("RANK", 1, 3, true, false), orderBy: [{ field: 2, descending: true, nullsFirst: false }], inputInsertOnly: true }, "insert-only"],
  // ties are ambiguous in SQL; Weir orders them by arrival (an update arrives anew), as the oracle does
  ["ROW_NUMBER top 4 with ties in arrival order", { ...spec("ROW_NUMBER", 1, 4, true, false), orderBy: [{ field: 2, descending: false, nullsFirst: false }] }, "retract"],
];

function spec(rankType: RankSpec["rankType"], rankStart: number, rankEnd: number, outputRankNumber: boolean, nullsFirst: boolean): RankSpec {
  return {
    partitionKeys: [0],
    // unique keys for ROW_NUMBER: score, then the unique id
    orderBy: [
      { field: 2, descending: true, nullsFirst },
      { field: 1, descending: false, nullsFirst: false },
    ],
    rankType,
    rankStart,
    rankEnd,
    outputRankNumber,
    generateUpdateBefore: true,
  };
}

describe("Top-N equals the batch query over the input so far (randomized)", () => {
  for (const [name, s, input] of configs) {
    it(name, async () => {
      const seed = testSeed();
      const random = seededRandom(seed);
      const all = randomChangelog(random, 300).filter((r) => input === "retract" || r.kind === "+I");
      // the folded output at intermediate points: the job run over prefixes of the input
      for (const n of [37, 150, all.length]) {
        const prefix = all.slice(0, n);
        const out = await runRank(prefix, s, 2);
        const folded = new MultisetTable().applyAll(out).sortedRows();
        const expected = sortRows(topNOracle(presentRows(prefix), s).map((f) => ({ kind: "+I" as const, fields: f })));
        expect(formatChangelog(folded), `WEIR_SEED=${seed} after ${n} rows`).toBe(formatChangelog(expected));
      }
    }, 30_000);
  }
});

describe("Top-N without update-before is an upsert stream by (partition, rank) (randomized)", () => {
  it("ROW_NUMBER ranks 1..3 folded by (category, rn) equals the batch query", async () => {
    const seed = testSeed();
    const all = randomChangelog(seededRandom(seed), 300);
    const s: RankSpec = { ...spec("ROW_NUMBER", 1, 3, true, true), generateUpdateBefore: false };
    for (const n of [90, all.length]) {
      const prefix = all.slice(0, n);
      const out = await runRank(prefix, s, 2);
      expect(out.some((r) => r.kind === "-U"), `WEIR_SEED=${seed}`).toBe(false);
      const folded = new UpsertTable([0, 3]).applyAll(out).sortedRows();
      const expected = sortRows(topNOracle(presentRows(prefix), s).map((f) => ({ kind: "+I" as const, fields: f })));
      expect(formatChangelog(folded), `WEIR_SEED=${seed} after ${n} rows`).toBe(formatChangelog(expected));
    }
  }, 30_000);
});
