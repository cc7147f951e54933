import { describe, expect, it } from "vitest";
import { didYouMean, editDistance, nearestName } from "./nearest-name.ts";

describe("nearest-name", () => {
  it("computes the Levenshtein distance", () => {
    expect(editDistance("", "abc")).toBe(3);
    expect(editDistance("kitten", "sitting")).toBe(3);
    expect(editDistance("clikcs", "clicks")).toBe(2);
    expect(editDistance("same", "same")).toBe(0);
  });

  it("suggests only plausible typos, preferring the closest case-only difference", () => {
    expect(nearestName("usr", ["user", "url", "cTime"])).toBe("user");
    expect(nearestName("orders", ["clicks", "counts"])).toBeUndefined();
    expect(nearestName("CLICKS", ["clicks", "Clicks"])).toBe("Clicks");
    expect(nearestName("x", [])).toBeUndefined();
    expect(didYouMean("ctime", ["cTime"])).toBe(" Did you mean 'cTime'?");
    expect(didYouMean("zzz", ["cTime"])).toBe("");
  });
});
