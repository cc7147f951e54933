/**
 * The batch oracle of the SQL suites ("continuous = batch"): runs a query in
 * an in-memory DuckDB over the input rows a test has fed so far and returns
 * its result as rows of Weir's SQL values, to compare with the folded
 * changelog of the same query run continuously.
 *
 * Input values: strings, numbers (DOUBLE), bigints (BIGINT), booleans,
 * decimals and NULL; a column's DuckDB type comes from the table's DDL (a
 * TIMESTAMP column takes the text `2026-01-01 00:00:01.234`).
 */
import { DuckDBDateValue, DuckDBDecimalValue, DuckDBInstance, DuckDBTimestampValue } from "@duckdb/node-api";
import { Row } from "../../src/table/data/row.ts";
import { decimal, decimalToString, isDecimal } from "../../src/table/types/decimal.ts";
import type { SqlValue } from "../../src/table/types/sql-value.ts";

/** An input table: its DuckDB column list (`"user" VARCHAR, n BIGINT`) and rows. */
export interface OracleTable {
  readonly name: string;
  readonly columns: string;
  readonly rows: readonly (readonly SqlValue[])[];
}

/** The rows of `query` over `tables`, in batch, as `+I` rows. */
export async function batchResult(tables: readonly OracleTable[], query: string): Promise<Row[]> {
  const oracle = await openOracle(tables);
  try {
    return await oracle.result(query);
  } finally {
    oracle.close();
  }
}

/** A DuckDB database holding input tables, for running many queries over one input. */
export interface BatchOracle {
  /** The rows of `query`, in batch, as `+I` rows. */
  result(query: string): Promise<Row[]>;
  close(): void;
}

/**
 * An in-memory DuckDB with `tables` loaded, after running the `setup`
 * statements (e.g. `CREATE MACRO`) first.
 *
 * @example
 * ```ts
 * const oracle = await openOracle([{ name: "t", columns: "x BIGINT", rows: [[1n]] }]);
 * await oracle.result("SELECT SUM(x) FROM t"); // [+I[1]]
 * oracle.close();
 * ```
 */
export async function openOracle(tables: readonly OracleTable[], setup: readonly string[] = []): Promise<BatchOracle> {
  const db = await DuckDBInstance.create(":memory:");
  const connection = await db.connect();
  try {
    for (const s of setup) await connection.run(s);
    for (const t of tables) {
      await connection.run(`CREATE TABLE ${t.name} (${t.columns})`);
      if (t.rows.length > 0) await connection.run(`INSERT INTO ${t.name} VALUES ${t.rows.map((r) => `(${r.map(literal).join(", ")})`).join(", ")}`);
    }
  } catch (e) {
    connection.closeSync();
    db.closeSync();
    throw e;
  }
  return {
    async result(query) {
      const result = await connection.runAndReadAll(query);
      return result.getRows().map((r) => Row.of(...r.map(fromDuckDb)));
    },
    close() {
      connection.closeSync();
      db.closeSync();
    },
  };
}

/** A SQL literal of DuckDB for an input value. */
function literal(v: SqlValue): string {
  if (v === null) return "NULL";
  if (typeof v === "string") return `'${v.replaceAll("'", "''")}'`;
  if (typeof v === "number" || typeof v === "bigint" || typeof v === "boolean") return String(v);
  if (isDecimal(v)) return decimalToString(v);
  throw new TypeError(`the DuckDB oracle has no literal for ${String(v)} yet`);
}

/** Weir's representation of a DuckDB result value (timestamps in epoch ms, dates in epoch days). */
function fromDuckDb(v: unknown): SqlValue {
  if (v instanceof DuckDBDecimalValue) return decimal(v.value, v.scale);
  if (v instanceof DuckDBTimestampValue) return Number(v.micros / 1000n);
  if (v instanceof DuckDBDateValue) return v.days;
  return v as SqlValue;
}
