import { describe, expect, it } from "vitest";
import { Counter } from "./counter.ts";
import { Histogram } from "./histogram.ts";
import { Meter } from "./meter.ts";
import { MetricNameTakenError, MetricRegistry } from "./metric-registry.ts";
import type { MetricSnapshot } from "./metric-snapshot.ts";
import { TimeMeter } from "./time-meter.ts";

const job = { jobId: "0123456789abcdef0123456789abcdef", jobName: "orders" };
const task = { ...job, vertexId: "aa".repeat(16), taskName: "Source: in -> Map", subtaskIndex: 1, taskManagerId: "worker-0" };

const valueOf = (snapshots: readonly MetricSnapshot[], name: string) => snapshots.find((s) => s.name === name)?.value;

describe("metrics: counter, meter, histogram", () => {
  it("a counter goes up and down", () => {
    const c = new Counter();
    c.inc();
    c.inc(5);
    c.dec(2);
    expect(c.getCount()).toBe(4);
  });

  it("a meter's rate is events per second between snapshots, over its window", () => {
    const m = new Meter(new Counter(), 10_000);
    m.update(0);
    m.markEvent(500);
    expect(m.update(1000)).toBe(500);
    m.markEvent(1500);
    expect(m.update(2000)).toBe(1000); // 2000 events in 2 s
    // 10 s later, only the last 10 s count: nothing happened in them
    expect(m.update(12_000)).toBe(0);
  });

  it("a time meter counts a state still going on up to the snapshot, at most 1000 ms/s", () => {
    const idle = new TimeMeter();
    idle.update(0);
    idle.start(0);
    expect(idle.update(1000)).toBe(1000);
    idle.stop(1500);
    expect(idle.update(2000)).toBe(750);
  });

  it("a histogram keeps the last reservoirSize values and computes statistics on demand", () => {
    const h = new Histogram(100);
    for (let i = 1; i <= 200; i++) h.update(i);
    const s = h.getStatistics();
    expect(s.count).toBe(200);
    expect([s.min, s.max, s.mean]).toEqual([101, 200, 150.5]);
    expect(s.p50).toBeCloseTo(150.5);
    expect(s.p99).toBeCloseTo(199.01);
    expect(s.stddev).toBeCloseTo(29.01, 1);
    expect(new Histogram().getStatistics().max).toBe(0);
    expect(() => new Histogram(0)).toThrow(RangeError);
  });
});

describe("metrics: groups and snapshots", () => {
  it("scopes: job, task and operator metrics carry their scope; nested groups join names with '.'", () => {
    let t = 0;
    const registry = new MetricRegistry(() => t);
    const jobGroup = registry.group(job);
    const taskGroup = registry.group(task);
    const op = taskGroup.child({ operatorId: "bb".repeat(16), operatorName: "Map" });
    jobGroup.gauge("uptime", () => 42);
    taskGroup.counter("numRecordsIn").inc(7);
    op.addGroup("cache").counter("hits").inc(3);
    op.addGroup("region", "eu").meter("requests");
    op.histogram("latencyMs", 10).update(5);
    const snap = registry.snapshot();
    expect(snap.map((s) => [s.name, s.kind, s.value, s.scope.operatorName ?? s.scope.taskName ?? s.scope.jobName])).toEqual([
      ["uptime", "gauge", 42, "orders"],
      ["numRecordsIn", "counter", 7, "Source: in -> Map"],
      ["cache.hits", "counter", 3, "Map"],
      ["region.eu.requests", "meter", 0, "Map"],
      ["latencyMs", "histogram", 1, "Map"],
    ]);
    expect(snap[4]!.histogram).toMatchObject({ count: 1, min: 5, max: 5, p99: 5 });
    expect(snap[2]!.scope).toEqual({ ...task, operatorId: "bb".repeat(16), operatorName: "Map" });
  });

  it("meters and derived gauges are computed at the snapshot, not per event", () => {
    let t = 0;
    const registry = new MetricRegistry(() => t);
    const g = registry.group(task);
    const records = g.counter("numRecordsIn");
    const meter = g.meter("numRecordsInPerSecond", new Meter(records));
    g.gauge("double", () => meter.getRate() * 2);
    registry.snapshot();
    records.inc(300);
    t = 1000;
    // the gauge reads the meter as updated by this snapshot
    const snap = registry.snapshot();
    expect(valueOf(snap, "numRecordsInPerSecond")).toBe(300);
    expect(valueOf(snap, "double")).toBe(600);
  });

  it("a name registered again returns the first metric of that kind; another kind is an error naming the scope", () => {
    const registry = new MetricRegistry();
    const g = registry.group(task);
    const a = g.counter("seen");
    expect(g.counter("seen")).toBe(a);
    expect(() => g.meter("seen")).toThrow(MetricNameTakenError);
    expect(() => g.meter("seen")).toThrow(/metric 'seen' of task 'Source: in -> Map' subtask 1 of job 'orders' is already a counter/);
    expect(() => g.counter("")).toThrow(TypeError);
  });

  it("a gauge that throws or has no value is left out; a closed group's metrics are gone (also its nested groups')", () => {
    const registry = new MetricRegistry();
    const g = registry.group(task);
    const op = g.child({ operatorId: "cc".repeat(16), operatorName: "Sink" });
    g.gauge("broken", () => {
      throw new Error("boom");
    });
    g.gauge("none", () => undefined);
    g.counter("kept");
    op.addGroup("user").counter("mine");
    expect(registry.snapshot().map((s) => s.name)).toEqual(["kept", "user.mine"]);
    op.close();
    expect(registry.snapshot().map((s) => s.name)).toEqual(["kept"]);
    g.close();
    expect(registry.snapshot()).toEqual([]);
  });

  it("snapshots are plain data (they cross threads by structured clone)", () => {
    const registry = new MetricRegistry();
    registry.group(task).histogram("h").update(1);
    const snap = registry.snapshot();
    expect(structuredClone(snap)).toEqual(snap);
  });
});
