import { describe, expect, it } from "vitest";
import { StreamExecutionEnvironment, WatermarkStrategy, type DataStream, type JobClient } from "../../index.ts";
import { KeyedProcessFunction } from "../../core/process-function.ts";
import { engineKeyedState } from "../../core/runtime-context.ts";
import { throttledSequence } from "../../../test/fixtures/throttled-sequence-source.ts";
import { waitFor } from "../../../test/support/cli-process.ts";
import { tempDirs } from "../../../test/support/temp-dirs.ts";
import { collectSink } from "../../connectors/builtin/collect-sink.ts";
import { randomInt, seededRandom, testSeed } from "../../util/seeded-random.ts";
import { aggCall, decimalType, INT, STRING } from "../../../test/support/agg-calls.ts";
import { recoveryInput } from "../../../test/support/fail-once-input.ts";
import { rowWatermarks } from "../../../test/support/row-watermarks.ts";
import { MultisetTable } from "../data/changelog.ts";
import { formatValue } from "../data/format-value.ts";
import { Row } from "../data/row.ts";
import { parseDecimal, type Decimal } from "../types/decimal.ts";
import type { SqlValue } from "../types/sql-value.ts";
import { rowKeySelector } from "./row-key.ts";
import { windowAggregate, type WindowAggregateSpec } from "./window-aggregate.ts";
import type { WindowSpec } from "./window-spec.ts";

const MIN = 60_000;
const at = (hhmm: string) => Date.UTC(2020, 3, 15, Number(hhmm.slice(0, 2)), Number(hhmm.slice(3)));
const hhmm = (ms: number) => new Date(ms).toISOString().slice(11, 16);

// Flink's documentation example (window TVF pages): the Bid table.
const bids = [
  ["08:05", "4.00", "C"],
  ["08:07", "2.00", "A"],
  ["08:09", "5.00", "D"],
  ["08:11", "3.00", "B"],
  ["08:13", "1.00", "E"],
  ["08:17", "6.00", "F"],
].map(([t, price, item]) => Row.of(at(t!), parseDecimal(price!)!, item!));

/** The rows printed as `[start, end, sum]` with HH:MM times. */
function printed(rows: readonly Row[]): string[] {
  return rows.map((r) => {
    expect(r.kind).toBe("+I");
    const [sum, start, end, time] = r.fields as [Decimal, number, number, number];
    expect(time).toBe(end - 1);
    return `${hhmm(start)} ${hhmm(end)} ${formatValue(sum)}`;
  });
}

async function run(rows: Row[], spec: WindowAggregateSpec, bound: number, parallelism = 1): Promise<Row[]> {
  const env = StreamExecutionEnvironment.create({ parallelism, autoWatermarkInterval: 0 });
  const input = env.fromCollection(rows).assignTimestampsAndWatermarks(rowWatermarks(spec.window.timeField, bound)).setParallelism(1);
  windowAggregate(input, spec, { uid: "window-agg", name: "WindowAggregate" }).sinkTo(collectSink("out"));
  return (await env.execute("window-aggregate")).getCollected<Row>("out");
}

const sumPrice = aggCall("SUM", [[1, decimalType(10, 2)]]);

describe("windowAggregate: Flink's documentation examples, exact output (parallelism 1)", () => {
  it("TUMBLE", async () => {
    const out = await run(bids, { window: { kind: "tumble", timeField: 0, size: 10 * MIN, offset: 0 }, groupKeys: [], calls: [sumPrice] }, 0);
    expect(printed(out)).toEqual(["08:00 08:10 11.00", "08:10 08:20 10.00"]);
  });

  it("HOP", async () => {
    const out = await run(bids, { window: { kind: "hop", timeField: 0, size: 10 * MIN, slide: 5 * MIN, offset: 0 }, groupKeys: [], calls: [sumPrice] }, 0);
    expect(printed(out)).toEqual(["08:00 08:10 11.00", "08:05 08:15 15.00", "08:10 08:20 10.00", "08:15 08:25 6.00"]);
  });

  it("CUMULATE", async () => {
    const out = await run(bids, { window: { kind: "cumulate", timeField: 0, maxSize: 10 * MIN, step: 2 * MIN, offset: 0 }, groupKeys: [], calls: [sumPrice] }, 0);
    expect(printed(out)).toEqual([
      "08:00 08:06 4.00",
      "08:00 08:08 6.00",
      "08:00 08:10 11.00",
      "08:10 08:12 3.00",
      "08:10 08:14 4.00",
      "08:10 08:16 4.00",
      "08:10 08:18 10.00",
      "08:10 08:20 10.00",
    ]);
  });

  it("SESSION (gap 3 min): late rows dropped, a late row that bridges into an open session kept", async () => {
    // 08:20 moves the watermark to 08:19:59.999: the 08:05 session fires; 08:01, 08:11 and 08:13 are late;
    // 08:17's session [08:17, 08:20) would be late alone but touches the open [08:20, 08:23) and merges with it.
    const late = Row.of(at("08:01"), parseDecimal("100.00")!, "late");
    const rows = [...bids.slice(0, 3), Row.of(at("08:20"), parseDecimal("7.00")!, "G"), late, ...bids.slice(3)];
    const out = await run(rows, { window: { kind: "session", timeField: 0, gap: 3 * MIN, partitionKeys: [] }, groupKeys: [], calls: [sumPrice] }, 0);
    expect(printed(out)).toEqual(["08:05 08:12 11.00", "08:17 08:23 13.00"]);
  });

  it("group keys come first, then the results, then window_start, window_end, window_time", async () => {
    const spec: WindowAggregateSpec = {
      window: { kind: "tumble", timeField: 0, size: 10 * MIN, offset: 0 },
      groupKeys: [2],
      calls: [aggCall("COUNT", []), aggCall("MAX", [[1, decimalType(10, 2)]])],
    };
    const out = await run(bids.map((r) => Row.of(r.fields[0]!, r.fields[1]!, (r.fields[0] as number) < at("08:08") ? "x" : "y")), spec, 0);
    expect(out.map((r) => Row.toString(r))).toEqual([
      `+I[x, 2, 4.00, ${at("08:00")}, ${at("08:10")}, ${at("08:10") - 1}]`,
      `+I[y, 1, 5.00, ${at("08:00")}, ${at("08:10")}, ${at("08:10") - 1}]`,
      `+I[y, 3, 6.00, ${at("08:10")}, ${at("08:20")}, ${at("08:20") - 1}]`,
    ]);
  });
});

describe("windowAggregate: object semantics", () => {
  it("a downstream function that mutates the DECIMALs of an emitted row changes no later window (key and result)", async () => {
    const one = parseDecimal("1.00")!;
    const rows = bids.map((r) => Row.of(r.fields[0]!, r.fields[1]!, r.fields[2]!, { ...one }));
    const spec: WindowAggregateSpec = {
      window: { kind: "hop", timeField: 0, size: 10 * MIN, slide: 5 * MIN, offset: 0 },
      groupKeys: [3],
      calls: [aggCall("MAX", [[1, decimalType(10, 2)]])],
    };
    const env = StreamExecutionEnvironment.create({ parallelism: 1, autoWatermarkInterval: 0 });
    const input = env.fromCollection(rows).assignTimestampsAndWatermarks(rowWatermarks(0, 0)).setParallelism(1);
    windowAggregate(input, spec, { uid: "window-agg", name: "WindowAggregate" })
      .map((r: Row) => {
        const [key, max, start, end] = r.fields as [Decimal, Decimal, number, number, number];
        const printed = `${hhmm(start)} ${hhmm(end)} ${formatValue(key)} ${formatValue(max)}`;
        for (const d of [key, max]) (d as { unscaled: bigint }).unscaled = -1n;
        return printed;
      })
      .sinkTo(collectSink("out"));
    const out = (await env.execute("window-aggregate-mutation")).getCollected<string>("out");
    expect(out).toEqual(["08:00 08:10 1.00 5.00", "08:05 08:15 1.00 5.00", "08:10 08:20 1.00 6.00", "08:15 08:25 1.00 6.00"]);
  });
});

/** Random rows [ts, v INT, s STRING, k STRING] with disorder up to `disorder` ms (some later than the bound: late). */
function randomRows(random: () => number, n: number, disorder: number): Row[] {
  let t = 1_000_000;
  const rows: Row[] = [];
  for (let i = 0; i < n; i++) {
    t += randomInt(random, 0, 40);
    rows.push(Row.of(t - randomInt(random, 0, disorder), randomInt(random, -100, 100), `s${randomInt(random, 0, 5)}`, `k${randomInt(random, 0, 3)}`));
  }
  return rows;
}

const calls = [aggCall("COUNT", []), aggCall("SUM", [[1, INT]]), aggCall("MAX", [[1, INT]]), aggCall("COUNT", [[2, STRING]], { distinct: true })];

/** The expected rows: each row counts in the windows that end after the watermark at its arrival (`max ts so far - bound - 1`). */
function oracle(rows: readonly Row[], window: WindowSpec, bound: number): Row[] {
  const windows = new Map<string, { key: string; start: number; end: number; rows: SqlValue[][] }>();
  const add = (key: string, start: number, end: number, f: SqlValue[]) => {
    const id = `${key}|${start}|${end}`;
    const w = windows.get(id) ?? { key, start, end, rows: [] };
    w.rows.push(f);
    windows.set(id, w);
  };
  let max = Number.NEGATIVE_INFINITY;
  const floorTo = (t: number, s: number, o: number) => t - ((((t - o) % s) + s) % s);
  // sessions: open ones per key, fired when the watermark passes
  const open = new Map<string, { start: number; end: number; rows: SqlValue[][] }[]>();
  const fireSessions = (wm: number) => {
    for (const [key, list] of open) {
      for (const s of list) if (s.end - 1 <= wm) for (const f of s.rows) add(key, s.start, s.end, f);
      open.set(key, list.filter((s) => s.end - 1 > wm));
    }
  };
  for (const r of rows) {
    const ts = r.fields[0] as number;
    const key = r.fields[3] as string;
    max = Math.max(max, ts);
    const wm = max - bound - 1;
    switch (window.kind) {
      case "tumble":
      case "hop": {
        const size = window.size;
        const slide = window.kind === "hop" ? window.slide : size;
        for (let start = floorTo(ts, slide, window.offset); start > ts - size; start -= slide) if (start + size - 1 > wm) add(key, start, start + size, r.fields);
        break;
      }
      case "cumulate": {
        const start = floorTo(ts, window.maxSize, window.offset);
        for (let end = floorTo(ts, window.step, window.offset) + window.step; end <= start + window.maxSize; end += window.step) if (end - 1 > wm) add(key, start, end, r.fields);
        break;
      }
      case "session": {
        fireSessions(wm);
        const list = open.get(key) ?? [];
        let s = { start: ts, end: ts + window.gap, rows: [r.fields] };
        const touching = list.filter((o) => o.start <= s.end && o.end >= s.start);
        for (const o of touching) s = { start: Math.min(s.start, o.start), end: Math.max(s.end, o.end), rows: [...o.rows, ...s.rows] };
        if (s.end - 1 <= wm) break;
        open.set(key, [...list.filter((o) => !touching.includes(o)), s]);
        break;
      }
    }
  }
  fireSessions(Number.POSITIVE_INFINITY);
  const out: Row[] = [];
  for (const w of windows.values()) {
    const vs = w.rows.map((f) => f[1] as number);
    out.push(Row.of(w.key, w.rows.length, vs.reduce((a, b) => a + b, 0), Math.max(...vs), new Set(w.rows.map((f) => f[2])).size, w.start, w.end, w.end - 1));
  }
  return new MultisetTable().applyAll(out).sortedRows();
}

const randomWindows: [string, WindowSpec][] = [
  ["TUMBLE with an offset", { kind: "tumble", timeField: 0, size: 500, offset: 70 }],
  ["HOP", { kind: "hop", timeField: 0, size: 600, slide: 200, offset: 0 }],
  ["HOP, size not a multiple of the slide", { kind: "hop", timeField: 0, size: 500, slide: 200, offset: 30 }],
  ["CUMULATE", { kind: "cumulate", timeField: 0, maxSize: 1000, step: 250, offset: 0 }],
  ["SESSION", { kind: "session", timeField: 0, gap: 120, partitionKeys: [3] }],
];

describe("windowAggregate equals a plain oracle over random rows with late ones (parallelism 2)", () => {
  for (const [name, window] of randomWindows) {
    it(name, async () => {
      const seed = testSeed();
      const rows = randomRows(seededRandom(seed), 1500, 300);
      const spec: WindowAggregateSpec = { window, groupKeys: [3], calls };
      const out = await run(rows, spec, 200, 2);
      expect(new MultisetTable().applyAll(out).sortedRows(), `WEIR_SEED=${seed}`).toEqual(oracle(rows, window, 200));
    });
  }
});

describe("windowAggregate: a failure with exactly-once checkpoints leaves the result identical (parallelism 2)", () => {
  for (const [name, window] of [randomWindows[1]!, randomWindows[4]!]) {
    it(name, async () => {
      const seed = testSeed();
      const random = seededRandom(seed);
      const rows = randomRows(random, 1500, 300);
      const failAt = randomInt(random, 300, 700);
      const { env, input: failing } = recoveryInput(rows, failAt);
      const input = failing
        .assignTimestampsAndWatermarks(rowWatermarks(0, 200))
        .setParallelism(1);
      windowAggregate(input, { window, groupKeys: [3], calls }, { uid: "window-agg", name: "WindowAggregate" }).sinkTo(collectSink("out"));
      const result = await env.execute("window-aggregate-recovery");
      const msg = `WEIR_SEED=${seed} failAt=${failAt}`;
      expect(result.restarts, msg).toBe(1);
      const out = result.getCollected<Row>("out");
      expect(out.every((r) => r.kind === "+I"), msg).toBe(true);
      expect(new MultisetTable().applyAll(out).sortedRows(), msg).toEqual(oracle(rows, window, 200));
    }, 60_000);
  }
});

/**
 * Writes, at the first row of a key, the slices of two windows of that key in a form of earlier versions:
 * an accumulator set per slice, in a Map by slice end (`map`) or in an array along the ascending ends.
 */
class EarlierSlicesWriter extends KeyedProcessFunction<string, Row, Row> {
  constructor(private readonly map: boolean) {
    super();
  }

  override processElement(row: Row): void {
    const slices = engineKeyedState<unknown>(this.getRuntimeContext(), "_slices");
    if (slices.get() !== undefined) return;
    // COUNT(*) keeps one accumulator and no multiset
    const [early, late] = [{ accs: [7], counts: [null] }, { accs: [5], counts: [null] }];
    // out of order in the Map, as rows can leave them
    if (this.map) slices.set({ key: [row.fields[3]!], slices: new Map([[10_000, late], [9_000, early]]), queued: [9_999, 8_999] });
    else slices.set({ key: [row.fields[3]!], ends: [9_000, 10_000], sets: [early, late], queued: [8_999, 9_999] });
  }
}

describe("windowAggregate: a savepoint of an earlier version", () => {
  const tempDir = tempDirs("weir-window-agg-");

  /** Rows at t = 1 … 3000 ms, one key; the keyed operator `window-agg` is `keyed(input)`. */
  function start(limit: () => number, keyed: (input: DataStream<Row>) => void, fromSavepoint?: string): Promise<JobClient> {
    const env = StreamExecutionEnvironment.create({ parallelism: 1, checkpointInterval: 50, checkpointDir: tempDir(), fromSavepoint, autoWatermarkInterval: 0 });
    const input = env
      .fromSource(throttledSequence(1, 3_000, 50, 1, 0, limit), WatermarkStrategy.noWatermarks(), "numbers")
      .uid("numbers")
      .map((n) => Row.of(n, 1, "s", "k"))
      .uid("rows")
      .assignTimestampsAndWatermarks(rowWatermarks(0, 0))
      .uid("watermarks");
    keyed(input);
    return env.executeAsync("window-agg-savepoint");
  }

  it.each([
    ["a Map by slice end", true],
    ["a set per slice", false],
  ])("restores its slices (%s) and fires their windows with the rows after it", async (_form, map) => {
    let limit = 1_000;
    const first = await start(() => limit, (input) => void input.keyBy(rowKeySelector([3])).process(new EarlierSlicesWriter(map)).uid("window-agg"));
    await waitFor("a completed checkpoint", () => (first.getCheckpointStats()?.counts.completed ?? 0) > 0, 60_000);
    const savepoint = await first.stopWithSavepoint(tempDir());
    limit = 3_001;
    const spec: WindowAggregateSpec = { window: { kind: "tumble", timeField: 0, size: 1_000, offset: 0 }, groupKeys: [3], calls: [aggCall("COUNT", [])] };
    const second = await start(() => limit, (input) => void windowAggregate(input, spec, { uid: "window-agg", name: "WindowAggregate" }).sinkTo(collectSink("out")), savepoint);
    const out = (await second.getJobExecutionResult()).getCollected<Row>("out").map((r) => r.fields);
    // the windows of the earlier slices, after the windows of the rows read after the savepoint
    expect(out.slice(-2)).toEqual([["k", 7, 8_000, 9_000, 8_999], ["k", 5, 9_000, 10_000, 9_999]]);
    const counted = out.slice(0, -2);
    expect(counted.every((f) => (f[3] as number) <= 4_000 && (f[1] as number) > 0)).toBe(true);
    expect(counted.at(-1)!.slice(1)).toEqual([1, 3_000, 4_000, 3_999]); // the row at 3000 ms
  }, 120_000);
});
