/**
 * Nexmark events as rows of a `nexmark` table: the columns `event_type`,
 * `person`, `auction` and `bid` of the nexmark project's DDL, each ROW with
 * the fields of `Person`, `Auction` and `Bid`. A table may declare the
 * columns and fields in any order and leave some out; each value takes the
 * declared type (an id is a `number` for BIGINT and INT: a safe integer; a time
 * is epoch ms for TIMESTAMP(3)). The columns and ROW fields a job does not read
 * are NULL (projection push-down, nested fields included).
 */
import type { NexmarkEvent } from "../../connectors/nexmark/nexmark-event.ts";
import type { Row } from "../data/row.ts";
import type { RecordColumns } from "./dynamic-table-factory.ts";
import { RowKind } from "../data/row-kind.ts";
import type { RowType } from "../expr/type-rules.ts";
import type { LogicalType } from "../types/logical-type.ts";
import { formatLogicalType } from "../types/logical-type.ts";
import { didYouMean } from "../validation/nearest-name.ts";
import { SqlValidationError } from "../validation/sql-validation-error.ts";

type ValueKind = "integer" | "string" | "time";

/** The fields of each ROW column and what kind of value each is. */
const ROW_FIELDS: Readonly<Record<"person" | "auction" | "bid", Readonly<Record<string, ValueKind>>>> = {
  person: { id: "integer", name: "string", emailAddress: "string", creditCard: "string", city: "string", state: "string", dateTime: "time", extra: "string" },
  auction: {
    id: "integer",
    itemName: "string",
    description: "string",
    initialBid: "integer",
    reserve: "integer",
    dateTime: "time",
    expires: "time",
    seller: "integer",
    category: "integer",
    extra: "string",
  },
  bid: { auction: "integer", bidder: "integer", price: "integer", channel: "string", url: "string", dateTime: "time", extra: "string" },
};
const COLUMNS = ["event_type", "person", "auction", "bid"] as const;
type Column = (typeof COLUMNS)[number];

/**
 * Checks that a value of an event can be given the declared type as it is: the generator's
 * integers are safe integers, so a BIGINT is the same number (see `types/bigint-value.ts`).
 */
function checkType(kind: ValueKind, type: LogicalType, where: string): void {
  const refuse = (expected: string) =>
    new SqlValidationError(`The 'nexmark' connector cannot give ${where} the type ${formatLogicalType(type)}: it must be ${expected}.`);
  switch (kind) {
    case "integer":
      if (type.kind === "bigint" || type.kind === "int" || type.kind === "smallint" || type.kind === "tinyint") return;
      throw refuse("BIGINT or INT");
    case "string":
      if (type.kind === "varchar" || type.kind === "char") return;
      throw refuse("STRING (VARCHAR)");
    case "time":
      if (type.kind === "timestamp") return;
      throw refuse("TIMESTAMP(3)");
  }
}

/** The JavaScript source of one column of a table over an event in a variable. */
interface ColumnCode {
  /** The column's value; for a ROW column the fields not in `read` (positions; all without it) NULL; with `temp`, a variable it may assign. */
  value(e: string, read?: readonly number[], temp?: string): string;
  /** Field `j` of a ROW column, read directly from the event. */
  field?(j: number, e: string): string;
}

/** A ROW column's code: the person, auction or bid (`column`) of an event, checked against the generator's fields. */
function rowColumnCode(column: "person" | "auction" | "bid", type: LogicalType): ColumnCode {
  if (type.kind !== "row") throw new SqlValidationError(`The 'nexmark' connector's column '${column}' must be a ROW<…>, not ${formatLogicalType(type)}.`);
  const known = ROW_FIELDS[column];
  const names = type.fields.map((f) => {
    const kind = Object.hasOwn(known, f.name) ? known[f.name] : undefined;
    if (kind === undefined) {
      throw new SqlValidationError(
        `The 'nexmark' connector has no field '${f.name}' in '${column}'.${didYouMean(f.name, Object.keys(known))} Its fields are: ${Object.keys(known).join(", ")}.`,
      );
    }
    checkType(kind, f.type, `'${column}.${f.name}'`);
    return JSON.stringify(f.name);
  });
  const key = JSON.stringify(column);
  const values = (o: string, read: readonly number[] | undefined) => names.map((n, i) => (read === undefined || read.includes(i) ? `${o}[${n}]` : "null")).join(", ");
  return {
    value: (e, read, temp) =>
      temp === undefined ? `(${e}[${key}] === null ? null : [${values(`${e}[${key}]`, read)}])` : `((${temp} = ${e}[${key}]) === null ? null : [${values(temp, read)}])`,
    field: (j, e) => `(${e}[${key}] === null ? null : ${e}[${key}][${names[j]!}])`,
  };
}

/** The code of each column of `physicalType`, checked against what the generator makes. */
function columnCodes(physicalType: RowType): ColumnCode[] {
  return physicalType.names.map((name, i): ColumnCode => {
    const type = physicalType.types[i]!;
    if (!(COLUMNS as readonly string[]).includes(name)) {
      throw new SqlValidationError(`The 'nexmark' connector has no column '${name}'.${didYouMean(name, COLUMNS)} Its columns are: ${COLUMNS.join(", ")}.`);
    }
    const column = name as Column;
    if (column !== "event_type") return rowColumnCode(column, type);
    checkType("integer", type, "'event_type'");
    return { value: (e) => `${e}.type` };
  });
}

/**
 * The converter from an event to a row of the table's physical columns
 * (`physicalType`), checked against what the generator makes. Columns not
 * in `projection` (positions the job reads) are left NULL, and so are the
 * fields of a ROW column not in its entry of `nested` (the positions of the fields
 * read, for a ROW column of which only some are). It is compiled
 * for the table's columns: one array per row and one per ROW value, no call per field.
 *
 * @throws {SqlValidationError} for a column or field the generator does not make, or of a type it cannot have
 * @example
 * ```ts
 * const toRow = nexmarkRowConverter(ctx.physicalType);
 * toRow(generator.event(0)).fields[0]; // 0 (a person)
 * ```
 */
export function nexmarkRowConverter(physicalType: RowType, projection?: readonly number[], nested?: ReadonlyMap<number, readonly number[]>): (e: NexmarkEvent) => Row {
  const read = projection === undefined ? undefined : new Set(projection);
  const columns = columnCodes(physicalType).map((c, i) => (read?.has(i) === false ? "null" : c.value("e", nested?.get(i), "o")));
  return new Function("kind", `"use strict";\nreturn (e) => {\n  let o;\n  return { kind, fields: [${columns.join(", ")}] };\n};`)(RowKind.INSERT) as (e: NexmarkEvent) => Row;
}

/**
 * The source that reads a row's values from an event (see `TableSourceRecords`): a Calc over the
 * events reads `e.bid.price` instead of making the row of every event.
 *
 * @throws {SqlValidationError} as {@link nexmarkRowConverter}
 * @example
 * ```ts
 * nexmarkRecordColumns(ctx.physicalType).rowField(3, 2, "e"); // '(e["bid"] === null ? null : e["bid"]["price"])'
 * ```
 */
export function nexmarkRecordColumns(physicalType: RowType): RecordColumns {
  const codes = columnCodes(physicalType);
  return {
    column: (i, e, read) => codes[i]!.value(e, read),
    rowField: (i, j, e) => codes[i]!.field?.(j, e),
  };
}
