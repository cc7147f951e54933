import { describe, expect, it } from "vitest";
import { markerLine, parseMarker, type PayloadMarker } from "./payload-marker.ts";

describe("payload markers", () => {
  it("parse back from their line", () => {
    const marker: PayloadMarker = { event: "first-record", at: 1_796_000_000_123, keyRestored: true };
    expect(parseMarker(markerLine(marker))).toEqual(marker);
  });

  it("are not found in other lines", () => {
    expect(parseMarker("weir: restoring checkpoint 3")).toBeUndefined();
  });
});
