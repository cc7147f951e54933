import { describe, expect, it } from "vitest";
import { didYouMean } from "./did-you-mean.ts";

describe("didYouMean", () => {
  const flags = ["--parallelism", "--workers", "--checkpoint-dir", "--checkpoint-interval", "--state-backend"];

  it("finds the closest name within a third of the input's length: a letter missing, extra, wrong or two swapped", () => {
    expect(didYouMean("--paralelism", flags)).toBe("--parallelism");
    expect(didYouMean("--workerss", flags)).toBe("--workers");
    expect(didYouMean("--checkpoint-dri", flags)).toBe("--checkpoint-dir");
    expect(didYouMean("--state-backedn", flags)).toBe("--state-backend");
    expect(didYouMean("rn", ["run", "sql", "demo"])).toBe("run");
    expect(didYouMean("RUN", ["run", "sql", "demo"])).toBe("run");
  });

  it("nothing for an input far from every name, for an exact name, or without candidates", () => {
    expect(didYouMean("deploy", ["run", "sql", "demo"])).toBeUndefined();
    expect(didYouMean("--verbose", flags)).toBeUndefined();
    expect(didYouMean("--workers", flags)).toBeUndefined();
    expect(didYouMean("x", [])).toBeUndefined();
    expect(didYouMean("-x", ["-p", "-f", "-e"])).toBeUndefined();
  });

  it("the closer of two near names", () => {
    expect(didYouMean("--checkpoint-intervl", flags)).toBe("--checkpoint-interval");
  });
});
