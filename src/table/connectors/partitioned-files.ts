/**
 * A partitioned `filesystem` table in files (Flink's layout): the partition
 * columns are in the directory names (`k1=v1/k2=v2/`, see
 * `partition-path.ts`), the other (data) columns in the files. Writing turns
 * each partition value into its path text; reading puts the values of each
 * file's directories back into the rows its format decodes.
 */
import { relative, resolve } from "node:path";
import { MalformedRecord, NEED_MORE_BYTES, type RecordFormat } from "../../connectors/file/record-format.ts";
import { identifierString } from "../catalog/object-identifier.ts";
import type { Row } from "../data/row.ts";
import { typeToString } from "../expr/type-rules.ts";
import { FormatValueError } from "../formats/format-value-error.ts";
import { isScalarType, scalarReader, scalarWriter } from "../formats/scalar-text.ts";
import type { TableFormat } from "../formats/table-format.ts";
import type { SqlValue } from "../types/sql-value.ts";
import { SqlValidationError } from "../validation/sql-validation-error.ts";
import type { DynamicTableContext } from "./dynamic-table-factory.ts";
import { partitionValuesOf } from "./partition-path.ts";

/** The table's partition columns and the positions of its other (data) columns. */
export interface Layout {
  keys: readonly string[];
  /** Positions of the partition columns in the physical row. */
  keyPositions: readonly number[];
  /** Positions of the data columns (those in the files) in the physical row. */
  dataPositions: readonly number[];
}

/**
 * The layout of the table of `ctx` (no partition columns for an unpartitioned table).
 *
 * @throws {SqlValidationError} when every column is a partition column
 * @example
 * ```ts
 * layoutOf(ctx).dataPositions; // [0, 1] for (id, v, dt) PARTITIONED BY (dt)
 * ```
 */
export function layoutOf(ctx: DynamicTableContext): Layout {
  const keys = ctx.table.partitionKeys ?? [];
  const names = ctx.physicalType.names;
  const keyPositions = keys.map((k) => names.indexOf(k));
  const dataPositions = names.map((_, i) => i).filter((i) => !keyPositions.includes(i));
  if (keys.length > 0 && dataPositions.length === 0) {
    throw new SqlValidationError(`Table '${identifierString(ctx.table.identifier)}': every column is a partition column; the files need at least one other column.`);
  }
  return { keys, keyPositions, dataPositions };
}

/**
 * The text of each partition column's value in a path, and the value of a path's text.
 *
 * @throws {SqlValidationError} for a partition column of a type a path cannot hold (bytes, ARRAY, ROW, …)
 * @example
 * ```ts
 * partitionCodecs(ctx, layout).write[0]!(18_600); // "2020-12-05" for a DATE column
 * ```
 */
export function partitionCodecs(ctx: DynamicTableContext, layout: Layout): { write: ((v: SqlValue) => string)[]; read: ((text: string) => SqlValue)[] } {
  const table = identifierString(ctx.table.identifier);
  const o = { timestampStandard: "SQL", decimalPlain: true } as const;
  const types = layout.keyPositions.map((i) => ctx.physicalType.types[i]!);
  for (const [n, t] of types.entries()) {
    if (!isScalarType(t) || t.kind === "binary" || t.kind === "varbinary") {
      throw new SqlValidationError(`Table '${table}': the partition column '${layout.keys[n]}' has the type ${typeToString(t)}; a partition column must be a scalar type other than bytes.`);
    }
  }
  return { write: types.map((t) => scalarWriter(t, o)), read: types.map((t) => scalarReader(t, o)) };
}

/**
 * The records of a partitioned table's files: the format's rows with the
 * partition values of each file's directory put in (`null` for the default
 * partition name and for a key the path does not have). A directory value
 * that does not read as its column's type makes the file's first record
 * malformed, so the job fails naming the file.
 *
 * @example
 * ```ts
 * FileSource.forFormat<Row[]>(path, withPartitionValues(ctx, layout, format));
 * ```
 */
export function withPartitionValues(ctx: DynamicTableContext, layout: Layout, format: TableFormat): RecordFormat<Row[]> {
  if (layout.keys.length === 0) return format.records;
  const base = resolve(ctx.options.options.get("path") as string);
  const defaultName = ctx.options.options.get("partition.default-name") as string;
  const codecs = partitionCodecs(ctx, layout);
  const width = ctx.physicalType.names.length;
  return {
    open(split) {
      const found = partitionValuesOf(relative(base, split.path));
      // a directory value that does not read as its column's type: the file's first record is malformed
      let bad: MalformedRecord | undefined;
      const values = layout.keys.map((k, n) => {
        const text = found.get(k);
        if (text === undefined || text === defaultName) return null;
        try {
          return codecs.read[n]!(text);
        } catch (e) {
          if (!(e instanceof FormatValueError)) throw e;
          bad ??= new MalformedRecord(split.line, `${k}=${text}`, `partition '${k}': ${e.problem}`);
          return null;
        }
      });
      const decoder = format.records.open(split);
      const toTable = (rows: Row[]): Row[] =>
        rows.map((r) => {
          const fields: SqlValue[] = new Array(width);
          layout.dataPositions.forEach((p, i) => (fields[p] = r.fields[i] ?? null));
          layout.keyPositions.forEach((p, i) => (fields[p] = values[i]!));
          return { kind: r.kind, fields };
        });
      return {
        get readPosition() {
          return decoder.readPosition;
        },
        get exhausted() {
          return decoder.exhausted;
        },
        append: (chunk) => decoder.append(chunk),
        markEnd: () => decoder.markEnd(),
        next(s) {
          if (bad !== undefined) return bad;
          const item = decoder.next(s);
          return item === NEED_MORE_BYTES || item instanceof MalformedRecord ? item : toTable(item);
        },
      };
    },
  };
}
