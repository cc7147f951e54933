import { describe, expect, it } from "vitest";
import {
  checkpointDirName,
  checkpointSharedPath,
  isPlainFileName,
  parseCheckpointDirName,
  parseSharedStateFileName,
  savepointSharedPath,
  sharedRefFile,
  sharedStateFileName,
  stateFileName,
} from "./checkpoint-paths.ts";

describe("checkpoint directory names", () => {
  it("round-trip and reject anything else", () => {
    expect(parseCheckpointDirName(checkpointDirName(42))).toBe(42);
    for (const name of ["chk-0", "chk-01", "chk-", "chk-1.tmp", "savepoint-1", "chk-99999999999999999999"]) {
      expect(parseCheckpointDirName(name)).toBeNull();
    }
  });
});

describe("stateFileName", () => {
  it("keeps simple uids readable", () => {
    expect(stateFileName("counts", 2)).toBe("counts-2.state");
  });

  it("makes every uid a plain, portable file name", () => {
    for (const uid of ["a/b", "..", "a\\b", "x:y*z?", "tab\there", "ünï", "\0", "~'!()"]) {
      const name = stateFileName(uid, 0);
      expect(isPlainFileName(name)).toBe(true);
      expect(name).toMatch(/^[a-z0-9._%^~-]+$/i);
    }
  });

  it("is unique, even ignoring case", () => {
    const uids = ["counts", "Counts", "COUNTS", "a-1", "a", "%41", "A", "^a", "a b", "a+b", "a%20b", "~", "%7E"];
    const names = new Set<string>();
    for (const uid of uids) for (const subtask of [0, 1, 12]) names.add(stateFileName(uid, subtask).toLowerCase());
    expect(names.size).toBe(uids.length * 3);
    // "a-1" subtask 2 and "a" subtask "1-2" cannot collide: the subtask is the last dash-number.
    expect(stateFileName("a-1", 2)).toBe("a-1-2.state");
  });

  it("bounds the length of very long uids and keeps them distinct", () => {
    const long1 = "x".repeat(1000) + "1";
    const long2 = "x".repeat(1000) + "2";
    const n1 = stateFileName(long1, 0);
    expect(n1.length).toBeLessThan(200);
    expect(n1).not.toBe(stateFileName(long2, 0));
  });
});

describe("isPlainFileName", () => {
  it("rejects paths that would escape the checkpoint directory", () => {
    for (const bad of ["", ".", "..", "../x", "a/b", "a\\b", "/etc/passwd"]) expect(isPlainFileName(bad)).toBe(false);
    expect(isPlainFileName("counts-0.state")).toBe(true);
  });
});

describe("shared state file names", () => {
  it("carry the writing checkpoint's id, also in their temporary form, whatever the uid", () => {
    for (const uid of ["counts", "a-1-2", "x/../y", "Ü-7-8", "z".repeat(500)]) {
      const name = sharedStateFileName(uid, 3, 42, "0123456789ab");
      expect(isPlainFileName(name)).toBe(true);
      expect(parseSharedStateFileName(name)).toBe(42);
      expect(parseSharedStateFileName(`.${name}.00ff00ff00ff.tmp`)).toBe(42);
    }
    expect(sharedStateFileName("counts", 1, 7, "0123456789ab")).toBe("counts-1-7-0123456789ab.state");
    for (const other of ["counts-1.state", "counts-1-0-0123456789ab.state", "notes.txt", ".counts-1-7-0123456789ab.state.tmp", "counts-1-7-0123456789AB.state"]) {
      expect(parseSharedStateFileName(other)).toBeNull();
    }
  });

  it("ref paths take exactly two forms, nothing that escapes", () => {
    expect(sharedRefFile(checkpointSharedPath("a.state"))).toEqual({ up: true, name: "a.state" });
    expect(sharedRefFile(savepointSharedPath("a.state"))).toEqual({ up: false, name: "a.state" });
    for (const bad of ["a.state", "/shared/a.state", "../../shared/a.state", "../shared/../x", "../shared/a/b", "shared/", "../shared/..", "shared\\a", "../other/a.state", "/etc/passwd"]) {
      expect(sharedRefFile(bad), bad).toBeNull();
    }
  });
});
