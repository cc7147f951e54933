/**
 * Nexmark events as rows of a `nexmark` table: the columns `event_type`,
 * `person`, `auction` and `bid` of the nexmark project's DDL, each ROW with
 * the fields of `Person`, `Auction` and `Bid`. A table may declare the
 * columns and fields in any order and leave some out; each value takes the
 * declared type (an id is a `bigint` for BIGINT, a `number` for INT; a time
 * is epoch ms for TIMESTAMP(3)).
 */
import type { NexmarkEvent } from "../../connectors/nexmark/nexmark-event.ts";
import type { Row } from "../data/row.ts";
import { RowKind } from "../data/row-kind.ts";
import type { RowType } from "../expr/type-rules.ts";
import type { LogicalType } from "../types/logical-type.ts";
import { formatLogicalType } from "../types/logical-type.ts";
import type { SqlValue } from "../types/sql-value.ts";
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

/** Converts one value of an event to the SQL value of its declared type. */
type ValueOf = (v: number | string) => SqlValue;

function valueOf(kind: ValueKind, type: LogicalType, where: string): ValueOf {
  const refuse = (expected: string) =>
    new SqlValidationError(`The 'nexmark' connector cannot give ${where} the type ${formatLogicalType(type)}: it must be ${expected}.`);
  switch (kind) {
    case "integer":
      if (type.kind === "bigint") return (v) => BigInt(v);
      if (type.kind === "int" || type.kind === "smallint" || type.kind === "tinyint") return (v) => v;
      throw refuse("BIGINT or INT");
    case "string":
      if (type.kind === "varchar" || type.kind === "char") return (v) => v;
      throw refuse("STRING (VARCHAR)");
    case "time":
      if (type.kind === "timestamp") return (v) => v;
      throw refuse("TIMESTAMP(3)");
  }
}

/** Makes the ROW value of a person, auction or bid from its object. */
function rowValueOf(column: "person" | "auction" | "bid", type: LogicalType): (o: Record<string, number | string>) => SqlValue[] {
  if (type.kind !== "row") throw new SqlValidationError(`The 'nexmark' connector's column '${column}' must be a ROW<…>, not ${formatLogicalType(type)}.`);
  const known = ROW_FIELDS[column];
  const fields = type.fields.map((f) => {
    const kind = known[f.name];
    if (kind === undefined) {
      throw new SqlValidationError(
        `The 'nexmark' connector has no field '${f.name}' in '${column}'.${didYouMean(f.name, Object.keys(known))} Its fields are: ${Object.keys(known).join(", ")}.`,
      );
    }
    return { name: f.name, value: valueOf(kind, f.type, `'${column}.${f.name}'`) };
  });
  const names = fields.map((f) => f.name);
  const values = fields.map((f) => f.value);
  return (o) => {
    const out: SqlValue[] = new Array(names.length);
    for (let i = 0; i < names.length; i++) out[i] = values[i]!(o[names[i]!]!);
    return out;
  };
}

/**
 * The converter from an event to a row of the table's physical columns
 * (`physicalType`), checked against what the generator makes. Columns not
 * in `projection` (positions the job reads) are left NULL.
 *
 * @throws {SqlValidationError} for a column or field the generator does not make, or of a type it cannot have
 * @example
 * ```ts
 * const toRow = nexmarkRowConverter(ctx.physicalType);
 * toRow(generator.event(0)).fields[0]; // 0 (a person)
 * ```
 */
export function nexmarkRowConverter(physicalType: RowType, projection?: readonly number[]): (e: NexmarkEvent) => Row {
  const read = projection === undefined ? undefined : new Set(projection);
  const columns = physicalType.names.map((name, i): ((e: NexmarkEvent) => SqlValue) => {
    const type = physicalType.types[i]!;
    if (!(COLUMNS as readonly string[]).includes(name)) {
      throw new SqlValidationError(`The 'nexmark' connector has no column '${name}'.${didYouMean(name, COLUMNS)} Its columns are: ${COLUMNS.join(", ")}.`);
    }
    const column = name as Column;
    if (column === "event_type") {
      const v = valueOf("integer", type, "'event_type'");
      return read?.has(i) === false ? () => null : (e) => v(e.type);
    }
    const row = rowValueOf(column, type);
    if (read?.has(i) === false) return () => null;
    return (e) => {
      const o = e[column];
      return o === null ? null : row(o as unknown as Record<string, number | string>);
    };
  });
  return (e) => {
    const fields: SqlValue[] = new Array(columns.length);
    for (let i = 0; i < columns.length; i++) fields[i] = columns[i]!(e);
    return { kind: RowKind.INSERT, fields };
  };
}
