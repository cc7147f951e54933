import { describe, expect, it } from "vitest";
import { seededRandom } from "../../util/seeded-random.ts";
import { inProgressFileName, parseInProgressFileName, partFileName, partFileNaming, partRunId } from "./part-file-names.ts";
import type { PartWriterTag } from "./part-writer-tag.ts";

const RUN = "0f8e5c4a-8d2b-4c4e-9a51-3b1f2d6e7a90";
const WRITER: PartWriterTag = { job: "1c3d5e7f", pid: 4242, processStartedAt: 1_796_196_872_309, host: "0a1b2c3d" };

describe("part file names", () => {
  it("round-trips the hidden name of a part and ignores committed parts and other sinks' files", () => {
    const naming = partFileNaming("part", "sink-1", ".csv");
    const name = partFileName(naming, 3, RUN, 12);
    expect(name).toBe(`part-sink-1-3-${RUN}-12.csv`);
    const hidden = inProgressFileName(name, WRITER);
    expect(hidden).toBe(`.part-sink-1-3-${RUN}-12.csv.1c3d5e7f-4242-${(1_796_196_872_309).toString(36)}-0a1b2c3d.inprogress`);
    expect(parseInProgressFileName(naming, hidden)).toEqual({ subtask: 3, runId: RUN, n: 12, writer: WRITER });
    expect(parseInProgressFileName(naming, name)).toBeNull();
    const other = partFileNaming("part", "sink", ".csv"); // a uid that is a prefix of ours
    expect(parseInProgressFileName(other, hidden)).toBeNull();
    const longer = partFileNaming("part", "sink-1-3", ".csv"); // a uid that ends where our subtask begins
    expect(parseInProgressFileName(longer, hidden)).toBeNull();
  });

  it("parses the untagged hidden names of earlier versions with no writer, and tags without an extension", () => {
    const naming = partFileNaming("part", "sink-1", ".csv");
    expect(parseInProgressFileName(naming, `.part-sink-1-3-${RUN}-12.csv.inprogress`)).toEqual({ subtask: 3, runId: RUN, n: 12, writer: null });
    const bare = partFileNaming("part", "lines", "");
    const hidden = inProgressFileName(partFileName(bare, 0, RUN, 7), WRITER);
    expect(parseInProgressFileName(bare, hidden)).toEqual({ subtask: 0, runId: RUN, n: 7, writer: WRITER });
  });

  it("makes the operator uid safe for file names", () => {
    expect(partFileName(partFileNaming("p", "a/b c", ""), 0, RUN, 0)).toBe(`p-a_b_c-0-${RUN}-0`);
  });

  it("draws run ids as version 4 UUIDs, reproducible from a seeded random source", () => {
    const a = partRunId(seededRandom(9));
    expect(a).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(partRunId(seededRandom(9))).toBe(a);
    expect(partRunId(seededRandom(10))).not.toBe(a);
    expect(partRunId(() => 0.999999)).toBe("ffffffff-ffff-4fff-bfff-ffffffffffff");
  });
});
