import { describe, expect, it } from "vitest";
import { checkPlainData, copyPlainData } from "../../state/plain-copy.ts";
import { decodeStateValue, encodeStateValue } from "../../state/serializer.ts";
import { parseDecimal } from "../types/decimal.ts";
import type { SqlValue } from "../types/sql-value.ts";
import { formatDecimalJava, formatDouble, formatValue } from "./format-value.ts";
import { Row, RowFieldError } from "./row.ts";
import { isAccumulate, isRetract, parseRowKind, RowKind, rowKindName } from "./row-kind.ts";

describe("RowKind", () => {
  it("has Flink's names and short strings", () => {
    expect(RowKind).toEqual({ INSERT: "+I", UPDATE_BEFORE: "-U", UPDATE_AFTER: "+U", DELETE: "-D" });
    expect((["+I", "-U", "+U", "-D"] as const).map(rowKindName)).toEqual(["INSERT", "UPDATE_BEFORE", "UPDATE_AFTER", "DELETE"]);
    expect(parseRowKind("UPDATE_BEFORE")).toBe("-U");
    expect(parseRowKind("-D")).toBe("-D");
    expect(() => parseRowKind("+X")).toThrow(/unknown row kind "\+X": expected one of \+I, -U, \+U, -D/);
    expect(() => parseRowKind("toString")).toThrow(/unknown row kind/);
    expect((["+I", "-U", "+U", "-D"] as const).map(isAccumulate)).toEqual([true, false, true, false]);
    expect((["+I", "-U", "+U", "-D"] as const).map(isRetract)).toEqual([false, true, false, true]);
  });
});

describe("Row", () => {
  it("is built and read with Flink's API", () => {
    const r = Row.of("Mary", 1);
    expect(r).toEqual({ kind: "+I", fields: ["Mary", 1] });
    expect(Row.getKind(r)).toBe("+I");
    expect(Row.getArity(r)).toBe(2);
    expect(Row.getField(r, 0)).toBe("Mary");
    const u = Row.ofKind(RowKind.UPDATE_AFTER, "Mary", 2n);
    expect(Row.getKind(u)).toBe("+U");
    expect(Row.getField(u, 1)).toBe(2n);
    expect(() => Row.ofKind("+X" as RowKind, 1)).toThrow(/not a row kind: "\+X"/);
    expect(Row.isRow(u)).toBe(true);
    expect(Row.isRow({ kind: "+I" })).toBe(false);
    expect(Row.isRow(["+I", 1])).toBe(false);
  });

  it("reads fields by name when it carries names, and says what is missing", () => {
    const r = Row.withNames(["user", "cnt"], ["Mary", 1n]);
    expect(Row.getField(r, "cnt")).toBe(1n);
    expect(Row.getField(r, 0)).toBe("Mary");
    expect(() => Row.getField(r, "url")).toThrow(new RowFieldError("row +I[Mary, 1] has no field 'url': its fields are user, cnt"));
    expect(() => Row.getField(Row.of(1), "x")).toThrow("row +I[1] has no field 'x': it has no field names");
    expect(() => Row.getField(r, 2)).toThrow("row +I[Mary, 1] has no field at position 2 (arity 2)");
    expect(() => Row.withNames(["a"], [1, 2])).toThrow("a row with 1 names needs 1 values, got 2");
  });

  it("prints as Flink does", () => {
    expect(Row.toString(Row.of("Mary", 1))).toBe("+I[Mary, 1]");
    expect(Row.toString(Row.ofKind("-U", "Mary", 1n))).toBe("-U[Mary, 1]");
    expect(Row.toString(Row.ofKind("-D"))).toBe("-D[]");
    expect(Row.toString(Row.of(null, true, "", [1, 2], new Map<SqlValue, SqlValue>([["a", 1]])))).toBe("+I[null, true, , [1, 2], {a=1}]");
    expect(Row.toString(Row.of(parseDecimal("12.30"), 2.5, 3))).toBe("+I[12.30, 2.5, 3]");
    expect(
      Row.toString(Row.of(1, 1_586_937_900_000, 18_367, [1, "x"]), [
        { kind: "DOUBLE" },
        { kind: "TIMESTAMP", precision: 3 },
        { kind: "DATE" },
        { kind: "ROW", fields: [undefined, undefined] },
      ]),
    ).toBe("+I[1.0, 2020-04-15T08:05, 2020-04-15, +I[1, x]]");
  });

  it("is plain data for the engine: the real checks pass, copies are deep, state round-trips it", () => {
    const r: Row = Row.withNames(
      ["s", "n", "big", "dec", "arr", "map", "bytes", "nested"],
      ["Mary", 1.5, 2n ** 70n, parseDecimal("-12345678901234567890123456789.123456789"), [1, null], new Map<SqlValue, SqlValue>([["k", 1n]]), new Uint8Array([1, 2]), [1, ["x"]]],
      RowKind.UPDATE_BEFORE,
    );
    expect(() => checkPlainData(r)).not.toThrow();
    const copy = copyPlainData(r);
    expect(copy).toEqual(r);
    expect(copy.fields).not.toBe(r.fields);
    (copy.fields[4] as SqlValue[]).push(2);
    expect(r.fields[4]).toEqual([1, null]);
    expect(decodeStateValue(encodeStateValue(r))).toEqual(r);
    // the check does refuse a class instance, which is why Row is not one
    class NotPlain {
      readonly x = 1;
    }
    expect(() => checkPlainData({ kind: "+I", fields: [new NotPlain()] })).toThrow(/an instance of class NotPlain at \.fields\[0\]/);
  });
});

describe("value text (Java's toString of Flink's external classes)", () => {
  it("doubles as Java's Double.toString", () => {
    expect([1, -0, 0, 0.1, 1234567.5, 1e7, 1.5e-4, 1e21, -2.5e-10].map(formatDouble)).toEqual([
      "1.0",
      "-0.0",
      "0.0",
      "0.1",
      "1234567.5",
      "1.0E7",
      "1.5E-4",
      "1.0E21",
      "-2.5E-10",
    ]);
    expect([Number.NaN, Number.POSITIVE_INFINITY].map(formatDouble)).toEqual(["NaN", "Infinity"]);
  });

  it("decimals as Java's BigDecimal.toString", () => {
    const f = (text: string) => formatDecimalJava(parseDecimal(text)!);
    expect(f("12.30")).toBe("12.30");
    expect(f("-0.000001")).toBe("-0.000001");
    expect(f("0.0000001")).toBe("1E-7");
    expect(f("0.0000000150")).toBe("1.50E-8");
    expect(f("0.0000000000")).toBe("0E-10");
    expect(f("123456789012345678901234567890")).toBe("123456789012345678901234567890");
  });

  it("dates, times, timestamps and intervals", () => {
    expect(formatValue(0, { kind: "TIME" })).toBe("00:00");
    expect(formatValue(45_296_000, { kind: "TIME" })).toBe("12:34:56");
    expect(formatValue(45_296_500, { kind: "TIME" })).toBe("12:34:56.500");
    expect(formatValue(-1, { kind: "TIMESTAMP" })).toBe("1969-12-31T23:59:59.999");
    expect(formatValue(1_586_937_900_000, { kind: "TIMESTAMP_LTZ" })).toBe("2020-04-15T08:05:00Z");
    expect(formatValue(5_400_000, { kind: "INTERVAL_DAY_TIME" })).toBe("PT1H30M");
    expect(formatValue(90_061_001, { kind: "INTERVAL_DAY_TIME" })).toBe("PT25H1M1.001S");
    expect(formatValue(-500, { kind: "INTERVAL_DAY_TIME" })).toBe("PT-0.5S");
    expect(formatValue(0, { kind: "INTERVAL_DAY_TIME" })).toBe("PT0S");
    expect(formatValue(14, { kind: "INTERVAL_YEAR_MONTH" })).toBe("P1Y2M");
    expect(formatValue(0, { kind: "INTERVAL_YEAR_MONTH" })).toBe("P0D");
    expect(formatValue(new Uint8Array([1, 255]))).toBe("[1, -1]");
    expect(formatValue([[1.5], null], { kind: "ARRAY", element: { kind: "ARRAY", element: { kind: "DOUBLE" } } })).toBe("[[1.5], null]");
  });
});
