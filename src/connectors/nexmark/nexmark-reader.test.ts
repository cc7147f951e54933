import { describe, expect, it } from "vitest";
import type { ReaderOutput, SourceReader } from "../../core/source.ts";
import { ManualClock } from "../../util/clock.ts";
import { NexmarkGenerator } from "./nexmark-generator.ts";
import { nexmarkEventTime, type NexmarkEvent } from "./nexmark-event.ts";
import type { NexmarkOptions } from "./nexmark-options.ts";
import { NexmarkSource } from "./nexmark-source.ts";
import type { NexmarkSplit } from "./nexmark-split.ts";

const CONTEXT = { subtaskIndex: 0, parallelism: 1, operatorUid: "nexmark" };

/** What a reader emitted: records with their timestamps, per split, and the splits it released. */
function recorder() {
  const records: { split: string; event: NexmarkEvent; timestamp: number | undefined }[] = [];
  const released: string[] = [];
  const forSplit = (split: string): ReaderOutput<NexmarkEvent> => ({
    collect: (event, timestamp) => void records.push({ split, event, timestamp }),
    collectSide: () => {},
    createOutputForSplit: forSplit,
    releaseOutputForSplit: (id) => void released.push(id),
  });
  return { output: forSplit("(main)"), records, released };
}

function reader(options: NexmarkOptions, splits: NexmarkSplit[]): SourceReader<NexmarkEvent, NexmarkSplit> {
  const r = NexmarkSource.create(options).createReader(CONTEXT);
  r.addSplits(splits);
  return r;
}

/** Polls until the end of input; the events in emission order. */
function drain(r: SourceReader<NexmarkEvent, NexmarkSplit>, maxRecords: number): NexmarkEvent[] {
  const rec = recorder();
  while (r.pollNext(rec.output, maxRecords) !== "end-of-input");
  return rec.records.map((x) => x.event);
}

describe("the Nexmark reader", () => {
  const g = new NexmarkGenerator({ maxOutOfOrdernessMs: 300 });
  const expected = (numbers: number[]) => numbers.map((n) => g.event(n));

  it("emits its splits' events with their event time as the record timestamp, each split on its own output", () => {
    const source = NexmarkSource.create({ events: 10, maxOutOfOrdernessMs: 300 });
    const r = source.createReader(CONTEXT);
    r.addSplits(source.createSplits(2));
    const rec = recorder();
    expect(r.pollNext(rec.output, 4)).toBe("more-available");
    expect(rec.records.map((x) => [x.split, x.event])).toEqual([
      ["nexmark-0/2", g.event(0)],
      ["nexmark-0/2", g.event(2)],
      ["nexmark-1/2", g.event(1)],
      ["nexmark-1/2", g.event(3)],
    ]);
    expect(rec.records.every((x) => x.timestamp === nexmarkEventTime(x.event))).toBe(true);
    while (r.pollNext(rec.output, 4) !== "end-of-input");
    expect(rec.records).toHaveLength(10);
    expect(rec.released.sort()).toEqual(["nexmark-0/2", "nexmark-1/2"]);
  });

  it("resumes from a snapshot with exactly the events that were still to come", () => {
    const options = { events: 1_000, maxOutOfOrdernessMs: 300 };
    const whole = drain(reader(options, [{ next: 1, stride: 3 }]), 7);
    const first = reader(options, [{ next: 1, stride: 3 }]);
    const rec = recorder();
    for (let i = 0; i < 20; i++) first.pollNext(rec.output, 7);
    const snapshot = first.snapshotState(1);
    expect(snapshot).toEqual([{ next: 1 + 3 * 140, stride: 3 }]);
    const rest = drain(reader(options, JSON.parse(JSON.stringify(snapshot)) as NexmarkSplit[]), 11);
    expect([...rec.records.map((x) => x.event), ...rest]).toEqual(whole);
    expect(whole).toEqual(expected(Array.from({ length: 333 }, (_, i) => 1 + 3 * i)));
  });

  it("makes every event once over the splits of any parallelism", () => {
    const options = { events: 2_000, maxOutOfOrdernessMs: 300 };
    const source = NexmarkSource.create(options);
    const all = expected(Array.from({ length: 2_000 }, (_, n) => n)).map((e) => JSON.stringify(e)).sort();
    for (const parallelism of [1, 3, 7]) {
      const events = source.createSplits(parallelism).flatMap((s) => drain(reader(options, [s]), 64));
      expect(events.map((e) => JSON.stringify(e)).sort(), `parallelism ${parallelism}`).toEqual(all);
    }
    expect(source.createSplits(4)).toEqual([0, 1, 2, 3].map((next) => ({ next, stride: 4 })));
    expect(NexmarkSource.create({ events: 2 }).createSplits(4)).toHaveLength(2);
  });

  it("without events it is continuous and never ends", () => {
    const source = NexmarkSource.create();
    expect(source.boundedness).toBe("continuous");
    expect(NexmarkSource.create({ events: 5 }).boundedness).toBe("bounded");
    const r = source.createReader(CONTEXT);
    r.addSplits(source.createSplits(1));
    const rec = recorder();
    for (let i = 0; i < 10; i++) expect(r.pollNext(rec.output, 100)).toBe("more-available");
    expect(r.snapshotState(1)).toEqual([{ next: 1_000, stride: 1 }]);
  });

  it("rate limited: emits the events that are due on the clock, and says when the next one is", async () => {
    const clock = new ManualClock(5_000);
    const r = reader({ events: 100, eventsPerSecond: 1_000, rateLimited: true, clock }, [{ next: 0, stride: 1 }]);
    const rec = recorder();
    expect(r.pollNext(rec.output, 50)).toBe("more-available"); // event 0 is due at the first poll
    expect(rec.records).toHaveLength(1);
    expect(r.pollNext(rec.output, 50)).toBe("nothing-available");
    let available = false;
    void r.isAvailable!().then(() => (available = true));
    clock.advance(0.5);
    await Promise.resolve();
    expect(available).toBe(false);
    clock.advance(0.5);
    await Promise.resolve();
    expect(available).toBe(true);
    clock.advance(9); // t = 10 ms: events 1 … 10 are due
    expect(r.pollNext(rec.output, 50)).toBe("more-available");
    expect(rec.records).toHaveLength(11);
    clock.advance(1_000); // long overdue: at most maxRecords per poll, then the rest
    expect(r.pollNext(rec.output, 50)).toBe("more-available");
    expect(rec.records).toHaveLength(61);
    while (r.pollNext(rec.output, 50) !== "end-of-input");
    const sameRate = new NexmarkGenerator({ eventsPerSecond: 1_000 });
    expect(rec.records.map((x) => x.event)).toEqual(Array.from({ length: 100 }, (_, n) => sameRate.event(n)));
  });

  it("rate limited with a startTime: event n is due at startTime + n / eventsPerSecond in every reader, also after a restore", () => {
    const clock = new ManualClock(0);
    const options = { eventsPerSecond: 100, rateLimited: true, startTime: 1_000, clock };
    const r = reader(options, [{ next: 1, stride: 2 }]);
    const rec = recorder();
    expect(r.pollNext(rec.output, 50)).toBe("nothing-available");
    clock.set(1_050); // events 0 … 5 are due; this split has 1, 3, 5
    r.pollNext(rec.output, 50);
    expect(rec.records).toHaveLength(3);
    const restored = reader(options, r.snapshotState(1));
    clock.set(1_100); // 7 and 9 are due as well
    restored.pollNext(rec.output, 50);
    expect(rec.records).toHaveLength(5);
  });
});
