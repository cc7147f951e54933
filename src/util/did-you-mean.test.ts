import { describe, expect, it } from "vitest";
import { didYouMean, editDistance } from "./did-you-mean.ts";

describe("did-you-mean", () => {
  it("computes the Levenshtein distance", () => {
    expect(editDistance("", "abc")).toBe(3);
    expect(editDistance("kitten", "sitting")).toBe(3);
    expect(editDistance("clikcs", "clicks")).toBe(2);
    expect(editDistance("same", "same")).toBe(0);
  });

  it("suggests a candidate at most 2 edits away (1 for short inputs), ignoring case, never the input itself", () => {
    const keys = ["execution.checkpointing.interval", "execution.checkpointing.mode", "pipeline.name", "state.savepoints.dir"];
    expect(didYouMean("execution.checkpointing.intervall", keys)).toBe("execution.checkpointing.interval");
    expect(didYouMean("execution.checkpointing.inetrval", keys)).toBe("execution.checkpointing.interval");
    expect(didYouMean("Pipeline.Name", keys)).toBe("pipeline.name");
    expect(didYouMean("pipeline.jars", keys)).toBeUndefined();
    expect(didYouMean("state.checkpoints.dir", keys)).toBeUndefined();
    expect(didYouMean("pipeline.name", keys)).toBeUndefined();
    expect(didYouMean("--wrkers", ["--workers", "--fresh"])).toBe("--workers");
    expect(didYouMean("-x", ["-p", "-w"])).toBe("-p");
    expect(didYouMean("abc", ["xyz"])).toBeUndefined();
    expect(didYouMean("x", [])).toBeUndefined();
  });
});
