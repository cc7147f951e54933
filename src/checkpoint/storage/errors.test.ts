import { describe, expect, it } from "vitest";
import { StateSizeLimitExceededError } from "./errors.ts";
import { formatSize } from "./format-size.ts";

describe("formatSize", () => {
  it("uses binary units with one decimal at most", () => {
    expect(formatSize(100)).toBe("100 bytes");
    expect(formatSize(1536)).toBe("1.5 KB");
    expect(formatSize(5 * 1024 * 1024)).toBe("5 MB");
    expect(formatSize(7_654_321)).toBe("7.3 MB");
  });
});

describe("StateSizeLimitExceededError", () => {
  it("names the operator, subtask, size and limit", () => {
    const error = new StateSizeLimitExceededError("counts", 2, 7_654_321, 5 * 1024 * 1024);
    expect(error.message).toBe(
      "state of operator 'counts' (subtask 2) is 7.3 MB, over the jobmanager storage limit of 5 MB per operator state; " +
        "use filesystem checkpoint storage or raise maxStateSize",
    );
    expect(error).toMatchObject({ operatorUid: "counts", subtaskIndex: 2, size: 7_654_321, limit: 5 * 1024 * 1024 });
  });

  it("gives exact bytes when rounding would make size and limit look equal", () => {
    expect(new StateSizeLimitExceededError("x", 0, 5 * 1024 * 1024 + 1, 5 * 1024 * 1024).message).toContain(
      "is 5242881 bytes, over the jobmanager storage limit of 5242880 bytes",
    );
  });
});
