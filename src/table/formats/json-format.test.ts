import { describe, expect, it } from "vitest";
import { MalformedRecord } from "../../connectors/file/record-format.ts";
import { Row } from "../data/row.ts";
import { RowKind } from "../data/row-kind.ts";
import type { SqlValue } from "../types/sql-value.ts";
import { decodeText, formatOfTable } from "./test-format-util.ts";

const ALL_TYPES = `CREATE TABLE t (
  b BOOLEAN, ti TINYINT, si SMALLINT, i INT, bi BIGINT, f FLOAT, d DOUBLE,
  dec DECIMAL(38, 10), small DECIMAL(5, 2), c CHAR(3), s STRING, bs BYTES, dt DATE, tm TIME(3),
  ts TIMESTAMP(3), ltz TIMESTAMP_LTZ(3), arr ARRAY<INT>, m MAP<STRING, BIGINT>, r ROW<x INT, tags ARRAY<STRING>>
) WITH ('connector' = 'filesystem', 'path' = 'p', 'format' = 'json'`;

const dec = (unscaled: bigint, scale: number) => ({ unscaled, scale });

const full: SqlValue[] = [
  true, -128, 32767, -2147483648, 9007199254740993n, 1.5, 1e7,
  dec(123456789012345678900123456789n, 10), dec(-1250n, 2), "abc", 'quote " comma , newline \n ünï', new Uint8Array([0, 255, 7]), -1, 45_296_789,
  -1, 1_586_937_900_500, [1, null, -3], new Map<SqlValue, SqlValue>([["a", 9223372036854775807n], ["b", null]]), [7, ["x", null]],
];
const edge: SqlValue[] = [
  false, 127, -32768, 2147483647, -9223372036854775808n, -0.25, 0.1,
  dec(1n, 10), dec(99999n, 2), "", "", new Uint8Array([]), 18_321, 0,
  1_586_937_900_000, 0, [], new Map(), [null, []],
];
const nulls: SqlValue[] = full.map(() => null);

describe("json format", () => {
  it("round-trips every type, exact DECIMAL and BIGINT beyond 2^53, NULLs and nested types", () => {
    const { format } = formatOfTable(ALL_TYPES + ")");
    const rows = [full, edge, nulls].map((f) => Row.of(...f));
    const text = rows.map((r) => format.encode(r) + "\n").join("");
    expect(decodeText(format, text)).toEqual(rows);
  });

  it("writes Flink's representations", () => {
    const { format } = formatOfTable(ALL_TYPES + ")");
    expect(format.encode(Row.of(...full))).toBe(
      '{"b":true,"ti":-128,"si":32767,"i":-2147483648,"bi":9007199254740993,"f":1.5,"d":1.0E7,' +
        '"dec":12345678901234567890.0123456789,"small":-12.50,"c":"abc","s":"quote \\" comma , newline \\n ünï","bs":"AP8H","dt":"1969-12-31","tm":"12:34:56.789",' +
        '"ts":"1969-12-31 23:59:59.999","ltz":"2020-04-15 08:05:00.5Z","arr":[1,null,-3],"m":{"a":9223372036854775807,"b":null},"r":{"x":7,"tags":["x",null]}}',
    );
    expect(format.encode(Row.of(...edge))).toContain('"dec":1E-10');
  });

  it("writes a FLOAT as its shortest text, reads numbers in Java's forms only", () => {
    const { format } = formatOfTable(`CREATE TABLE t (f FLOAT, d DOUBLE, i INT) WITH ('connector' = 'filesystem', 'path' = 'p', 'format' = 'json')`);
    const row = Row.of(Math.fround(0.1), Number.NaN, 0);
    expect(format.encode(row)).toBe('{"f":0.1,"d":"NaN","i":0}');
    expect(decodeText(format, format.encode(row))).toEqual([row]);
    expect(decodeText(format, '{"f": "-Infinity", "d": "1e400", "i": -0}')).toEqual([Row.of(-Infinity, Infinity, 0)]);
    expect((decodeText(format, '{"d": "0x10"}')[0] as MalformedRecord).reason).toBe(`field 'd': cannot read "0x10" as DOUBLE`);
  });

  it("ISO-8601 timestamps, plain decimals and omitted NULL fields when asked", () => {
    const { format } = formatOfTable(`CREATE TABLE t (ts TIMESTAMP(3), ltz TIMESTAMP_LTZ(3), d DECIMAL(20, 12), n INT, r ROW<a INT, b INT>)
      WITH ('connector' = 'filesystem', 'path' = 'p', 'format' = 'json', 'json.timestamp-format.standard' = 'ISO-8601',
            'json.encode.decimal-as-plain-number' = 'true', 'json.encode.ignore-null-fields' = 'true')`);
    const row = Row.of(1_586_937_900_000, 1_586_937_900_123, dec(1n, 12), null, [null, 2]);
    const line = format.encode(row);
    expect(line).toBe('{"ts":"2020-04-15T08:05:00","ltz":"2020-04-15T08:05:00.123Z","d":0.000000000001,"r":{"b":2}}');
    expect(decodeText(format, line)).toEqual([row]);
  });

  it("reads numbers given as strings, any JSON as STRING, rounds DECIMAL to its scale, ignores unknown fields", () => {
    const { format } = formatOfTable(`CREATE TABLE t (i INT, bi BIGINT, s STRING, d DECIMAL(5, 2), b BOOLEAN)
      WITH ('connector' = 'filesystem', 'path' = 'p', 'format' = 'json')`);
    const text = '{"i": "42", "bi": "-9223372036854775808", "s": {"k": [1.50]}, "d": 1.005, "b": "TRUE", "extra": 1}\n\n{"i": 1}';
    expect(decodeText(format, text)).toEqual([
      Row.of(42, -9223372036854775808n, '{"k":[1.50]}', dec(101n, 2), true),
      Row.of(1, null, null, null, null),
    ]);
  });

  it("a malformed line names its line and the problem: column for syntax, field for values", () => {
    const { format } = formatOfTable(`CREATE TABLE t (id INT, ts TIMESTAMP(3), r ROW<price DECIMAL(4, 2)>)
      WITH ('connector' = 'filesystem', 'path' = 'p', 'format' = 'json')`);
    const text = ['{"id": 1}', '{"id": 2,}', '{"id": "x"}', '{"ts": "2020-04-15T08:05:00"}', '{"r": {"price": 123.4}}', "[1]", '{"id": 3000000000}'].join("\n");
    const out = decodeText(format, text);
    expect(out[0]).toEqual(Row.of(1, null, null));
    const bad = out.slice(1) as MalformedRecord[];
    expect(bad.every((b) => b instanceof MalformedRecord)).toBe(true);
    expect(bad.map((b) => [b.line, b.reason])).toEqual([
      [2, "invalid JSON at column 10: expected a double-quoted property name"],
      [3, `field 'id': cannot read "x" as INT`],
      [4, `field 'ts': cannot read "2020-04-15T08:05:00" as TIMESTAMP(3) (expected a timestamp yyyy-MM-dd HH:mm:ss[.fff] (timestamp-format.standard SQL))`],
      [5, `field 'r.price': cannot read "123.4" as DECIMAL(4, 2) (more than 2 digits before the point)`],
      [6, "expected a JSON object, got [1]"],
      [7, `field 'id': cannot read "3000000000" as INT (out of range)`],
    ]);
  });

  it("fail-on-missing-field fails on a missing field; ignore-parse-errors skips bad lines and nulls bad fields", () => {
    const strict = formatOfTable(`CREATE TABLE t (a INT, b INT) WITH ('connector' = 'filesystem', 'path' = 'p', 'format' = 'json', 'json.fail-on-missing-field' = 'true')`);
    expect((decodeText(strict.format, '{"a": 1}')[0] as MalformedRecord).reason).toBe("field 'b': the field is missing");
    const lenient = formatOfTable(`CREATE TABLE t (a INT, b INT) WITH ('connector' = 'filesystem', 'path' = 'p', 'format' = 'json', 'json.ignore-parse-errors' = 'true')`);
    expect(decodeText(lenient.format, '{"a": 1, "b": 2}\n{oops\n{"a": "x", "b": 3}\n')).toEqual([Row.of(1, 2), Row.of(null, 3)]);
    expect(() =>
      formatOfTable(`CREATE TABLE t (a INT) WITH ('connector' = 'filesystem', 'path' = 'p', 'format' = 'json', 'json.ignore-parse-errors' = 'true', 'json.fail-on-missing-field' = 'true')`),
    ).toThrow("fail-on-missing-field and ignore-parse-errors shouldn't both be true");
  });

  it("map NULL keys: FAIL names the option, DROP and LITERAL write", () => {
    const table = (mode: string) =>
      formatOfTable(`CREATE TABLE t (m MAP<STRING, INT>) WITH ('connector' = 'filesystem', 'path' = 'p', 'format' = 'json', 'json.map-null-key.mode' = '${mode}', 'json.map-null-key.literal' = 'N/A')`).format;
    const row = Row.of(new Map<SqlValue, SqlValue>([[null, 1], ["k", 2]]));
    expect(() => table("FAIL").encode(row)).toThrow("set 'json.map-null-key.mode' to 'DROP' or 'LITERAL'");
    expect(table("DROP").encode(row)).toBe('{"m":{"k":2}}');
    expect(table("LITERAL").encode(row)).toBe('{"m":{"N/A":1,"k":2}}');
  });

  it("writes only inserts, and refuses types it cannot hold", () => {
    const { format } = formatOfTable(`CREATE TABLE t (a INT) WITH ('connector' = 'filesystem', 'path' = 'p', 'format' = 'json')`);
    expect(() => format.encode(Row.ofKind(RowKind.DELETE, 1))).toThrow("the 'json' format writes only inserts (+I), got -D[1]");
    expect(() => formatOfTable(`CREATE TABLE t (a INTERVAL DAY) WITH ('connector' = 'filesystem', 'path' = 'p', 'format' = 'json')`)).toThrow(
      "The 'json' format does not support the type INTERVAL DAY (column 'a').",
    );
  });
});
