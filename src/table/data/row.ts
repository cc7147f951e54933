/**
 * `Row`: the record of a table (Flink's `org.apache.flink.types.Row`), a
 * {@link RowKind} and the field values by position, optionally with field
 * names. A row is plain data, not a class instance: `{ kind, fields }` (and
 * `names` when given), so rows pass the engine's plain-data check, are copied
 * by its object semantics, go into keyed state and cross worker threads like
 * any record. The `Row` namespace holds Flink's API as functions over it.
 *
 * Field values follow the SQL value representation of
 * `src/table/types/sql-value.ts` (`null` for NULL).
 *
 * @example
 * ```ts
 * const r = Row.ofKind(RowKind.UPDATE_AFTER, "Mary", 2n);
 * Row.getKind(r);     // "+U"
 * Row.getField(r, 0); // "Mary"
 * r.fields[1];        // 2n: plain data, readable directly
 * Row.toString(r);    // "+U[Mary, 2]"
 * ```
 */
import type { SqlValue, ValueFormat } from "../types/sql-value.ts";
import { formatValue } from "./format-value.ts";
import { isRowKind, RowKind } from "./row-kind.ts";

/** A row of a table or of a changelog: its kind and its field values by position. */
export interface Row {
  /** `+I`, `-U`, `+U` or `-D`. */
  kind: RowKind;
  /** The field values by position. */
  fields: SqlValue[];
  /** The field names by position, when the row carries them (a table's schema holds them otherwise). */
  names?: string[];
}

/** Thrown by {@link Row.getField} for a position or name the row does not have. */
export class RowFieldError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "RowFieldError";
  }
}

function of(...values: SqlValue[]): Row {
  return { kind: RowKind.INSERT, fields: values };
}

function ofKind(kind: RowKind, ...values: SqlValue[]): Row {
  if (!isRowKind(kind)) throw new TypeError(`not a row kind: ${JSON.stringify(kind)} (expected +I, -U, +U or -D)`);
  return { kind, fields: values };
}

function withNames(names: readonly string[], values: readonly SqlValue[], kind: RowKind = RowKind.INSERT): Row {
  if (names.length !== values.length) {
    throw new RowFieldError(`a row with ${names.length} names needs ${names.length} values, got ${values.length}`);
  }
  return { kind, fields: [...values], names: [...names] };
}

function getKind(row: Row): RowKind {
  return row.kind;
}

function getArity(row: Row): number {
  return row.fields.length;
}

function getField(row: Row, field: number | string): SqlValue {
  if (typeof field === "number") {
    if (!Number.isInteger(field) || field < 0 || field >= row.fields.length) {
      throw new RowFieldError(`row ${toString(row)} has no field at position ${field} (arity ${row.fields.length})`);
    }
    return row.fields[field]!;
  }
  const i = row.names === undefined ? -1 : row.names.indexOf(field);
  if (i < 0) {
    const known = row.names === undefined ? "it has no field names" : `its fields are ${row.names.join(", ")}`;
    throw new RowFieldError(`row ${toString(row)} has no field '${field}': ${known}`);
  }
  return row.fields[i]!;
}

function toString(row: Row, formats?: readonly (ValueFormat | undefined)[]): string {
  let text = row.kind + "[";
  for (let i = 0; i < row.fields.length; i++) text += (i === 0 ? "" : ", ") + formatValue(row.fields[i]!, formats?.[i]);
  return text + "]";
}

function isRow(v: unknown): v is Row {
  return typeof v === "object" && v !== null && isRowKind((v as Row).kind) && Array.isArray((v as Row).fields);
}

/**
 * Flink's `Row` API as functions over plain rows.
 *
 * - `Row.of(...values)`: an `+I` row.
 * - `Row.ofKind(kind, ...values)`: a row of the given kind.
 * - `Row.withNames(names, values, kind?)`: a row that carries its field names.
 * - `Row.getField(row, position | name)`, `Row.getKind(row)`, `Row.getArity(row)`.
 * - `Row.toString(row, formats?)`: `+I[Mary, 1]`, as Flink prints rows;
 *   `formats` says how to print values whose JavaScript type does not tell
 *   (DOUBLE, DATE, TIMESTAMP…; see `format-value.ts`).
 * - `Row.isRow(value)`.
 */
export const Row = { of, ofKind, withNames, getKind, getArity, getField, toString, isRow } as const;
