import { describe, expect, it } from "vitest";
import { BucketAssigners, bucketDirectory, toBucketAssigner } from "./bucket-assigner.ts";
import { DateTimeBucketAssigner } from "./date-time-bucket-assigner.ts";
import { InvalidBucketPathError } from "./file-sink-errors.ts";

describe("bucket assigners", () => {
  it("formats date patterns with quoted text and nested directories", () => {
    const t = Date.UTC(2024, 0, 5, 7, 8, 9, 12);
    expect(new DateTimeBucketAssigner().formatTime(t)).toBe("2024-01-05--07");
    const detailed = new DateTimeBucketAssigner("yy/MM/dd'T'HH:mm:ss.SSS 'yyyy'");
    expect(detailed.formatTime(t)).toBe("24/01/05T07:08:09.012 yyyy");
    expect(detailed.formatTime(t + 1)).toBe("24/01/05T07:08:09.013 yyyy"); // milliseconds in the pattern: no per-second reuse
  });

  it("formats in an IANA time zone across daylight-saving changes", () => {
    const berlin = new DateTimeBucketAssigner("yyyy-MM-dd--HH", "Europe/Berlin");
    // spring forward, 2024-03-31: 02:00 CET becomes 03:00 CEST at 01:00 UTC, so bucket 02 never exists
    expect(berlin.formatTime(Date.UTC(2024, 2, 31, 0, 59, 59, 999))).toBe("2024-03-31--01");
    expect(berlin.formatTime(Date.UTC(2024, 2, 31, 1, 0, 0, 0))).toBe("2024-03-31--03");
    // fall back, 2024-10-27: 03:00 CEST becomes 02:00 CET at 01:00 UTC, so the hour 02 happens twice, in one bucket
    expect(berlin.formatTime(Date.UTC(2024, 9, 27, 0, 30))).toBe("2024-10-27--02");
    expect(berlin.formatTime(Date.UTC(2024, 9, 27, 1, 30))).toBe("2024-10-27--02");
    expect(berlin.formatTime(Date.UTC(2024, 9, 27, 2, 30))).toBe("2024-10-27--03");
    // a zone with a half-hour offset and one west of UTC, across midnight
    expect(new DateTimeBucketAssigner("yyyy-MM-dd HH:mm", "Asia/Kolkata").formatTime(Date.UTC(2024, 0, 1, 18, 45))).toBe("2024-01-02 00:15");
    expect(new DateTimeBucketAssigner("yyyy-MM-dd", "America/New_York").formatTime(Date.UTC(2024, 0, 1, 3))).toBe("2023-12-31");
  });

  it("rejects a zone id that is not an IANA time zone, naming it", () => {
    expect(() => new DateTimeBucketAssigner("HH", "Europe/Berln")).toThrow(/unknown time zone "Europe\/Berln"; give an IANA zone id/);
    expect(() => BucketAssigners.dateTime("HH", { timeZone: "local" })).toThrow(RangeError);
  });

  it("buckets by event time when given a timestamp, by processing time otherwise, by function, or not at all", () => {
    const byEvent = BucketAssigners.dateTime<{ ts: number }>("yyyy-MM-dd", { timestampOf: (r) => r.ts });
    expect(byEvent.bucketId({ ts: Date.UTC(2023, 11, 31, 23) }, Date.UTC(2024, 5, 1))).toBe("2023-12-31");
    expect(BucketAssigners.dateTime("HH").bucketId("x", Date.UTC(2024, 5, 1, 13))).toBe("13");
    expect(BucketAssigners.dateTime("HH", { timeZone: "Asia/Tokyo" }).bucketId("x", Date.UTC(2024, 5, 1, 13))).toBe("22");
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
