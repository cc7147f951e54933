/**
 * The formats of the `filesystem` connector by identifier: `json`, `csv`,
 * `debezium-json`, `canal-json`, `raw`.
 */
import type { OptionValue } from "../../config/config-option.ts";
import type { RowType } from "../expr/type-rules.ts";
import { SqlValidationError } from "../validation/sql-validation-error.ts";
import { canalJsonFormat } from "./canal-json-format.ts";
import { csvFormat } from "./csv-format.ts";
import { debeziumJsonFormat } from "./debezium-json-format.ts";
import { jsonFormat } from "./json-format.ts";
import { rawFormat } from "./raw-format.ts";
import type { TableFormat } from "./table-format.ts";

const FORMATS: Readonly<Record<string, (rowType: RowType, options: ReadonlyMap<string, OptionValue>, projection?: readonly number[]) => TableFormat>> = {
  json: jsonFormat,
  csv: csvFormat,
  "debezium-json": debeziumJsonFormat,
  "canal-json": canalJsonFormat,
  raw: rawFormat,
};

/**
 * The format `identifier` for a table's physical row type, from its validated
 * options (unprefixed keys, defaults filled in: `ValidatedTableOptions.format`).
 * With `projection` (the columns a query reads), a source's rows have NULL in the others.
 *
 * @throws {SqlValidationError} for an unknown format, contradicting options or an unsupported column type
 * @example
 * ```ts
 * const format = createTableFormat(validated.format!.identifier, physicalType, validated.format!.options);
 * ```
 */
export function createTableFormat(identifier: string, rowType: RowType, options: ReadonlyMap<string, OptionValue>, projection?: readonly number[]): TableFormat {
  const create = FORMATS[identifier];
  if (create === undefined) {
    throw new SqlValidationError(`The 'filesystem' connector has no format '${identifier}'; available: ${Object.keys(FORMATS).sort().join(", ")}.`);
  }
  return create(rowType, options, projection);
}
