/**
 * The {@link ValueFormat} of a logical type: what `formatValue` /
 * `Row.toString` need to print a column's values as Flink prints them (a
 * DOUBLE `1` as `1.0`, a TIMESTAMP as `2020-04-15T08:05`).
 */
import type { LogicalType } from "../types/logical-type.ts";
import type { ValueFormat } from "../types/sql-value.ts";

/**
 * The print format of values of `t`, or undefined when the JavaScript value
 * says enough (strings, integers, booleans, decimals, bytes).
 *
 * @example
 * ```ts
 * valueFormatOf({ kind: "double", nullable: true }); // { kind: "DOUBLE" }
 * Row.toString(row, rowType.types.map(valueFormatOf)); // "+I[Mary, 1.0, 2020-04-15T08:05]"
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
      return { kind: "MAP", ...(key === undefined ? {} : { key }), ...(value === undefined ? {} : { value }) };
    }
    case "row":
      return { kind: "ROW", fields: t.fields.map((f) => valueFormatOf(f.type)) };
    default:
      return undefined;
  }
}
