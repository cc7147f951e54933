import { describe, expect, it } from "vitest";
import { formatBytes, formatCount, formatDuration, formatPercent, formatRate, formatWatermark } from "./format.ts";
import { aggregate, lowestValue, metricList } from "./metric-values.ts";
import { ThroughputHistory } from "./throughput-history.ts";

describe("what the dashboard writes", () => {
  it("numbers, sizes, durations, ratios and watermarks", () => {
    expect([formatCount(0), formatCount(7.25), formatCount(12_345), formatCount(2_500_000), formatCount(undefined)]).toEqual(["0", "7.3", "12.3k", "2.5M", "–"]);
    expect(formatRate(1500)).toBe("1.5k/s");
    expect([formatBytes(512), formatBytes(2048), formatBytes(3 * 1024 ** 3)]).toEqual(["512 B", "2.0 KiB", "3.0 GiB"]);
    expect([formatDuration(12), formatDuration(1500), formatDuration(125_000), formatDuration(-1)]).toEqual(["12 ms", "1.5 s", "2 min 5 s", "–"]);
    expect(formatPercent(0.625)).toBe("63 %");
    expect(formatWatermark(-9223372036854775808)).toBe("no watermark");
    expect(formatWatermark(0)).toBe("1970-01-01 00:00:00.000");
  });

  it("reads metric answers, bare or wrapped, per subtask or aggregated", () => {
    const wm = [{ id: "0.currentInputWatermark", value: "1000" }, { id: "1.currentInputWatermark", value: "900" }, { id: "0.other", value: "1" }];
    expect(lowestValue(metricList({ metrics: wm }), "currentInputWatermark")).toBe(900);
    expect(lowestValue(metricList(wm), "missing")).toBeUndefined();
    expect(aggregate(metricList([{ id: "numRecordsInPerSecond", sum: 12, max: 7 }]), "numRecordsInPerSecond", "sum")).toBe(12);
  });

  it("keeps throughput samples aligned, a new series padded with nulls", () => {
    const h = new ThroughputHistory();
    h.add(1000, [{ label: "a", value: 1 }]);
    h.add(2000, [{ label: "a", value: undefined }, { label: "b", value: 5 }]);
    expect(h.series()).toEqual({ labels: ["a", "b"], x: [1, 2], ys: [[1, null], [null, 5]] });
  });
});
