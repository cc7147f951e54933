import { describe, expect, it } from "vitest";
import { BoundedOutOfOrdernessWatermarks, type WatermarkGenerator } from "../../time/watermark-generator.ts";
import { SplitWatermarks } from "./split-watermarks.ts";

function setup(create: () => WatermarkGenerator<number> = () => new BoundedOutOfOrdernessWatermarks<number>(0)) {
  const log: string[] = [];
  const w = new SplitWatermarks<number>(create, (ts) => void log.push(`wm ${ts}`), (idle) => void log.push(idle ? "idle" : "active"));
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
    expect(log).toEqual(["active", "wm 99", "idle"]);
  });
});
