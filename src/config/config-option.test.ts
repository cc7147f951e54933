import { describe, expect, it } from "vitest";
import { optionKeyMatches, readOptionValue } from "./config-option.ts";
import { parseDuration } from "./parse-duration.ts";
import { parseMemorySize } from "./parse-memory-size.ts";

describe("parseDuration", () => {
  it("reads Flink's duration text in milliseconds", () => {
    expect(parseDuration("1 s")).toBe(1_000);
    expect(parseDuration("500 ms")).toBe(500);
    expect(parseDuration("1 min")).toBe(60_000);
    expect(parseDuration("2h")).toBe(7_200_000);
    expect(parseDuration("3 DAYS")).toBe(259_200_000);
    expect(parseDuration("10 seconds")).toBe(10_000);
    expect(parseDuration("250")).toBe(250);
    expect(parseDuration(" 5 m ")).toBe(300_000);
  });

  it("rejects what is not a duration", () => {
    for (const t of ["", "s", "1 fortnight", "1.5 s", "-1 s", "1 s 2 ms"]) expect(parseDuration(t), t).toBeUndefined();
  });
});

describe("parseMemorySize", () => {
  it("reads binary units in bytes", () => {
    expect(parseMemorySize("128 mb")).toBe(128 * 1024 * 1024);
    expect(parseMemorySize("1kb")).toBe(1024);
    expect(parseMemorySize("2 GB")).toBe(2 * 1024 ** 3);
    expect(parseMemorySize("512")).toBe(512);
    expect(parseMemorySize("10 parsecs")).toBeUndefined();
    expect(parseMemorySize("mb")).toBeUndefined();
  });
});

describe("readOptionValue", () => {
  it("reads each type or says what it expected", () => {
    expect(readOptionValue({ kind: "int" }, "42")).toEqual({ value: 42 });
    expect(readOptionValue({ kind: "int" }, "4.2")).toEqual({ error: "expected an integer" });
    expect(readOptionValue({ kind: "double" }, "0.25")).toEqual({ value: 0.25 });
    expect(readOptionValue({ kind: "boolean" }, "TRUE")).toEqual({ value: true });
    expect(readOptionValue({ kind: "boolean" }, "yes")).toEqual({ error: "expected 'true' or 'false'" });
    expect(readOptionValue({ kind: "duration" }, "1 min")).toEqual({ value: 60_000 });
    expect(readOptionValue({ kind: "memory" }, "1 kb")).toEqual({ value: 1024 });
    expect(readOptionValue({ kind: "enum", values: ["SQL", "ISO-8601"] }, "iso-8601")).toEqual({ value: "ISO-8601" });
    expect(readOptionValue({ kind: "enum", values: ["SQL", "ISO-8601"] }, "RFC")).toEqual({ error: "expected one of 'SQL', 'ISO-8601'" });
    expect(readOptionValue({ kind: "string" }, " x ")).toEqual({ value: " x " });
  });
});

describe("optionKeyMatches", () => {
  it("matches exact keys and '#' segments of pattern keys", () => {
    expect(optionKeyMatches("path", "path")).toBe(true);
    expect(optionKeyMatches("path", "paths")).toBe(false);
    expect(optionKeyMatches("fields.#.kind", "fields.user_id.kind")).toBe(true);
    expect(optionKeyMatches("fields.#.kind", "fields.kind")).toBe(false);
    expect(optionKeyMatches("fields.#.kind", "fields.a.b.kind")).toBe(false);
    expect(optionKeyMatches("fields.#.max-past", "fieldsXa.max-past")).toBe(false);
  });
});
