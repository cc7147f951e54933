import { describe, expect, it } from "vitest";
import { BoundedOutOfOrdernessWatermarks, WatermarksWithIdleness, type WatermarkGenerator } from "../../time/watermark-generator.ts";
import { SplitWatermarks } from "./split-watermarks.ts";

function setup(create: () => WatermarkGenerator<number> = () => new BoundedOutOfOrdernessWatermarks<number>(0), restored?: Map<string, number>) {
  const log: string[] = [];
  const w = new SplitWatermarks<number>(create, (ts) => void log.push(`wm ${ts}`), (idle) => void log.push(idle ? "idle" : "active"), restored);
  return { w, log, watermarks: () => log.filter((l) => l.startsWith("wm")) };
}

describe("per-split watermarks", () => {
  it("the reader's watermark is the minimum over its splits; a finished split stops holding it back", () => {
    const { w, watermarks } = setup();
    w.split("a");
    w.split("b");
    w.onSplitEvent("a", 0, 1000);
    w.onSplitEvent("b", 0, 200);
    w.onPeriodicEmit();
    w.onSplitEvent("a", 0, 2000);
    w.onPeriodicEmit();
    expect(watermarks().at(-1)).toBe("wm 199"); // b (199) holds back a (1999)
    w.release("b");
    expect(watermarks().at(-1)).toBe("wm 1999");
  });

  it("a record of a split released after its last record registers the split again (runs of one split's records share a lookup)", () => {
    const { w, watermarks } = setup();
    w.split("a");
    w.split("b");
    w.onSplitEvent("b", 0, 5000);
    w.onSplitEvent("a", 0, 1000);
    w.onSplitEvent("a", 0, 1500);
    w.release("a"); // the split of the last record
    w.onPeriodicEmit();
    expect(watermarks().at(-1)).toBe("wm 4999");
    w.onSplitEvent("a", 0, 2000); // a again: a new input, which holds the watermark back from now on
    w.onSplitEvent("b", 0, 6000);
    w.onPeriodicEmit();
    expect(watermarks().at(-1)).toBe("wm 4999"); // never regresses below what was emitted
    w.release("b");
    w.onSplitEvent("a", 0, 7000);
    w.onPeriodicEmit();
    expect(watermarks().at(-1)).toBe("wm 6999");
  });

  it("a split that has seen nothing yet holds the watermark at its start", () => {
    const { w, watermarks } = setup();
    w.split("a");
    w.onSplitEvent("a", 0, 1000);
    w.onPeriodicEmit();
    expect(watermarks()).toEqual(["wm 999"]);
    w.split("late-starter");
    w.onSplitEvent("a", 0, 5000);
    w.onPeriodicEmit();
    expect(watermarks()).toEqual(["wm 999"]); // the new split has no watermark yet
    w.onSplitEvent("late-starter", 0, 3000);
    w.onPeriodicEmit();
    expect(watermarks().at(-1)).toBe("wm 2999");
  });

  it("the main output takes part only once it carried a record; all inputs idle makes the reader idle", () => {
    let now = 0;
    const { w, log } = setup(() => {
      const g: WatermarkGenerator<number> = new BoundedOutOfOrdernessWatermarks<number>(0);
      let last = 0;
      return {
        onEvent: (e, ts, out) => {
          last = now;
          g.onEvent(e, ts, out);
        },
        onPeriodicEmit: (out) => (now - last > 10 ? out.markIdle() : g.onPeriodicEmit(out)),
      };
    });
    w.split("a");
    w.onSplitEvent("a", 0, 100);
    w.onPeriodicEmit();
    now = 50;
    w.onPeriodicEmit();
    expect(log).toEqual(["wm 99", "idle"]);
  });

  it("a split read to its end between two periodic emits still advances the watermark: a last emit, and its final watermark stands", () => {
    const { w, watermarks } = setup();
    w.split("a");
    for (const ts of [100, 300, 200]) w.onSplitEvent("a", 0, ts);
    w.release("a");
    expect(watermarks()).toEqual(["wm 299"]);
    w.split("b");
    w.onSplitEvent("b", 0, 500);
    w.release("b");
    expect(watermarks()).toEqual(["wm 299", "wm 499"]);
  });

  it("a queued split holds the watermark back while another is read before it, and it never goes idle before it started", () => {
    let now = 0;
    const { w, log, watermarks } = setup(() => new WatermarksWithIdleness(new BoundedOutOfOrdernessWatermarks<number>(0), 50, () => now));
    w.split("later");
    w.split("earlier");
    w.onSplitEvent("later", 0, 9000);
    now = 1000;
    w.onPeriodicEmit();
    w.release("later");
    expect(watermarks(), "the earlier file has not been read: no promise yet").toEqual([]);
    expect(log).not.toContain("idle");
    w.onSplitEvent("earlier", 0, 1000);
    w.onPeriodicEmit();
    expect(watermarks()).toEqual(["wm 999"]);
    w.release("earlier");
    expect(watermarks().at(-1)).toBe("wm 8999");
  });

  it("splits that go idle in one periodic emit give the watermark they promised, whatever their order (a late emit on a loaded machine)", () => {
    for (const order of [["a", "b", "empty"], ["empty", "a", "b"]]) {
      let now = 0;
      const { w, log } = setup(() => new WatermarksWithIdleness(new BoundedOutOfOrdernessWatermarks<number>(0), 300, () => now));
      for (const id of order) w.split(id, true); // a Kafka reader's partitions, one of them without records
      w.onSplitEvent("a", 0, 39_500);
      w.onSplitEvent("b", 0, 49_000);
      now = 1_000; // the first periodic emit after the records comes after the idle timeout
      w.onPeriodicEmit();
      expect(log, order.join(" ")).toEqual(["wm 39499", "idle"]);
    }
  });

  it("with idleness, a split registered activeFromStart that never has a record goes idle; a queued one holds the watermark", () => {
    let now = 0;
    const idleAfter100 = () => new WatermarksWithIdleness<number>(new BoundedOutOfOrdernessWatermarks<number>(0), 100, () => now);
    for (const activeFromStart of [true, false]) {
      const { w, watermarks } = setup(idleAfter100);
      w.split("busy", activeFromStart);
      w.split("empty", activeFromStart);
      w.onSplitEvent("busy", 0, 1000);
      w.onPeriodicEmit();
      now = 150;
      w.onSplitEvent("busy", 0, 2000);
      w.onPeriodicEmit();
      expect(watermarks(), `activeFromStart ${activeFromStart}`).toEqual(activeFromStart ? ["wm 1999"] : []);
      now = 0;
    }
  });

  it("a reader without splits that has nothing to read is idle until a split is registered", () => {
    const { w, log } = setup();
    w.split("a");
    w.onSplitEvent("a", 0, 100);
    w.release("a");
    w.markReaderIdle();
    expect(log).toEqual(["wm 99", "idle"]);
    w.split("b");
    expect(log).toEqual(["wm 99", "idle", "active"]);
    w.release("b");
    w.markReaderIdle();
    expect(log.at(-1)).toBe("idle");
  });

  it("a restored split resumes from its checkpointed watermark; the checkpoint holds every registered split's", () => {
    const { w, watermarks } = setup(undefined, new Map([["a", 700], ["b", 400]]));
    w.split("a");
    w.split("b");
    w.split("new");
    expect(w.splitWatermarks()).toEqual(new Map([["a", 700], ["b", 400]]));
    w.release("new");
    expect(watermarks()).toEqual(["wm 400"]);
    w.onSplitEvent("a", 0, 900);
    w.onPeriodicEmit();
    expect(w.splitWatermarks()).toEqual(new Map([["a", 899], ["b", 400]]));
  });
});
