import { describe, expect, it } from "vitest";
import { StreamExecutionEnvironment } from "../../api/environment.ts";
import { collectSink } from "../../connectors/builtin/collect-sink.ts";
import { seededRandom, testSeed } from "../../util/seeded-random.ts";
import { formatChangelog, MultisetTable, sortRows } from "../data/changelog.ts";
import { Row } from "../data/row.ts";
import { dedupOracle, randomWindowEvents } from "../../../test/support/table-operator-oracles.ts";
import { deduplicate, type DeduplicateSpec } from "./deduplicate.ts";

async function runDedup(input: readonly Row[], spec: DeduplicateSpec, parallelism = 1): Promise<Row[]> {
  const env = StreamExecutionEnvironment.create({ parallelism, autoWatermarkInterval: 0 });
  deduplicate(env.fromCollection(input), spec, { uid: "dedup", name: "Deduplicate" }).sinkTo(collectSink("out"));
  return (await env.execute("dedup")).getCollected<Row>("out");
}

/** [user, order, ts] */
const orders = [Row.of("Mary", "o1", 5), Row.of("Bob", "o2", 3), Row.of("Mary", "o3", 2), Row.of("Mary", "o4", 9), Row.of("Mary", "o5", 9)];

describe("deduplication golden changelogs", () => {
  const cases: [string, DeduplicateSpec, string[]][] = [
    ["keep-first on processing time: insert-only", { keys: [0], keepLast: false, generateUpdateBefore: true }, ["+I[Mary, o1, 5]", "+I[Bob, o2, 3]"]],
    [
      "keep-last on processing time",
      { keys: [0], keepLast: true, generateUpdateBefore: true },
      ["+I[Mary, o1, 5]", "+I[Bob, o2, 3]", "-U[Mary, o1, 5]", "+U[Mary, o3, 2]", "-U[Mary, o3, 2]", "+U[Mary, o4, 9]", "-U[Mary, o4, 9]", "+U[Mary, o5, 9]"],
    ],
    [
      "keep-last on processing time without update-before",
      { keys: [0], keepLast: true, generateUpdateBefore: false },
      ["+I[Mary, o1, 5]", "+I[Bob, o2, 3]", "+U[Mary, o3, 2]", "+U[Mary, o4, 9]", "+U[Mary, o5, 9]"],
    ],
    [
      "keep-first on event time: an earlier row replaces the kept one, a tie does not",
      { keys: [0], keepLast: false, timeField: 2, generateUpdateBefore: true },
      ["+I[Mary, o1, 5]", "+I[Bob, o2, 3]", "-U[Mary, o1, 5]", "+U[Mary, o3, 2]"],
    ],
    [
      "keep-last on event time: a later row or a tie replaces the kept one",
      { keys: [0], keepLast: true, timeField: 2, generateUpdateBefore: true },
      ["+I[Mary, o1, 5]", "+I[Bob, o2, 3]", "-U[Mary, o1, 5]", "+U[Mary, o4, 9]", "-U[Mary, o4, 9]", "+U[Mary, o5, 9]"],
    ],
  ];
  for (const [name, spec, expected] of cases) {
    it(name, async () => {
      expect(formatChangelog(await runDedup(orders, spec))).toBe(expected.join("\n"));
    });
  }
});

describe("deduplication equals the batch query (randomized)", () => {
  const specs: DeduplicateSpec[] = [
    { keys: [0], keepLast: false, generateUpdateBefore: true },
    { keys: [0], keepLast: true, generateUpdateBefore: true },
    { keys: [0, 2], keepLast: false, timeField: 3, generateUpdateBefore: true },
    { keys: [0], keepLast: true, timeField: 3, generateUpdateBefore: true },
  ];
  for (const spec of specs) {
    it(`${spec.keepLast ? "keep-last" : "keep-first"} on ${spec.timeField === undefined ? "processing" : "event"} time by ${spec.keys.join(", ")}`, async () => {
      const seed = testSeed();
      const events = randomWindowEvents(seededRandom(seed), 400, 7, 40);
      for (const n of [50, events.length]) {
        const rows = events.slice(0, n).map((e) => Row.of(...e));
        const folded = new MultisetTable().applyAll(await runDedup(rows, spec, 2)).sortedRows();
        const expected = sortRows(dedupOracle(events.slice(0, n), spec.keys, spec.keepLast, spec.timeField).map((f) => Row.of(...f)));
        expect(formatChangelog(folded), `WEIR_SEED=${seed} after ${n} rows`).toBe(formatChangelog(expected));
      }
    }, 30_000);
  }
});
