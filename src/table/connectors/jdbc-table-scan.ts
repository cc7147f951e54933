/**
 * The bounded scan of a `jdbc` table: one query over the table, or over a range of `scan.partition.column`
 * (ordered by its primary key when it has one, so that a restart that skips the rows already emitted skips
 * the same rows), read through a cursor in pages of `scan.fetch-size` rows inside one read-only REPEATABLE
 * READ transaction (one snapshot of the table), values converted from PostgreSQL's text form to the
 * declared types.
 */
import type { RowType } from "../expr/type-rules.ts";
import type { Row } from "../data/row.ts";
import type { JdbcScanPartition, JdbcTableConfig } from "./jdbc-table-config.ts";
import { openJdbcTable, pgRow } from "./jdbc-table-open.ts";
import { TEXT_PARSERS } from "./postgres-values.ts";

/** The values of `scan.partition.column` one query reads (inclusive). */
export interface JdbcScanRange {
  readonly lower: number;
  readonly upper: number;
}

/**
 * The ranges of a partitioned scan, as Flink's `JdbcNumericBetweenParametersProvider`: `num` consecutive
 * ranges of (nearly) equal size covering the bounds (fewer when the bounds hold fewer values).
 *
 * @example
 * ```ts
 * scanRanges({ column: "id", num: 3, lowerBound: 1, upperBound: 10 }); // [1, 4], [5, 8], [9, 10]
 * ```
 */
export function scanRanges(p: JdbcScanPartition): JdbcScanRange[] {
  const count = p.upperBound - p.lowerBound + 1;
  const size = Math.ceil(count / Math.min(p.num, count));
  const ranges: JdbcScanRange[] = [];
  for (let lower = p.lowerBound; lower <= p.upperBound; lower += size) ranges.push({ lower, upper: Math.min(p.upperBound, lower + size - 1) });
  return ranges;
}

/** Rows per FETCH when `scan.fetch-size` is 0. */
const DEFAULT_FETCH_SIZE = 1000;

/**
 * The rows of the table, of `declared`'s columns (with `projection`, only those positions are read; the others
 * are NULL).
 *
 * @example
 * ```ts
 * env.fromAsyncIterable(() => scanJdbcTable(config, physicalType, undefined, "weir jdbc scan rates"));
 * ```
 */
export async function* scanJdbcTable(
  config: JdbcTableConfig,
  declared: RowType,
  projection: readonly number[] | undefined,
  purpose: string,
  range?: JdbcScanRange,
): AsyncGenerator<Row> {
  const table = await openJdbcTable(config, declared, purpose);
  const { client } = table;
  const positions = projection ?? declared.names.map((_, i) => i);
  const order = table.primaryKey.length === 0 ? "" : ` ORDER BY ${table.primaryKey.join(", ")}`;
  const where = range === undefined ? "" : ` WHERE ${table.columns[declared.names.indexOf(config.scanPartition!.column)]} BETWEEN ${range.lower} AND ${range.upper}`;
  const fetch = { text: `FETCH ${config.fetchSize > 0 ? config.fetchSize : DEFAULT_FETCH_SIZE} FROM weir_scan`, rowMode: "array" as const, types: TEXT_PARSERS };
  try {
    await client.query("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY");
    await client.query(`DECLARE weir_scan NO SCROLL CURSOR FOR SELECT ${positions.map((p) => table.columns[p]).join(", ")} FROM ${table.from}${where}${order}`);
    for (;;) {
      const page = (await client.query<(string | null)[]>(fetch)).rows;
      for (const values of page) yield pgRow(config, declared, positions, values);
      if (page.length === 0) break;
    }
    await client.query("COMMIT");
  } finally {
    await client.end().catch(() => {});
  }
}
