/**
 * How SQL values are represented at run time: one place for the whole table
 * layer (planner, operators, formats, connectors). Every value is plain data
 * (see `src/state/plain-data.ts`), so rows pass the engine's plain-data check,
 * are copied by its object semantics, go into keyed state and cross workers.
 *
 * | SQL type                           | TypeScript value                                                  |
 * | ---------------------------------- | ----------------------------------------------------------------- |
 * | any type, the value NULL           | `null` (never `undefined`)                                        |
 * | `BOOLEAN`                          | `boolean`                                                         |
 * | `TINYINT`, `SMALLINT`, `INT`       | `number` (an integer in the type's range)                         |
 * | `BIGINT`                           | `number` if a safe integer (\|v\| < 2^53), else `bigint` (exact over the 64-bit range; see `bigint-value.ts`) |
 * | `FLOAT`, `DOUBLE`                  | `number`                                                          |
 * | `DECIMAL(p, s)`                    | {@link Decimal} `{ unscaled: bigint, scale: s }` (exact)          |
 * | `CHAR(n)`, `VARCHAR(n)`, `STRING`  | `string`                                                          |
 * | `BINARY(n)`, `VARBINARY(n)`, `BYTES` | `Uint8Array`                                                    |
 * | `DATE`                             | `number`: days since 1970-01-01                                   |
 * | `TIME(p)`                          | `number`: milliseconds of the day                                 |
 * | `TIMESTAMP(p)`                     | `number`: milliseconds since the epoch of the UTC wall clock      |
 * | `TIMESTAMP_LTZ(p)`                 | `number`: milliseconds since the epoch (an instant)               |
 * | `INTERVAL DAY TO SECOND` and parts | `number`: milliseconds                                            |
 * | `INTERVAL YEAR TO MONTH` and parts | `number`: months                                                  |
 * | `ARRAY<T>`                         | `T[]`                                                             |
 * | `MAP<K, V>`                        | `Map<K, V>` (keys that are objects are matched by SQL equality)   |
 * | `ROW<f1 T1, …>`                    | `[v1, …]`: the field values by position (names are in the type)  |
 *
 * Precision: time values carry milliseconds; `TIMESTAMP(p)`, `TIME(p)` and
 * `TIMESTAMP_LTZ(p)` with p > 3 keep only the millisecond (extra digits of
 * parsed text are truncated). A value alone does not say its type (a `number`
 * may be an INT, a DOUBLE or a DATE): the planner knows the types, and
 * printing that depends on them takes a {@link ValueFormat}.
 *
 * The top-level record of a table is a `Row` (see `src/table/data/row.ts`):
 * a kind (`+I`, `-U`, `+U`, `-D`) and the field values.
 */
import type { Decimal } from "./decimal.ts";
import type { LogicalType } from "./logical-type.ts";

/** A run-time SQL value (see the table above). */
export type SqlValue =
  | null
  | boolean
  | number
  | bigint
  | string
  | Decimal
  | Uint8Array
  | SqlValue[]
  | Map<SqlValue, SqlValue>;

/**
 * What printing needs to know about a value's type beyond its JavaScript
 * type: numbers that are doubles or dates/times, and the same for elements of
 * arrays, maps and rows. Values without a format print by their JavaScript
 * type (a number as an integer or a double by its value, an array as a list).
 */
export type ValueFormat =
  | { readonly kind: "FLOAT" | "DOUBLE" | "DATE" | "INTERVAL_DAY_TIME" | "INTERVAL_YEAR_MONTH" }
  | { readonly kind: "TIME" | "TIMESTAMP" | "TIMESTAMP_LTZ"; readonly precision?: number }
  | { readonly kind: "ARRAY"; readonly element?: ValueFormat }
  | { readonly kind: "MAP"; readonly key?: ValueFormat; readonly value?: ValueFormat }
  | { readonly kind: "ROW"; readonly fields: readonly (ValueFormat | undefined)[] };

/** Types whose values are primitives in the table above: nothing in a value of them can be changed in place. */
const PRIMITIVE_VALUE_KINDS: ReadonlySet<LogicalType["kind"]> = new Set(["boolean", "tinyint", "smallint", "int", "bigint", "float", "double", "date", "char", "varchar", "time", "timestamp", "interval", "null"]);

/**
 * Whether the values of type `t` are primitives (not a DECIMAL, bytes, an ARRAY, a MAP, a MULTISET or a ROW,
 * which are objects).
 *
 * @example
 * ```ts
 * hasPrimitiveValues({ kind: "bigint", nullable: true });                              // true
 * hasPrimitiveValues({ kind: "decimal", precision: 10, scale: 2, nullable: true });    // false
 * ```
 */
export function hasPrimitiveValues(t: LogicalType): boolean {
  return PRIMITIVE_VALUE_KINDS.has(t.kind);
}
