import { describe, expect, it } from "vitest";
import { randomInt, seededRandom, testSeed } from "../../util/seeded-random.ts";
import {
  civilFromDays,
  daysFromCivil,
  formatDate,
  formatIntervalDayTime,
  formatIntervalYearMonth,
  formatTime,
  formatTimestamp,
  isLeapYear,
  parseDate,
  parseTime,
  parseTimestamp,
  TemporalParseError,
} from "./temporal.ts";

/** The ISO text JavaScript's Date gives for epoch ms, in Flink's SQL format with 3 fraction digits (years 0–9999). */
function viaDate(ms: number): string {
  const iso = new Date(ms).toISOString(); // yyyy-MM-ddTHH:mm:ss.sssZ
  return iso.slice(0, 10) + " " + iso.slice(11, 23);
}

describe("DATE", () => {
  it.each([
    [0, "1970-01-01"],
    [-1, "1969-12-31"],
    [18_321, "2020-02-29"],
    [11_016, "2000-02-29"],
    [-25_509, "1900-02-28"],
    [-719_528, "0000-01-01"],
    [2_932_896, "9999-12-31"],
  ])("day %i is %s and back", (days, text) => {
    expect(formatDate(days)).toBe(text);
    expect(parseDate(text)).toBe(days);
  });

  it("knows leap years (every 4th, not centuries, but every 400th)", () => {
    expect([1900, 2000, 2020, 2021, 2100, 2400].map(isLeapYear)).toEqual([false, true, true, false, false, true]);
    expect(() => parseDate("2021-02-29")).toThrow(new TemporalParseError("DATE", "2021-02-29", "2021-02 has no day 29"));
    expect(() => parseDate("1900-02-29")).toThrow(/1900-02 has no day 29/);
    expect(parseDate("2000-02-29")).toBe(11_016);
    expect(() => parseDate("2020-13-01")).toThrow(/month 13/);
    expect(() => parseDate("2020-04-31")).toThrow(/no day 31/);
  });

  it("accepts one-digit month and day, refuses junk", () => {
    expect(parseDate("2020-4-5")).toBe(parseDate("2020-04-05"));
    expect(() => parseDate("2020/04/05")).toThrow(/expected yyyy-MM-dd/);
    expect(() => parseDate("2020-04-05x")).toThrow(/unexpected "x"/);
  });

  it("day numbers and civil dates are inverse over every day of years 0–9999 (sampled) and agree with Date", () => {
    const seed = testSeed();
    const random = seededRandom(seed);
    for (let i = 0; i < 5_000; i++) {
      const days = randomInt(random, -719_528, 2_932_896);
      const { year, month, day } = civilFromDays(days);
      expect(daysFromCivil(year, month, day), `seed ${seed}`).toBe(days);
      expect(formatDate(days), `seed ${seed}`).toBe(viaDate(days * 86_400_000).slice(0, 10));
    }
  });
});

describe("TIME", () => {
  it("formats with the given precision and parses back", () => {
    expect(formatTime(0)).toBe("00:00:00");
    expect(formatTime(45_296_789)).toBe("12:34:56");
    expect(formatTime(45_296_789, 3)).toBe("12:34:56.789");
    expect(formatTime(45_296_789, 1)).toBe("12:34:56.7");
    expect(formatTime(86_399_999, 3)).toBe("23:59:59.999");
    expect(parseTime("12:34:56.789")).toBe(45_296_789);
    expect(parseTime("12:34")).toBe(45_240_000);
    expect(parseTime("1:02:03.4")).toBe(3_723_400);
    expect(() => parseTime("24:00:00")).toThrow(/out of range/);
    expect(() => parseTime("12-34")).toThrow(/expected HH:mm/);
  });
});

describe("TIMESTAMP text (yyyy-MM-dd HH:mm:ss[.fff])", () => {
  it.each([
    [0, "1970-01-01 00:00:00.000"],
    [-1, "1969-12-31 23:59:59.999"],
    [-86_400_000, "1969-12-31 00:00:00.000"],
    [1_586_937_900_000, "2020-04-15 08:05:00.000"],
    [951_782_400_000, "2000-02-29 00:00:00.000"],
    [-2_208_988_800_001, "1899-12-31 23:59:59.999"],
    [-62_167_219_200_000, "0000-01-01 00:00:00.000"],
    [253_402_300_799_999, "9999-12-31 23:59:59.999"],
  ])("%i ↔ %s", (ms, text) => {
    expect(formatTimestamp(ms, 3)).toBe(text);
    expect(parseTimestamp(text)).toBe(ms);
  });

  it("without a precision writes as few fraction digits as needed (the json format)", () => {
    expect(formatTimestamp(1_586_937_900_000)).toBe("2020-04-15 08:05:00");
    expect(formatTimestamp(1_586_937_900_500)).toBe("2020-04-15 08:05:00.5");
    expect(formatTimestamp(1_586_937_900_120)).toBe("2020-04-15 08:05:00.12");
    expect(formatTimestamp(-1)).toBe("1969-12-31 23:59:59.999");
    expect(formatTimestamp(1_586_937_900_123, 0)).toBe("2020-04-15 08:05:00");
    expect(formatTimestamp(1_586_937_900_123, 6)).toBe("2020-04-15 08:05:00.123000");
  });

  it("parses date-only text, a T separator, short fractions, and truncates beyond milliseconds", () => {
    expect(parseTimestamp("2020-04-15")).toBe(1_586_908_800_000);
    expect(parseTimestamp("2020-04-15T08:05:00")).toBe(1_586_937_900_000);
    expect(parseTimestamp("2020-04-15 08:05")).toBe(1_586_937_900_000);
    expect(parseTimestamp("2020-04-15 08:05:00.5")).toBe(1_586_937_900_500);
    expect(parseTimestamp("2020-04-15 08:05:00.123456789")).toBe(1_586_937_900_123);
    expect(parseTimestamp("1969-12-31 23:59:59.9999")).toBe(-1);
    expect(() => parseTimestamp("2020-04-15X08:05:00")).toThrow(/expected a space/);
    expect(() => parseTimestamp("2019-02-29 00:00:00")).toThrow(/2019-02 has no day 29/);
    expect(() => parseTimestamp("2020-04-15 08:61:00")).toThrow(/out of range/);
  });

  it("round-trips random instants of years 0–9999 (negative epochs included) and agrees with Date", () => {
    const seed = testSeed();
    const random = seededRandom(seed);
    for (let i = 0; i < 5_000; i++) {
      const ms = Math.floor(-62_167_219_200_000 + random() * (253_402_300_799_999 + 62_167_219_200_000));
      const text = formatTimestamp(ms, 3);
      expect(text, `seed ${seed}`).toBe(viaDate(ms));
      expect(parseTimestamp(text), `seed ${seed}`).toBe(ms);
      expect(parseTimestamp(formatTimestamp(ms)), `seed ${seed}`).toBe(ms);
    }
  });
});

describe("INTERVAL text", () => {
  it("day-time and year-month as Flink prints them", () => {
    expect(formatIntervalDayTime(90_061_001)).toBe("+1 01:01:01.001");
    expect(formatIntervalDayTime(-1000)).toBe("-0 00:00:01.000");
    expect(formatIntervalYearMonth(14)).toBe("+1-02");
    expect(formatIntervalYearMonth(-3)).toBe("-0-03");
  });
});
