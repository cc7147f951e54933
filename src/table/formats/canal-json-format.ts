/**
 * The `canal-json` format: changelogs as Alibaba Canal's JSON messages, one
 * per line (Flink's `canal-json`). A message holds the rows of one change
 * in `data`, and for an update the old values of the changed fields in `old`:
 *
 * - `"type": "INSERT"`: `+I` of each element of `data`;
 * - `"type": "UPDATE"`: for each element, `-U` of the row before (the element
 *   of `data` with the fields of the matching element of `old` put back) then
 *   `+U` of the element of `data`;
 * - `"type": "DELETE"`: `-D` of each element of `data`;
 * - `"type": "CREATE"`, or `"isDdl": true`: a schema change, skipped.
 *
 * `canal-json.database.include` and `canal-json.table.include` (regular
 * expressions matched against the whole `database` and `table` fields) keep
 * only the messages of matching tables. Writing, as Flink's
 * `CanalJsonSerializationSchema`: `+I` and `+U` rows become
 * `{"data":[{…}],"type":"INSERT"}`, `-U` and `-D` rows
 * `{"data":[{…}],"type":"DELETE"}`. Field values as the `json` format reads
 * and writes them (Canal's text values such as `"id":"101"` read as their column's type).
 *
 * @example
 * ```sql
 * CREATE TABLE products (id BIGINT, name STRING, weight DECIMAL(10, 3))
 * WITH ('connector' = 'filesystem', 'path' = 'binlog/', 'format' = 'canal-json');
 * -- binlog/a.json: {"data":[{"id":"111","name":"scooter","weight":"5.18"}],"old":[{"weight":"5.15"}],
 * --                 "database":"inventory","table":"products","type":"UPDATE","isDdl":false}
 * -- reads -U[111, scooter, 5.150] and +U[111, scooter, 5.180]
 * ```
 */
import { lineFormat, MalformedRecordError, skipMalformed } from "../../connectors/file/record-format.ts";
import type { OptionValue } from "../../config/config-option.ts";
import type { Row } from "../data/row.ts";
import { isAccumulate, RowKind } from "../data/row-kind.ts";
import type { RowType } from "../expr/type-rules.ts";
import { ChangelogMode } from "../plan/changelog-mode.ts";
import { SqlValidationError } from "../validation/sql-validation-error.ts";
import { jsonCodecOptions, parseJsonLine, readOrMalformed } from "./json-format.ts";
import type { JsonNode } from "./json-text.ts";
import { jsonRowReader, jsonRowWriter } from "./json-value-codec.ts";
import type { TableFormat } from "./table-format.ts";

/** A regular expression option matched against a whole field, or undefined when unset. */
function includePattern(options: ReadonlyMap<string, OptionValue>, key: string): RegExp | undefined {
  const text = options.get(key) as string | undefined;
  if (text === undefined) return undefined;
  try {
    return new RegExp(`^(?:${text})$`);
  } catch (e) {
    throw new SqlValidationError(`Invalid value for option 'canal-json.${key}': '${text}' is not a regular expression (${(e as Error).message}).`);
  }
}

/** The elements of the array field `name` of a message, each a JSON object. */
function objectsOf(message: Map<string, JsonNode>, name: "data" | "old", type: string): Map<string, JsonNode>[] {
  const node = message.get(name);
  if (!Array.isArray(node)) throw new MalformedRecordError(`the "${name}" field of a "${type}" message is ${node === undefined ? "missing" : "not an array"}`);
  return node.map((e, i) => {
    if (!(e instanceof Map)) throw new MalformedRecordError(`element ${i} of the "${name}" field is not a JSON object`);
    return e;
  });
}

/**
 * The `canal-json` format of a table with physical row type `rowType`.
 *
 * @throws {SqlValidationError} for an invalid include pattern or a column type JSON cannot hold
 * @example
 * ```ts
 * const f = canalJsonFormat(rowType, new Map());
 * f.encode(Row.ofKind(RowKind.DELETE, 1n, "a")); // '{"data":[{"id":1,"name":"a"}],"type":"DELETE"}'
 * ```
 */
export function canalJsonFormat(rowType: RowType, options: ReadonlyMap<string, OptionValue>, projection?: readonly number[]): TableFormat {
  const o = jsonCodecOptions("canal-json", options);
  const read = jsonRowReader(rowType, o, projection);
  const write = jsonRowWriter(rowType, o);
  const database = includePattern(options, "database.include");
  const table = includePattern(options, "table.include");
  const rows = (kind: RowKind, nodes: readonly Map<string, JsonNode>[]): Row[] => nodes.map((n) => ({ kind, fields: readOrMalformed(() => read(n)) }));
  const lines = lineFormat(true, (line): Row[] => {
    const message = parseJsonLine(line);
    if (!(message instanceof Map)) throw new MalformedRecordError('expected a Canal message: a JSON object with "data" and "type"');
    if (database !== undefined && !database.test(String(message.get("database")))) return [];
    if (table !== undefined && !table.test(String(message.get("table")))) return [];
    const type = message.get("type");
    if (type === "CREATE" || message.get("isDdl") === true) return [];
    switch (type) {
      case "INSERT":
        return rows(RowKind.INSERT, objectsOf(message, "data", type));
      case "DELETE":
        return rows(RowKind.DELETE, objectsOf(message, "data", type));
      case "UPDATE": {
        const data = objectsOf(message, "data", type);
        const old = objectsOf(message, "old", type);
        if (old.length !== data.length) throw new MalformedRecordError(`an "UPDATE" message has ${data.length} "data" rows but ${old.length} "old" rows`);
        return data.flatMap((after, i) => [
          ...rows(RowKind.UPDATE_BEFORE, [new Map([...after, ...old[i]!])]),
          ...rows(RowKind.UPDATE_AFTER, [after]),
        ]);
      }
      default:
        throw new MalformedRecordError(
          `unknown "type" value ${type === undefined ? "(missing)" : JSON.stringify(type)}: expected "INSERT", "UPDATE", "DELETE" or "CREATE"`,
        );
    }
  });
  return {
    identifier: "canal-json",
    changelogMode: ChangelogMode.RETRACT,
    records: o.nullOnFieldError ? skipMalformed(lines) : lines,
    encode: (row) => `{"data":[${write(row.fields)}],"type":"${isAccumulate(row.kind) ? "INSERT" : "DELETE"}"}`,
  };
}
