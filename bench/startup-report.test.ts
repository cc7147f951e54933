import { describe, expect, it } from "vitest";
import { formatStartup, startupRatios, type StartupFigures } from "./startup-report.ts";

const FIGURES: StartupFigures = {
  job: "3 elements, map, print",
  cases: [
    { label: 'node -e ""', wallMs: 40, cpuMs: 30, maxRssBytes: 40e6 },
    { label: "weir run trivial.mjs", wallMs: 120, cpuMs: 90, maxRssBytes: 60e6 },
  ],
};

describe("the startup section's report", () => {
  it("divides each case's wall time, CPU time and RSS by the baseline's", () => {
    expect(startupRatios(FIGURES)).toEqual({
      'start-up wall: weir run trivial.mjs / node -e ""': 3,
      'start-up CPU: weir run trivial.mjs / node -e ""': 3,
      'start-up RSS: weir run trivial.mjs / node -e ""': 1.5,
    });
    expect(startupRatios({ job: "", cases: [] })).toEqual({});
  });

  it("tables each case with its ratios", () => {
    const lines = formatStartup(FIGURES).split("\n");
    expect(lines[0]).toBe('start-up: one run of each command to its end (3 elements, map, print); ratios to node -e ""');
    expect(lines.at(-1)).toMatch(/^weir run trivial\.mjs\s+120 ms\s+90 ms\s+60 MB\s+3\.0×\s+3\.0×\s+1\.5×$/);
    expect(lines.at(-2)).toMatch(/^node -e ""\s+40 ms\s+30 ms\s+40 MB\s+1\.0×\s+1\.0×\s+1\.0×$/);
  });
});
