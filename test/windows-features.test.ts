import { describe, expect, it } from "vitest";
import { operatorHexId } from "../src/graph/operator-hex-id.ts";
import { StreamExecutionEnvironment, WatermarkStrategy } from "../src/index.ts";
import { collectSink } from "../src/connectors/builtin/collect-sink.ts";
import { CountTrigger } from "../src/time/windows/count-trigger.ts";
import { CountEvictor } from "../src/time/windows/evictor.ts";
import { GlobalWindows } from "../src/time/windows/global-windows.ts";
import { PurgingTrigger } from "../src/time/windows/purging-trigger.ts";
import { TumblingEventTimeWindows } from "../src/time/windows/tumbling-windows.ts";
import type { TimeWindow } from "../src/time/windows/window.ts";
import { MissingWindowTimestampError } from "../src/time/windows/window-errors.ts";
import { configureLogging, currentLogSettings, type LogRecord } from "../src/util/logger.ts";
import { seededRandom, testSeed } from "../src/util/seeded-random.ts";

interface Side {
  id: number;
  key: number;
  ts: number;
}

function sideEvents(random: () => number, n: number, idBase: number): Side[] {
  return Array.from({ length: n }, (_, i) => ({ id: idBase + i, key: Math.floor(random() * 5), ts: 10_000 + i * 7 - Math.floor(random() * 100) }));
}

const onTime = WatermarkStrategy.forBoundedOutOfOrderness<Side>(150).withTimestampAssigner((e) => e.ts);
const SIZE = 300;
const windowOf = (ts: number) => Math.floor(ts / SIZE) * SIZE;

describe("window join and coGroup equal a nested-loop model", () => {
  it("join and coGroup", async () => {
    const seed = testSeed();
    const random = seededRandom(seed);
    const as = sideEvents(random, 300, 0);
    const bs = sideEvents(random, 250, 10_000);
    const env = StreamExecutionEnvironment.create({ parallelism: 2, autoWatermarkInterval: 1 });
    const a = env.fromElements(...as).assignTimestampsAndWatermarks(onTime).setParallelism(1);
    const b = env.fromElements(...bs).assignTimestampsAndWatermarks(onTime).setParallelism(1);
    a.join(b)
      .where((x) => x.key)
      .equalTo((y) => y.key)
      .window(TumblingEventTimeWindows.of(SIZE))
      .apply((x, y) => `${x.id}-${y.id}`)
      .sinkTo(collectSink("join"));
    a.coGroup(b)
      .where((x) => x.key)
      .equalTo((y) => y.key)
      .window(TumblingEventTimeWindows.of(SIZE))
      .apply((xs, ys, out) => out.collect(`${xs.map((x) => x.id).sort((p, q) => p - q).join(",")}/${ys.map((y) => y.id).sort((p, q) => p - q).join(",")}`))
      .sinkTo(collectSink("cogroup"));
    const r = await env.execute("joins");
    const pairs: string[] = [];
    for (const x of as) for (const y of bs) if (x.key === y.key && windowOf(x.ts) === windowOf(y.ts)) pairs.push(`${x.id}-${y.id}`);
    const groups = new Map<string, [number[], number[]]>();
    for (const [side, list] of [[0, as], [1, bs]] as const)
      for (const e of list) {
        const g = groups.get(`${e.key}@${windowOf(e.ts)}`) ?? [[], []];
        g[side].push(e.id);
        groups.set(`${e.key}@${windowOf(e.ts)}`, g);
      }
    const cogroups = [...groups.values()].map(([x, y]) => `${x.sort((p, q) => p - q).join(",")}/${y.sort((p, q) => p - q).join(",")}`);
    const msg = `WEIR_SEED=${seed}`;
    expect(pairs.length, msg).toBeGreaterThan(100);
    expect(r.getCollected<string>("join").sort(), msg).toEqual(pairs.sort());
    expect(r.getCollected<string>("cogroup").sort(), msg).toEqual(cogroups.sort());
  });
});

describe("windows", () => {
  it("global windows with a purging count trigger, a count evictor, windowAll and aggregate", async () => {
    const env = StreamExecutionEnvironment.create({ parallelism: 2 });
    const nums = env.fromElements(...Array.from({ length: 20 }, (_, i) => i));
    nums
      .keyBy((n) => n % 2)
      .window(GlobalWindows.create())
      .trigger(PurgingTrigger.of(CountTrigger.of(3)))
      .reduce((x, y) => x + y)
      .sinkTo(collectSink("count"));
    nums
      .keyBy(() => "all")
      .window(GlobalWindows.create())
      .trigger(CountTrigger.of(5))
      .evictor(CountEvictor.of(2))
      .apply((_k: string, _w, input: Iterable<number>, out) => out.collect([...input].join(",")))
      .sinkTo(collectSink("evict"));
    nums
      .windowAll(GlobalWindows.create())
      .trigger(PurgingTrigger.of(CountTrigger.of(10)))
      .aggregate({
        createAccumulator: () => ({ n: 0, sum: 0 }),
        add: (v: number, acc) => ((acc.n += 1), (acc.sum += v), acc),
        getResult: (acc) => acc.sum / acc.n,
        merge: (x, y) => ({ n: x.n + y.n, sum: x.sum + y.sum }),
      })
      .sinkTo(collectSink("all"));
    const r = await env.execute("triggers");
    // evens 0,2,…,18 and odds 1,…,19 in threes (purged after each firing); the last one of each (18, 19) never fires
    expect(r.getCollected<number>("count").sort((a, b) => a - b)).toEqual([0 + 2 + 4, 1 + 3 + 5, 6 + 8 + 10, 7 + 9 + 11, 12 + 14 + 16, 13 + 15 + 17]);
    // every 5th record fires with the last two records kept; the evictor keeps the window at 2
    expect(r.getCollected<string>("evict")).toEqual(["3,4", "8,9", "13,14", "18,19"]);
    expect(r.getCollected<number>("all").sort((a, b) => a - b)).toEqual([4.5, 14.5]);
  });

  it("counts dropped late records and the records in windows in the task metrics, and warns once at the first drop", async () => {
    const env = StreamExecutionEnvironment.create({ parallelism: 1, autoWatermarkInterval: 0 });
    const ts = [1000, 1100, 5000, 1200, 1300, 5100];
    const strategy = WatermarkStrategy.forGenerator<number>(() => ({
      onEvent: (t, _ts, out) => out.emitWatermark(t - 1),
      onPeriodicEmit: () => {},
    })).withTimestampAssigner((t) => t);
    env
      .fromElements(...ts)
      .assignTimestampsAndWatermarks(strategy)
      .keyBy(() => 0)
      .window(TumblingEventTimeWindows.of(1000))
      .apply((_k: number, w: TimeWindow, input: Iterable<number>, out) => out.collect(`${w.start}:${[...input].length}`))
      .uid("w")
      .sinkTo(collectSink("out"));
    const saved = currentLogSettings();
    const warnings: string[] = [];
    configureLogging({ destination: (r: LogRecord) => void (r.level === "warn" && warnings.push(r.msg)) });
    let result;
    let client;
    try {
      client = await env.executeAsync("metrics");
      result = await client.getJobExecutionResult();
    } finally {
      configureLogging({ ...saved, destination: undefined });
    }
    expect(result.getCollected<string>("out").sort()).toEqual(["1000:2", "5000:2"]);
    expect(warnings).toEqual([
      "window operator 'w' (subtask 1/1) dropped a late record: its timestamp 1200 (allowed lateness 0 ms) is not after the watermark 4999; " +
        "further late records are dropped without a message and counted in numLateRecordsDropped (sideOutputLateData keeps them)",
    ]);
    const metrics = client
      .getMetrics()
      .filter((m) => m.scope.operatorId === operatorHexId("w") && (m.name === "numLateRecordsDropped" || m.name === "numRecordsInWindows"))
      .map((m) => [m.name, m.value]);
    expect(Object.fromEntries(metrics)).toEqual({ numLateRecordsDropped: 2, numRecordsInWindows: 0 });
  });

  it("fails an event-time window on records without a timestamp, naming the operator", async () => {
    const env = StreamExecutionEnvironment.create({ parallelism: 1 });
    env.fromElements(1, 2).keyBy((n) => n).window(TumblingEventTimeWindows.of(10)).sum().uid("no-ts").sinkTo(collectSink("x"));
    await expect(env.execute("no-ts")).rejects.toThrow(/window operator 'no-ts'.*assignTimestampsAndWatermarks/s);
    expect(new MissingWindowTimestampError("u", "a").name).toBe("MissingWindowTimestampError");
  });
});
