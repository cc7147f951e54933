/**
 * SQL type text such as `"BIGINT"`, `"DECIMAL(10, 2)"` or
 * `"ROW<a INT, b STRING> NOT NULL"` read into a {@link LogicalType}, with
 * the parser of column types (for declared types of user-defined functions).
 */
import { parseDataType } from "../sql/parse-type.ts";
import { TokenCursor } from "../sql/token-cursor.ts";
import { toLogicalType, type LogicalType } from "../types/logical-type.ts";

/**
 * The logical type that `text` names.
 *
 * @throws SqlParseError when `text` is not one SQL data type
 * @example
 * ```ts
 * parseSqlType("DECIMAL(10, 2)"); // { kind: "decimal", precision: 10, scale: 2, nullable: true }
 * ```
 */
export function parseSqlType(text: string): LogicalType {
  const c = new TokenCursor(text);
  const t = parseDataType(c);
  if (!c.atEnd()) throw c.expected("end of the type");
  return toLogicalType(t);
}
