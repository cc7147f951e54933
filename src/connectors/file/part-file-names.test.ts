import { describe, expect, it } from "vitest";
import { inProgressFileName, parseInProgressFileName, partFileName, partFileNaming } from "./part-file-names.ts";

describe("part file names", () => {
  it("round-trips the hidden name of a part and ignores committed parts and other sinks' files", () => {
    const naming = partFileNaming("part", "sink-1", ".csv");
    const name = partFileName(naming, 3, 12);
    expect(name).toBe("part-sink-1-3-12.csv");
    expect(parseInProgressFileName(naming, inProgressFileName(name, "0xab12"))).toEqual({ subtask: 3, n: 12 });
    expect(parseInProgressFileName(naming, name)).toBeNull();
    const other = partFileNaming("part", "sink", ".csv"); // a uid that is a prefix of ours
    expect(parseInProgressFileName(other, inProgressFileName(name, "0xab12"))).toBeNull();
  });

  it("makes the operator uid safe for file names", () => {
    expect(partFileName(partFileNaming("p", "a/b c", ""), 0, 0)).toBe("p-a_b_c-0-0");
  });
});
