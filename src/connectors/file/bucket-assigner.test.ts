import { describe, expect, it } from "vitest";
import { BucketAssigners, bucketDirectory, formatDateTime, toBucketAssigner } from "./bucket-assigner.ts";
import { InvalidBucketPathError } from "./file-sink-errors.ts";

describe("bucket assigners", () => {
  it("formats date patterns with quoted text and nested directories", () => {
    const t = Date.UTC(2024, 0, 5, 7, 8, 9, 12);
    expect(formatDateTime("yyyy-MM-dd--HH", t, true)).toBe("2024-01-05--07");
    expect(formatDateTime("yy/MM/dd'T'HH:mm:ss.SSS", t, true)).toBe("24/01/05T07:08:09.012");
  });

  it("buckets by event time when given a timestamp, by processing time otherwise, by function, or not at all", () => {
    const byEvent = BucketAssigners.dateTime<{ ts: number }>("yyyy-MM-dd", { timestampOf: (r) => r.ts });
    expect(byEvent.bucketId({ ts: Date.UTC(2023, 11, 31, 23) }, Date.UTC(2024, 5, 1))).toBe("2023-12-31");
    expect(BucketAssigners.dateTime("HH").bucketId("x", Date.UTC(2024, 5, 1, 13))).toBe("13");
    expect(toBucketAssigner((r: string) => `k=${r}`).bucketId("v", 0)).toBe("k=v");
    expect(toBucketAssigner<string>(undefined).bucketId("v", 0)).toBe("");
  });

  it("keeps buckets inside the base path", () => {
    expect(bucketDirectory("/out", "", "u")).toBe("/out");
    expect(bucketDirectory("/out", "a/b", "u")).toBe("/out/a/b");
    expect(() => bucketDirectory("/out", "/etc", "u")).toThrow(InvalidBucketPathError);
    expect(() => bucketDirectory("/out", "a/../../x", "u")).toThrow(/file sink 'u' \(base path '\/out'\): bucket 'a\/..\/..\/x'/);
  });
});
