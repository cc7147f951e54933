import { describe, expect, it } from "vitest";
import { WatermarkAlignment } from "./watermark-alignment.ts";

const INF = Number.POSITIVE_INFINITY;
const NEG = Number.NEGATIVE_INFINITY;

describe("WatermarkAlignment", () => {
  it("announces a group's lowest watermark, who reported it and the lowest of the others when they change, per group", () => {
    const a = new WatermarkAlignment();
    expect(a.report("bids", "src#0", 5_000)).toEqual({ lowest: 5_000, lowestTask: "src#0", second: INF });
    expect(a.report("bids", "src#1", 2_000)).toEqual({ lowest: 2_000, lowestTask: "src#1", second: 5_000 });
    expect(a.report("bids", "src#2", 9_000)).toBeUndefined(); // neither of the two lowest moved
    expect(a.report("persons", "p#0", 100)).toEqual({ lowest: 100, lowestTask: "p#0", second: INF }); // groups apart
    expect(a.report("bids", "src#1", 6_000)).toEqual({ lowest: 5_000, lowestTask: "src#0", second: 6_000 });
    expect(a.report("bids", "src#0", INF)).toEqual({ lowest: 6_000, lowestTask: "src#1", second: 9_000 }); // idle: holds nobody back
  });

  it("lets a subtask that has no more input leave its groups", () => {
    const a = new WatermarkAlignment();
    a.report("bids", "src#0", 1_000);
    a.report("bids", "src#1", 8_000);
    a.report("persons", "src#0", 500);
    a.report("persons", "p#0", 600);
    expect(a.leave("src#0")).toEqual([
      ["bids", { lowest: 8_000, lowestTask: "src#1", second: INF }],
      ["persons", { lowest: 600, lowestTask: "p#0", second: INF }],
    ]);
    expect(a.leave("src#0")).toEqual([]);
    expect(a.leave("src#1")).toEqual([["bids", { lowest: INF, lowestTask: "", second: INF }]]);
  });

  it("holds a group at -Infinity until every subtask of the plan has reported", () => {
    const a = new WatermarkAlignment(new Map([["bids", ["src#0", "src#1", "src#2"]]]));
    expect(a.report("bids", "src#0", 5_000)).toEqual({ lowest: NEG, lowestTask: "src#1", second: NEG });
    expect(a.report("bids", "src#1", 7_000)).toEqual({ lowest: NEG, lowestTask: "src#2", second: 5_000 });
    expect(a.report("bids", "src#2", 6_000)).toEqual({ lowest: 5_000, lowestTask: "src#0", second: 6_000 });
    expect(a.leave("src#0")).toEqual([["bids", { lowest: 6_000, lowestTask: "src#2", second: 7_000 }]]);
  });
});
