import { describe, expect, it } from "vitest";
import { CountEvictor, DeltaEvictor, TimeEvictor } from "./evictor.ts";
import { mergeTimeWindows, ProcessingTimeSessionWindows } from "./session-windows.ts";
import { SlidingEventTimeWindows, SlidingProcessingTimeWindows } from "./sliding-windows.ts";
import { TumblingEventTimeWindows } from "./tumbling-windows.ts";
import { TimeWindow, windowFromId, GlobalWindow } from "./window.ts";

const ctx = { currentProcessingTime: () => 12_345 };

describe("window assigners", () => {
  it("tumbling windows contain their timestamps, also before the epoch and with an offset", () => {
    for (const ts of [-1501, -1, 0, 999, 1000, 123_456]) {
      for (const offset of [0, 250, -250]) {
        const [w] = TumblingEventTimeWindows.of(1000, offset).assignWindows(null, ts, ctx);
        expect(w!.start <= ts && ts < w!.end && w!.end - w!.start === 1000).toBe(true);
        expect((((w!.start - offset) % 1000) + 1000) % 1000).toBe(0);
      }
    }
    expect(() => TumblingEventTimeWindows.of(0)).toThrow(RangeError);
  });

  it("sliding windows: size/slide windows per record, each containing it", () => {
    const ws = SlidingEventTimeWindows.of(1000, 300).assignWindows(null, 2050, ctx);
    expect(ws.map((w) => w.start)).toEqual([1800, 1500, 1200]);
    for (const w of ws) expect(w.start <= 2050 && 2050 < w.end).toBe(true);
    expect(SlidingProcessingTimeWindows.of(100, 50).assignWindows(null, 0, ctx).map((w) => w.start)).toEqual([12_300, 12_250]);
  });

  it("sessions merge overlapping and touching windows only", () => {
    const groups: [string[], string][] = [];
    const ws = [new TimeWindow(10, 20), new TimeWindow(0, 5), new TimeWindow(20, 30), new TimeWindow(40, 50), new TimeWindow(4, 8)];
    mergeTimeWindows(ws, (members, result) => groups.push([members.map(String), String(result)]));
    expect(groups).toEqual([
      [[String(new TimeWindow(0, 5)), String(new TimeWindow(4, 8))], String(new TimeWindow(0, 8))],
      [[String(new TimeWindow(10, 20)), String(new TimeWindow(20, 30))], String(new TimeWindow(10, 30))],
    ]);
    expect(ProcessingTimeSessionWindows.withGap(100).assignWindows(null, 0, ctx)).toEqual([new TimeWindow(12_345, 12_445)]);
  });

  it("window ids round-trip", () => {
    for (const w of [new TimeWindow(-5, 10), new TimeWindow(0, 1)]) expect(windowFromId(w.id())).toEqual(w);
    expect(windowFromId(GlobalWindow.get().id())).toBe(GlobalWindow.get());
  });
});

describe("evictors", () => {
  const els = [1, 5, 2, 9, 3].map((v, i) => ({ value: v, timestamp: 100 + i * 10 }));
  it("count, time and delta", () => {
    expect(CountEvictor.of(2).evictBefore(els).map((e) => e.value)).toEqual([9, 3]);
    expect(CountEvictor.of(2, true).evictBefore(els)).toHaveLength(5);
    expect(CountEvictor.of(2, true).evictAfter(els).map((e) => e.value)).toEqual([9, 3]);
    expect(TimeEvictor.of(20).evictBefore(els).map((e) => e.timestamp)).toEqual([130, 140]);
    expect(DeltaEvictor.of(3, (a: number, b: number) => Math.abs(a - b)).evictBefore(els).map((e) => e.value)).toEqual([1, 5, 2, 3]);
  });
});
