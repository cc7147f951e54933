import { describe, expect, it } from "vitest";
import { MalformedRecord } from "../../connectors/file/record-format.ts";
import { Row } from "../data/row.ts";
import { RowKind } from "../data/row-kind.ts";
import type { SqlValue } from "../types/sql-value.ts";
import { decodeText, formatOfTable } from "./test-format-util.ts";

const COLUMNS = `b BOOLEAN, ti TINYINT, si SMALLINT, i INT, bi BIGINT, f FLOAT, d DOUBLE, dec DECIMAL(38, 10),
  c CHAR(3), s STRING, bs BYTES, dt DATE, tm TIME(3), ts TIMESTAMP(3), ltz TIMESTAMP_LTZ(3), arr ARRAY<BIGINT>`;
const table = (options = "") => formatOfTable(`CREATE TABLE t (${COLUMNS}) WITH ('connector' = 'filesystem', 'path' = 'p', 'format' = 'csv'${options})`);
const dec = (unscaled: number | bigint, scale: number) => ({ unscaled: BigInt(unscaled), scale });

const full: SqlValue[] = [
  true, -128, 32767, -2147483648, 9007199254740993n, 1.5, 1e7, dec(123456789012345678900123456789n, 10),
  "abc", 'a "quoted", multi\nline text', new Uint8Array([0, 255, 7]), -1, 45_296_789, -1, 1_586_937_900_500, [1, -9223372036854775808n],
];
const edge: SqlValue[] = [false, 127, -32768, 2147483647, -9223372036854775808n, -0.25, 0.1, dec(1, 10), "#no", "", new Uint8Array([]), 18_321, 0, 0, 0, [null, 3]];
const nulls: SqlValue[] = full.map(() => null);

describe("csv format", () => {
  it("round-trips every supported type with a null literal: exact DECIMAL and BIGINT, quoted fields, NULLs", () => {
    const { format } = table(", 'csv.null-literal' = '\\N', 'csv.allow-comments' = 'true'");
    const rows = [full, edge, nulls].map((f) => Row.of(...f));
    const text = rows.map((r) => format.encode(r) + "\n").join("");
    expect(decodeText(format, text)).toEqual(rows);
  });

  it("writes fields in column order, quoting only when needed; NULL is empty without a null literal", () => {
    const { format } = table(", 'csv.field-delimiter' = ';'");
    expect(format.encode(Row.of(...full))).toBe(
      'true;-128;32767;-2147483648;9007199254740993;1.5;1.0E7;12345678901234567890.0123456789;abc;"a ""quoted"", multi\nline text";AP8H;1969-12-31;12:34:56.789;1969-12-31 23:59:59.999;2020-04-15 08:05:00.5Z;"1;-9223372036854775808"',
    );
    expect(format.encode(Row.of(...nulls))).toBe(";".repeat(15));
    // an empty field is NULL, but an empty STRING or BYTES field is empty
    expect(decodeText(format, ";".repeat(15))).toEqual([Row.of(...nulls.slice(0, 8), "", "", new Uint8Array([]), ...nulls.slice(11))]);
  });

  it("tab delimiter, comments, plain decimals", () => {
    const { format } = formatOfTable(`CREATE TABLE t (a STRING, d DECIMAL(20, 12)) WITH ('connector' = 'filesystem', 'path' = 'p', 'format' = 'csv',
      'csv.field-delimiter' = '\\t', 'csv.allow-comments' = 'true', 'csv.write-bigdecimal-in-scientific-notation' = 'false')`);
    expect(format.encode(Row.of("x", dec(1, 12)))).toBe("x\t0.000000000001");
    expect(decodeText(format, "# a comment, with a delimiter\nx\t1E-12\n#another\n")).toEqual([Row.of("x", dec(1, 12))]);
  });

  it("a malformed record names its line and column; ignore-parse-errors skips it and nulls bad fields", () => {
    const strict = formatOfTable(`CREATE TABLE t (id INT, amount DECIMAL(5, 2)) WITH ('connector' = 'filesystem', 'path' = 'p', 'format' = 'csv')`);
    const text = '1,2.50\n2,abc\n3\n4,"unterminated\n';
    const out = decodeText(strict.format, text);
    expect(out[0]).toEqual(Row.of(1, dec(250, 2)));
    expect((out.slice(1) as MalformedRecord[]).map((m) => [m.line, m.reason])).toEqual([
      [2, `column 2 ('amount'): cannot read "abc" as DECIMAL(5, 2)`],
      [3, "expected 2 columns, got 1"],
      [4, "unterminated quoted field (column 2)"],
    ]);
    const lenient = formatOfTable(`CREATE TABLE t (id INT, amount DECIMAL(5, 2)) WITH ('connector' = 'filesystem', 'path' = 'p', 'format' = 'csv', 'csv.ignore-parse-errors' = 'true')`);
    expect(decodeText(lenient.format, "1,2.50\n2,abc\n3\n5,1\n")).toEqual([Row.of(1, dec(250, 2)), Row.of(2, null), Row.of(5, dec(100, 2))]);
  });

  it("refuses what it cannot do, by name", () => {
    const opts = (o: string, cols = "a INT") => () => formatOfTable(`CREATE TABLE t (${cols}) WITH ('connector' = 'filesystem', 'path' = 'p', 'format' = 'csv'${o})`);
    expect(opts(", 'csv.quote-character' = ''''")).toThrow("supports only '\"' as 'csv.quote-character'");
    expect(opts(", 'csv.escape-character' = '\\'")).toThrow("does not support 'csv.escape-character'");
    expect(opts("", "a ROW<x INT>")).toThrow("The 'csv' format does not support the type ROW<`x` INT> (column 'a').");
    expect(() => table().format.encode(Row.ofKind(RowKind.UPDATE_AFTER, ...full))).toThrow("the 'csv' format writes only inserts (+I)");
  });
});
