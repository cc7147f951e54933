import { describe, expect, it } from "vitest";
import { StreamExecutionEnvironment } from "../../index.ts";
import { collectSink } from "../../connectors/builtin/collect-sink.ts";
import { randomInt, seededRandom, testSeed } from "../../util/seeded-random.ts";
import { aggCall, INT, STRING } from "../../../test/support/agg-calls.ts";
import { recoveryInput } from "../../../test/support/fail-once-input.ts";
import { rowWatermarks } from "../../../test/support/row-watermarks.ts";
import { formatChangelog, MultisetTable } from "../data/changelog.ts";
import { Row } from "../data/row.ts";
import type { SqlValue } from "../types/sql-value.ts";
import { overAggregate, type OverAggregateSpec, type OverFrame } from "./over-aggregate.ts";

async function run(rows: Row[], spec: OverAggregateSpec, bound: number, parallelism = 1): Promise<Row[]> {
  const env = StreamExecutionEnvironment.create({ parallelism, autoWatermarkInterval: 0 });
  const input = env.fromCollection(rows).assignTimestampsAndWatermarks(rowWatermarks(spec.timeField, bound)).setParallelism(1);
  overAggregate(input, spec, { uid: "over", name: "OverAggregate" }).sinkTo(collectSink("out"));
  return (await env.execute("over-aggregate")).getCollected<Row>("out");
}

// [key, v, time]: out of order within the bound of 10; the row at time 3 is late (the watermark is 9 when it arrives)
const small = [Row.of("a", 1, 10), Row.of("a", 2, 14), Row.of("a", 3, 12), Row.of("a", 4, 14), Row.of("a", 5, 20), Row.of("a", 6, 3), Row.of("a", 7, 25)];
const sumMax = [aggCall("SUM", [[1, INT]]), aggCall("MAX", [[1, INT]])];

describe("overAggregate: exact output (parallelism 1)", () => {
  const cases: [OverFrame, string[]][] = [
    [{ unit: "ROWS", preceding: "unbounded" }, ["+I[a, 1, 10, 1, 1]", "+I[a, 3, 12, 4, 3]", "+I[a, 2, 14, 6, 3]", "+I[a, 4, 14, 10, 4]", "+I[a, 5, 20, 15, 5]", "+I[a, 7, 25, 22, 7]"]],
    [{ unit: "RANGE", preceding: "unbounded" }, ["+I[a, 1, 10, 1, 1]", "+I[a, 3, 12, 4, 3]", "+I[a, 2, 14, 10, 4]", "+I[a, 4, 14, 10, 4]", "+I[a, 5, 20, 15, 5]", "+I[a, 7, 25, 22, 7]"]],
    [{ unit: "ROWS", preceding: 1 }, ["+I[a, 1, 10, 1, 1]", "+I[a, 3, 12, 4, 3]", "+I[a, 2, 14, 5, 3]", "+I[a, 4, 14, 6, 4]", "+I[a, 5, 20, 9, 5]", "+I[a, 7, 25, 12, 7]"]],
    [{ unit: "RANGE", preceding: 4 }, ["+I[a, 1, 10, 1, 1]", "+I[a, 3, 12, 4, 3]", "+I[a, 2, 14, 10, 4]", "+I[a, 4, 14, 10, 4]", "+I[a, 5, 20, 5, 5]", "+I[a, 7, 25, 7, 7]"]],
  ];
  for (const [frame, expected] of cases) {
    it(`${frame.unit} ${frame.preceding} PRECEDING (the late row dropped)`, async () => {
      const out = await run(small, { partitionKeys: [0], timeField: 2, frame, calls: sumMax }, 10);
      expect(formatChangelog(out).split("\n")).toEqual(expected);
    });
  }
});

/** Rows [k, v INT, time, s STRING]: time advancing with disorder up to 150 ms, some late for the bound 100. */
function randomRows(random: () => number, n: number): Row[] {
  let t = 10_000;
  return Array.from({ length: n }, () => {
    t += randomInt(random, 0, 20);
    return Row.of(`k${randomInt(random, 0, 3)}`, randomInt(random, -50, 50), t - randomInt(random, 0, 150), `s${randomInt(random, 0, 4)}`);
  });
}

const calls = [aggCall("COUNT", []), aggCall("SUM", [[1, INT]]), aggCall("MIN", [[1, INT]]), aggCall("MAX", [[1, INT]]), aggCall("COUNT", [[3, STRING]], { distinct: true })];

/** Each accepted row (time above the watermark at its arrival) with the calls over its frame among the accepted rows. */
function oracle(rows: readonly Row[], frame: OverFrame, bound: number): Row[] {
  let max = Number.NEGATIVE_INFINITY;
  const accepted: SqlValue[][] = [];
  for (const r of rows) {
    const t = r.fields[2] as number;
    max = Math.max(max, t);
    if (t > max - bound - 1) accepted.push(r.fields);
  }
  const out: Row[] = [];
  for (const k of new Set(accepted.map((f) => f[0]))) {
    const part = accepted.filter((f) => f[0] === k).sort((a, b) => (a[2] as number) - (b[2] as number)); // stable: ties in arrival order
    part.forEach((f, i) => {
      const t = f[2] as number;
      let inFrame: SqlValue[][];
      if (frame.unit === "ROWS") inFrame = part.slice(frame.preceding === "unbounded" ? 0 : Math.max(0, i - frame.preceding), i + 1);
      else inFrame = part.filter((g) => (g[2] as number) <= t && (frame.preceding === "unbounded" || (g[2] as number) >= t - frame.preceding));
      const vs = inFrame.map((g) => g[1] as number);
      out.push(Row.of(...f, inFrame.length, vs.reduce((a, b) => a + b, 0), Math.min(...vs), Math.max(...vs), new Set(inFrame.map((g) => g[3])).size));
    });
  }
  return new MultisetTable().applyAll(out).sortedRows();
}

const frames: OverFrame[] = [
  { unit: "ROWS", preceding: "unbounded" },
  { unit: "ROWS", preceding: 5 },
  { unit: "RANGE", preceding: "unbounded" },
  { unit: "RANGE", preceding: 60 },
];

describe("overAggregate equals a plain oracle over random rows with late ones (parallelism 2)", () => {
  for (const frame of frames) {
    it(`${frame.unit} ${frame.preceding} PRECEDING`, async () => {
      const seed = testSeed();
      const rows = randomRows(seededRandom(seed), 1500);
      const out = await run(rows, { partitionKeys: [0], timeField: 2, frame, calls }, 100, 2);
      expect(new MultisetTable().applyAll(out).sortedRows(), `WEIR_SEED=${seed}`).toEqual(oracle(rows, frame, 100));
      // per partition, rows come out in time order
      for (const k of ["k0", "k1", "k2", "k3"]) {
        const times = out.filter((r) => r.fields[0] === k).map((r) => r.fields[2] as number);
        expect(times, `WEIR_SEED=${seed}`).toEqual([...times].sort((a, b) => a - b));
      }
    });
  }
});

describe("overAggregate: a failure with exactly-once checkpoints leaves the result identical (parallelism 2)", () => {
  for (const frame of [frames[1]!, frames[3]!]) {
    it(`${frame.unit} ${frame.preceding} PRECEDING`, async () => {
      const seed = testSeed();
      const random = seededRandom(seed);
      const rows = randomRows(random, 1500);
      const failAt = randomInt(random, 300, 700);
      const { env, input: failing } = recoveryInput(rows, failAt);
      const input = failing
        .assignTimestampsAndWatermarks(rowWatermarks(2, 100))
        .setParallelism(1);
      overAggregate(input, { partitionKeys: [0], timeField: 2, frame, calls }, { uid: "over", name: "OverAggregate" }).sinkTo(collectSink("out"));
      const result = await env.execute("over-aggregate-recovery");
      const msg = `WEIR_SEED=${seed} failAt=${failAt}`;
      expect(result.restarts, msg).toBe(1);
      expect(new MultisetTable().applyAll(result.getCollected<Row>("out")).sortedRows(), msg).toEqual(oracle(rows, frame, 100));
    }, 60_000);
  }
});
