import { describe, expect, it } from "vitest";
import { checkpointDirName, isPlainFileName, parseCheckpointDirName, stateFileName } from "./checkpoint-paths.ts";

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
