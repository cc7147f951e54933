/**
 * The {@link ValueFormat} of a column's type: what `formatValue` and
 * `Row.toString` need to print a value as Flink prints it (a DOUBLE `1.0`,
 * a TIMESTAMP `2020-04-15T08:05`, …).
 */
import type { LogicalType } from "../types/logical-type.ts";
import type { ValueFormat } from "../types/sql-value.ts";

/**
 * @example
 * ```ts
 * formatValue(1, valueFormatOf({ kind: "double", nullable: true })); // "1.0"
 * ```
 */
export function valueFormatOf(t: LogicalType): ValueFormat | undefined {
  switch (t.kind) {
    case "float":
      return { kind: "FLOAT" };
    case "double":
      return { kind: "DOUBLE" };
    case "date":
      return { kind: "DATE" };
    case "time":
      return { kind: "TIME", precision: t.precision };
    case "timestamp":
      return { kind: t.withLocalTimeZone ? "TIMESTAMP_LTZ" : "TIMESTAMP", precision: t.precision };
    case "interval":
      return { kind: t.from === "YEAR" || t.from === "MONTH" ? "INTERVAL_YEAR_MONTH" : "INTERVAL_DAY_TIME" };
    case "array":
    case "multiset": {
      const element = valueFormatOf(t.element);
      return element === undefined ? { kind: "ARRAY" } : { kind: "ARRAY", element };
    }
    case "map": {
      const key = valueFormatOf(t.key);
      const value = valueFormatOf(t.value);
      return { kind: "MAP", ...(key ? { key } : {}), ...(value ? { value } : {}) };
    }
    case "row":
      return { kind: "ROW", fields: t.fields.map((f) => valueFormatOf(f.type)) };
    default:
      return undefined;
  }
}
