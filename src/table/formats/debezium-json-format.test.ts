import { describe, expect, it } from "vitest";
import { MalformedRecord } from "../../connectors/file/record-format.ts";
import { Row } from "../data/row.ts";
import { RowKind } from "../data/row-kind.ts";
import { decodeText, formatOfTable } from "./test-format-util.ts";

const table = (options = "") =>
  formatOfTable(`CREATE TABLE t (id BIGINT, price DECIMAL(30, 2), tags ARRAY<STRING>)
    WITH ('connector' = 'filesystem', 'path' = 'p', 'format' = 'debezium-json'${options})`);
const dec = (unscaled: number | bigint) => ({ unscaled: BigInt(unscaled), scale: 2 });

describe("debezium-json format", () => {
  it("reads c/r as +I, u as -U then +U, d as -D", () => {
    const { format } = table();
    const text = [
      '{"before": null, "after": {"id": 9007199254740993, "price": 1234567890123456789012345678.90, "tags": ["a"]}, "op": "c"}',
      '{"before": null, "after": {"id": 2, "price": 1.5, "tags": null}, "op": "r", "source": {"db": "x"}}',
      '{"before": {"id": 2, "price": 1.5}, "after": {"id": 2, "price": 2.25, "tags": []}, "op": "u"}',
      '{"before": {"id": 9007199254740993, "price": 1234567890123456789012345678.90, "tags": ["a"]}, "after": null, "op": "d"}',
    ].join("\n");
    expect(decodeText(format, text)).toEqual([
      Row.ofKind(RowKind.INSERT, 9007199254740993n, dec(123456789012345678901234567890n), ["a"]),
      Row.ofKind(RowKind.INSERT, 2, dec(150), null),
      Row.ofKind(RowKind.UPDATE_BEFORE, 2, dec(150), null),
      Row.ofKind(RowKind.UPDATE_AFTER, 2, dec(225), []),
      Row.ofKind(RowKind.DELETE, 9007199254740993n, dec(123456789012345678901234567890n), ["a"]),
    ]);
  });

  it("writes as Flink's DebeziumJsonSerializationSchema, and reads back every kind", () => {
    const { format } = table();
    const rows = [
      Row.ofKind(RowKind.INSERT, 1, dec(100), ["x"]),
      Row.ofKind(RowKind.UPDATE_BEFORE, 1, dec(100), ["x"]),
      Row.ofKind(RowKind.UPDATE_AFTER, 1, dec(200), null),
      Row.ofKind(RowKind.DELETE, 1, dec(200), null),
    ];
    const lines = rows.map((r) => format.encode(r));
    expect(lines).toEqual([
      '{"before":null,"after":{"id":1,"price":1.00,"tags":["x"]},"op":"c"}',
      '{"before":{"id":1,"price":1.00,"tags":["x"]},"after":null,"op":"d"}',
      '{"before":null,"after":{"id":1,"price":2.00,"tags":null},"op":"c"}',
      '{"before":{"id":1,"price":2.00,"tags":null},"after":null,"op":"d"}',
    ]);
    const kinds = decodeText(format, lines.join("\n")).map((r) => (r as Row).kind);
    expect(kinds).toEqual([RowKind.INSERT, RowKind.DELETE, RowKind.INSERT, RowKind.DELETE]);
  });

  it("reads Debezium's schema envelope with schema-include", () => {
    const { format } = table(", 'debezium-json.schema-include' = 'true'");
    expect(decodeText(format, '{"schema": {"type": "struct"}, "payload": {"before": null, "after": {"id": 1}, "op": "c"}}')).toEqual([Row.of(1, null, null)]);
  });

  it("malformed events name the line and the problem; ignore-parse-errors skips them", () => {
    const { format } = table();
    const text = ['{"op": "x", "after": {"id": 1}}', '{"before": null, "after": {"id": 1}, "op": "u"}', '{"after": {"id": "one"}, "op": "c"}', "nope"].join("\n");
    expect((decodeText(format, text) as MalformedRecord[]).map((m) => [m.line, m.reason])).toEqual([
      [1, 'unknown "op" value "x": expected "c", "r", "u" or "d"'],
      [2, 'the "before" field of an op "u" event is null (a Debezium Postgres table needs REPLICA IDENTITY FULL for it)'],
      [3, `field 'id': cannot read "one" as BIGINT`],
      [4, "invalid JSON at column 1: unexpected character \"n\", expected a value"],
    ]);
    const lenient = table(", 'debezium-json.ignore-parse-errors' = 'true'").format;
    expect(decodeText(lenient, text + '\n{"after": {"id": 5}, "op": "c"}')).toEqual([Row.of(null, null, null), Row.of(5, null, null)]);
  });
});
