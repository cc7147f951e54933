import { describe, expect, it } from "vitest";
import { sharedFilesToDelete } from "./shared-state-cleanup.ts";

const file = (name: string, checkpointId: number) => ({ name, checkpointId });

describe("sharedFilesToDelete", () => {
  const cases: { case: string; files: { name: string; checkpointId: number }[]; referenced: string[]; newest: number; deleted: string[] }[] = [
    { case: "nothing referenced, all older: all go", files: [file("a", 1), file("b", 2)], referenced: [], newest: 3, deleted: ["a", "b"] },
    { case: "a referenced file stays however old", files: [file("base", 1), file("delta", 2)], referenced: ["base"], newest: 9, deleted: ["delta"] },
    { case: "a file of the newest completed checkpoint stays even if unreferenced", files: [file("x", 5)], referenced: [], newest: 5, deleted: [] },
    { case: "files of checkpoints in flight (above the newest) stay", files: [file("d6", 6), file("d7", 7)], referenced: [], newest: 5, deleted: [] },
    {
      case: "an aborted checkpoint's delta kept in the newest chain stays; one left out goes",
      files: [file("d4-in-chain", 4), file("d4-orphan", 4), file("d5", 5)],
      referenced: ["d4-in-chain", "d5"],
      newest: 5,
      deleted: ["d4-orphan"],
    },
    {
      case: "a delta of an aborted checkpoint above the newest completed one stays: an in-flight chain may include it",
      files: [file("d6-aborted", 6), file("d7-in-flight", 7)],
      referenced: [],
      newest: 5,
      deleted: [],
    },
    { case: "a temporary file of an older checkpoint goes", files: [file(".d2.state.0123456789ab.tmp", 2)], referenced: [], newest: 3, deleted: [".d2.state.0123456789ab.tmp"] },
    { case: "no completed checkpoint yet: nothing goes", files: [file("a", 1)], referenced: [], newest: 0, deleted: [] },
    { case: "empty folder", files: [], referenced: ["gone"], newest: 4, deleted: [] },
  ];
  for (const c of cases) {
    it(c.case, () => {
      expect(sharedFilesToDelete(c.files, new Set(c.referenced), c.newest)).toEqual(c.deleted);
    });
  }
});
