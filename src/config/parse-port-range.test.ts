import { describe, expect, it } from "vitest";
import { parsePortRange } from "./parse-port-range.ts";

describe("parsePortRange", () => {
  it("reads a port or a range, refuses the rest", () => {
    expect(parsePortRange("9249")).toEqual({ first: 9249, last: 9249 });
    expect(parsePortRange("9250-9260")).toEqual({ first: 9250, last: 9260 });
    expect(parsePortRange(" 0 ")).toEqual({ first: 0, last: 0 });
    for (const bad of ["", "x", "9260-9250", "70000", "1-70000", "-5", "9250-"]) expect(parsePortRange(bad)).toBeUndefined();
  });
});
