/**
 * The `debezium-json` format: changelogs as Debezium's JSON change events,
 * one per line (Flink's `debezium-json`). Reading: `op` `c` (create) and `r`
 * (snapshot read) give `+I` of `after`; `u` gives `-U` of `before` then `+U`
 * of `after`; `d` gives `-D` of `before`. Writing, as Flink's
 * `DebeziumJsonSerializationSchema`: `+I` and `+U` rows become
 * `{"before":null,"after":{…},"op":"c"}`, `-U` and `-D` rows
 * `{"before":{…},"after":null,"op":"d"}`, so the folded changelog read back
 * is the table written. Its changelog mode is every kind, both ways.
 *
 * `before`/`after` hold the row as the `json` format writes it (see
 * `json-value-codec.ts`). With `'debezium-json.schema-include' = 'true'` each
 * event is Debezium's `{"schema": …, "payload": {…}}` envelope (read only).
 * `ignore-parse-errors` skips events that do not parse and reads fields that
 * do not read as their type as NULL.
 *
 * @example
 * ```sql
 * CREATE TABLE counts (`user` STRING, cnt BIGINT)
 * WITH ('connector' = 'filesystem', 'path' = 'out/', 'format' = 'debezium-json');
 * INSERT INTO counts SELECT `user`, COUNT(*) FROM clicks GROUP BY `user`;
 * -- out/part-…: {"before":null,"after":{"user":"Mary","cnt":1},"op":"c"}
 * --             {"before":{"user":"Mary","cnt":1},"after":null,"op":"d"}
 * --             {"before":null,"after":{"user":"Mary","cnt":2},"op":"c"}
 * ```
 */
import { lineFormat, MalformedRecordError, skipMalformed } from "../../connectors/file/record-format.ts";
import type { OptionValue } from "../../config/config-option.ts";
import type { Row } from "../data/row.ts";
import { isAccumulate, RowKind } from "../data/row-kind.ts";
import type { RowType } from "../expr/type-rules.ts";
import { ChangelogMode } from "../plan/changelog-mode.ts";
import type { SqlValue } from "../types/sql-value.ts";
import { jsonCodecOptions, parseJsonLine, readOrMalformed } from "./json-format.ts";
import type { JsonNode } from "./json-text.ts";
import { jsonRowReader, jsonRowWriter } from "./json-value-codec.ts";
import type { TableFormat } from "./table-format.ts";

/**
 * The `debezium-json` format of a table with physical row type `rowType`.
 *
 * @throws {SqlValidationError} for a column type JSON cannot hold (the `filesystem` sink refuses `schema-include`)
 * @example
 * ```ts
 * const f = debeziumJsonFormat(rowType, new Map());
 * f.encode(Row.ofKind(RowKind.DELETE, "Mary", 1n)); // '{"before":{"user":"Mary","cnt":1},"after":null,"op":"d"}'
 * ```
 */
export function debeziumJsonFormat(rowType: RowType, options: ReadonlyMap<string, OptionValue>, projection?: readonly number[]): TableFormat {
  const o = jsonCodecOptions("debezium-json", options);
  const schemaInclude = options.get("schema-include") === true;
  const read = jsonRowReader(rowType, o, projection);
  const write = jsonRowWriter(rowType, o);
  const image = (event: Map<string, JsonNode>, name: "before" | "after", op: string): SqlValue[] => {
    const node = event.get(name);
    if (node === undefined || node === null) {
      const hint = op === "u" && name === "before" ? " (a Debezium Postgres table needs REPLICA IDENTITY FULL for it)" : "";
      throw new MalformedRecordError(`the "${name}" field of an op "${op}" event is null${hint}`);
    }
    return readOrMalformed(() => read(node));
  };
  const lines = lineFormat(true, (line): Row[] => {
    let event = parseJsonLine(line);
    if (schemaInclude) {
      if (!(event instanceof Map) || !(event.get("payload") instanceof Map)) {
        throw new MalformedRecordError(`expected Debezium's {"schema": …, "payload": {…}} envelope ('debezium-json.schema-include' is true)`);
      }
      event = event.get("payload")!;
    }
    if (!(event instanceof Map)) throw new MalformedRecordError("expected a Debezium change event: a JSON object with \"op\", \"before\" and \"after\"");
    const op = event.get("op");
    switch (op) {
      case "c":
      case "r":
        return [{ kind: RowKind.INSERT, fields: image(event, "after", op) }];
      case "u":
        return [
          { kind: RowKind.UPDATE_BEFORE, fields: image(event, "before", op) },
          { kind: RowKind.UPDATE_AFTER, fields: image(event, "after", op) },
        ];
      case "d":
        return [{ kind: RowKind.DELETE, fields: image(event, "before", op) }];
      default:
        throw new MalformedRecordError(`unknown "op" value ${op === undefined ? "(missing)" : JSON.stringify(op)}: expected "c", "r", "u" or "d"`);
    }
  });
  return {
    identifier: "debezium-json",
    changelogMode: ChangelogMode.RETRACT,
    records: o.nullOnFieldError ? skipMalformed(lines) : lines,
    encode(row) {
      const text = write(row.fields);
      return isAccumulate(row.kind) ? `{"before":null,"after":${text},"op":"c"}` : `{"before":${text},"after":null,"op":"d"}`;
    },
  };
}
