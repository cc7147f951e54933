/**
 * The typing rules of the expression layer over {@link LogicalType}: input
 * row types, numeric promotion, common types, and type names as Flink's
 * error messages print them.
 */
import type { LogicalType } from "../types/logical-type.ts";

/**
 * An input row type: field names (case-sensitive, as Flink) and their types,
 * by position; for the fields of FROM items and joins, the name or alias of
 * the table each field comes from (`t` in `t.a`), undefined for a field
 * without one.
 *
 * @example
 * ```ts
 * const joined: RowType = { names: ["id", "id"], types: [INT, INT], qualifiers: ["o", "c"] }; // o.id, c.id
 * ```
 */
export interface RowType {
  names: readonly string[];
  types: readonly LogicalType[];
  qualifiers?: readonly (string | undefined)[];
}

/**
 * Builds a logical type without a source location.
 *
 * @example
 * ```ts
 * const t = logicalType({ kind: "varchar", length: MAX_LENGTH }, false); // STRING NOT NULL
 * ```
 */
export function logicalType(t: DistributiveOmit<LogicalType, "nullable">, nullable = true): LogicalType {
  return { ...t, nullable } as LogicalType;
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** The same type with the given nullability. */
export function withNullable(t: LogicalType, nullable: boolean): LogicalType {
  if (t.kind === "null" || t.nullable === nullable) return t;
  return { ...t, nullable };
}

const INTEGER_RANK = { tinyint: 1, smallint: 2, int: 3, bigint: 4 } as const;

/** TINYINT, SMALLINT, INT or BIGINT. */
export function isIntegerType(t: LogicalType): t is LogicalType & { kind: "tinyint" | "smallint" | "int" | "bigint" } {
  return t.kind in INTEGER_RANK;
}

/** An exact or approximate numeric type. */
export function isNumericType(t: LogicalType): boolean {
  return isIntegerType(t) || t.kind === "decimal" || t.kind === "float" || t.kind === "double";
}

/** CHAR or VARCHAR. */
export function isStringType(t: LogicalType): t is LogicalType & { kind: "char" | "varchar"; length: number } {
  return t.kind === "char" || t.kind === "varchar";
}

/** Precision/scale of an exact numeric type seen as a DECIMAL (INT is DECIMAL(10, 0)). */
export function asDecimalType(t: LogicalType): { precision: number; scale: number } {
  switch (t.kind) {
    case "tinyint": return { precision: 3, scale: 0 };
    case "smallint": return { precision: 5, scale: 0 };
    case "int": return { precision: 10, scale: 0 };
    case "bigint": return { precision: 19, scale: 0 };
    case "decimal": return { precision: t.precision, scale: t.scale };
    default: throw new Error(`not an exact numeric type: ${t.kind}`);
  }
}

/**
 * Flink's text of a type, as in its error messages: `INT`, `DECIMAL(10, 2)`,
 * `VARCHAR(2147483647) NOT NULL`, `TIMESTAMP(3)`.
 */
export function typeToString(t: LogicalType): string {
  if (t.kind === "null") return "NULL";
  return baseTypeString(t) + (t.nullable ? "" : " NOT NULL");
}

function baseTypeString(t: Exclude<LogicalType, { kind: "null" }>): string {
  switch (t.kind) {
    case "decimal": return `DECIMAL(${t.precision}, ${t.scale})`;
    case "char": case "varchar": case "binary": case "varbinary": return `${t.kind.toUpperCase()}(${t.length})`;
    case "time": return `TIME(${t.precision})`;
    case "timestamp": return t.withLocalTimeZone ? `TIMESTAMP_LTZ(${t.precision})` : `TIMESTAMP(${t.precision})`;
    case "interval": return `INTERVAL ${t.from}${t.to === undefined ? "" : " TO " + t.to}`;
    case "row": return `ROW<${t.fields.map((f) => `\`${f.name}\` ${typeToString(f.type)}`).join(", ")}>`;
    case "array": case "multiset": return `${t.kind.toUpperCase()}<${typeToString(t.element)}>`;
    case "map": return `MAP<${typeToString(t.key)}, ${typeToString(t.value)}>`;
    default: return t.kind.toUpperCase();
  }
}

/**
 * The least restrictive common type of `a` and `b` (numeric promotion
 * TINYINT < SMALLINT < INT < BIGINT < DECIMAL < FLOAT < DOUBLE, strings to
 * VARCHAR, equal kinds; ROW, ARRAY and MAP types only when equal), nullable
 * if either is; undefined when there is none.
 */
export function commonType(a: LogicalType, b: LogicalType): LogicalType | undefined {
  if (a.kind === "null") return withNullable(b, true);
  if (b.kind === "null") return withNullable(a, true);
  const nullable = a.nullable || b.nullable;
  if (isNumericType(a) && isNumericType(b)) {
    if (a.kind === "double" || b.kind === "double") return logicalType({ kind: "double" }, nullable);
    if (a.kind === "float" || b.kind === "float") return logicalType({ kind: "float" }, nullable);
    if (a.kind === "decimal" || b.kind === "decimal") {
      const x = asDecimalType(a);
      const y = asDecimalType(b);
      const scale = Math.max(x.scale, y.scale);
      const precision = Math.min(38, Math.max(x.precision - x.scale, y.precision - y.scale) + scale);
      return logicalType({ kind: "decimal", precision, scale }, nullable);
    }
    const ra = INTEGER_RANK[a.kind as keyof typeof INTEGER_RANK];
    const rb = INTEGER_RANK[b.kind as keyof typeof INTEGER_RANK];
    return withNullable(ra >= rb ? a : b, nullable);
  }
  if (isStringType(a) && isStringType(b)) {
    if (a.kind === "char" && b.kind === "char") return logicalType({ kind: "char", length: Math.max(a.length, b.length) }, nullable);
    return logicalType({ kind: "varchar", length: Math.max(a.length, b.length) }, nullable);
  }
  if (a.kind === "timestamp" && b.kind === "timestamp" && a.withLocalTimeZone === b.withLocalTimeZone) {
    return withNullable(a.precision >= b.precision ? a : b, nullable);
  }
  if (a.kind === "time" && b.kind === "time") return withNullable(a.precision >= b.precision ? a : b, nullable);
  if (a.kind === b.kind && (a.kind === "boolean" || a.kind === "date")) return withNullable(a, nullable);
  if (a.kind === b.kind && typeToString(withNullable(a, true)) === typeToString(withNullable(b, true))) return withNullable(a, nullable);
  return undefined;
}
