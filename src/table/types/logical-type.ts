/**
 * The logical type of a column or an expression: the parser's {@link DataType}
 * without source positions (so a resolved schema compares and prints
 * independently of the statement it came from), plus the type of the untyped
 * `NULL` literal. The one description of SQL types of the catalog, the
 * expressions and the planner.
 */
import type { DataType, TimeUnit } from "../sql/ast.ts";
import { MAX_LENGTH } from "../sql/parse-type.ts";

/** A field of a ROW logical type. */
export interface LogicalRowField {
  name: string;
  type: LogicalType;
}

/** A SQL logical type, as {@link DataType} describes it but without `loc`. */
export type LogicalType = { nullable: boolean } & (
  | { kind: "boolean" | "tinyint" | "smallint" | "int" | "bigint" | "float" | "double" | "date" }
  | { kind: "decimal"; precision: number; scale: number }
  | { kind: "char" | "varchar" | "binary" | "varbinary"; length: number }
  | { kind: "time"; precision: number }
  | { kind: "timestamp"; precision: number; withLocalTimeZone: boolean }
  | { kind: "interval"; from: TimeUnit; to?: TimeUnit }
  | { kind: "row"; fields: LogicalRowField[] }
  | { kind: "array" | "multiset"; element: LogicalType }
  | { kind: "map"; key: LogicalType; value: LogicalType }
  /** The type of a bare `NULL` literal before a context gives it one. */
  | { kind: "null" }
);

/**
 * The logical type a parsed data type describes.
 *
 * @example
 * ```ts
 * toLogicalType(dataTypeFromAst); // { kind: "timestamp", precision: 3, withLocalTimeZone: false, nullable: true }
 * ```
 */
export function toLogicalType(t: DataType): LogicalType {
  switch (t.kind) {
    case "row":
      return { kind: "row", nullable: t.nullable, fields: t.fields.map((f) => ({ name: f.name.value, type: toLogicalType(f.type) })) };
    case "array":
    case "multiset":
      return { kind: t.kind, nullable: t.nullable, element: toLogicalType(t.element) };
    case "map":
      return { kind: "map", nullable: t.nullable, key: toLogicalType(t.key), value: toLogicalType(t.value) };
    default: {
      const { loc: _loc, ...rest } = t;
      return rest as LogicalType;
    }
  }
}

/** `t` with the given nullability. */
export function withNullability(t: LogicalType, nullable: boolean): LogicalType {
  return { ...t, nullable };
}

/**
 * Flink's summary string of a logical type: `STRING`, `VARCHAR(10)`,
 * `DECIMAL(10, 2)`, `TIMESTAMP_LTZ(3)`, `ROW<\`a\` INT>`, `BIGINT NOT NULL`.
 *
 * @example
 * ```ts
 * formatLogicalType({ kind: "bigint", nullable: false }); // "BIGINT NOT NULL"
 * ```
 */
export function formatLogicalType(t: LogicalType): string {
  return baseName(t) + (t.nullable ? "" : " NOT NULL");
}

function baseName(t: LogicalType): string {
  switch (t.kind) {
    case "decimal":
      return `DECIMAL(${t.precision}, ${t.scale})`;
    case "varchar":
      return t.length === MAX_LENGTH ? "STRING" : `VARCHAR(${t.length})`;
    case "varbinary":
      return t.length === MAX_LENGTH ? "BYTES" : `VARBINARY(${t.length})`;
    case "char":
    case "binary":
      return `${t.kind.toUpperCase()}(${t.length})`;
    case "time":
      return `TIME(${t.precision})`;
    case "timestamp":
      return `${t.withLocalTimeZone ? "TIMESTAMP_LTZ" : "TIMESTAMP"}(${t.precision})`;
    case "interval":
      return `INTERVAL ${t.from}${t.to === undefined ? "" : ` TO ${t.to}`}`;
    case "row":
      return `ROW<${t.fields.map((f) => `\`${f.name}\` ${formatLogicalType(f.type)}`).join(", ")}>`;
    case "array":
    case "multiset":
      return `${t.kind.toUpperCase()}<${formatLogicalType(t.element)}>`;
    case "map":
      return `MAP<${formatLogicalType(t.key)}, ${formatLogicalType(t.value)}>`;
    default:
      return t.kind.toUpperCase();
  }
}
