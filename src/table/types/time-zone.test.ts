import { describe, expect, it } from "vitest";
import { formatTimestampLtz, parseTimestampLtz, timeZoneOffset } from "./time-zone.ts";
import { parseTimestamp } from "./temporal.ts";

const utc = (text: string) => parseTimestamp(text);

describe("TIMESTAMP_LTZ in a session time zone", () => {
  it("shows instants as wall-clock time of the zone", () => {
    expect(formatTimestampLtz(0, "UTC", 3)).toBe("1970-01-01 00:00:00.000");
    expect(formatTimestampLtz(0, "Asia/Shanghai", 3)).toBe("1970-01-01 08:00:00.000");
    expect(formatTimestampLtz(0, "+05:30")).toBe("1970-01-01 05:30:00");
    expect(formatTimestampLtz(0, "GMT-08:00")).toBe("1969-12-31 16:00:00");
    expect(formatTimestampLtz(utc("2021-07-01 12:00:00"), "America/New_York")).toBe("2021-07-01 08:00:00"); // EDT
    expect(formatTimestampLtz(utc("2021-01-01 12:00:00.250"), "America/New_York", 3)).toBe("2021-01-01 07:00:00.250"); // EST
    expect(formatTimestampLtz(-1, "Asia/Shanghai", 3)).toBe("1970-01-01 07:59:59.999");
  });

  it("reads wall-clock text back to the instant, across DST changes", () => {
    expect(parseTimestampLtz("1970-01-01 08:00:00", "Asia/Shanghai")).toBe(0);
    expect(parseTimestampLtz("2021-07-01 08:00:00", "America/New_York")).toBe(utc("2021-07-01 12:00:00"));
    // 01:30 happens twice on 2021-11-07 in New York: the earlier instant (EDT)
    expect(parseTimestampLtz("2021-11-07 01:30:00", "America/New_York")).toBe(utc("2021-11-07 05:30:00"));
    // 02:30 does not happen on 2021-03-14: read with the offset before the gap (EST), i.e. 03:30 EDT
    expect(parseTimestampLtz("2021-03-14 02:30:00", "America/New_York")).toBe(utc("2021-03-14 07:30:00"));
    expect(formatTimestampLtz(utc("2021-03-14 07:30:00"), "America/New_York")).toBe("2021-03-14 03:30:00");
  });

  it("knows offsets and refuses unknown zones", () => {
    expect(timeZoneOffset(utc("2021-07-01 00:00:00"), "Europe/Berlin")).toBe(2 * 3_600_000);
    expect(timeZoneOffset(utc("2021-01-01 00:00:00"), "Europe/Berlin")).toBe(3_600_000);
    expect(() => timeZoneOffset(0, "Mars/Olympus")).toThrow(/unknown time zone 'Mars\/Olympus'/);
  });
});
