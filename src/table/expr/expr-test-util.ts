/**
 * Test helpers: an expression parsed from `SELECT <expr> FROM t` and a row
 * type from `name TYPE` pairs written in SQL.
 */
import type { Expr } from "../sql/ast.ts";
import { parseStatement } from "../sql/parser.ts";
import { typeToString, type RowType } from "./type-rules.ts";
import type { SqlValue } from "../types/sql-value.ts";
import { bindExpression, type BindOptions } from "./compile-expression.ts";
import { toLogicalType } from "../types/logical-type.ts";

/**
 * The expression of `SELECT <text> FROM t` (columns count from 8 on line 1).
 *
 * @example
 * ```ts
 * parseExpr("a + 1").kind; // "binary"
 * ```
 */
export function parseExpr(text: string): Expr {
  const s = parseStatement(`SELECT ${text} FROM t`);
  if (s.kind !== "query" || s.query.body.kind !== "select") throw new Error("not a SELECT");
  return s.query.body.items[0]!.expr;
}

/**
 * A row type from a CREATE TABLE column list, e.g. `a INT, s STRING NOT NULL`.
 *
 * @example
 * ```ts
 * rowTypeOf("a INT").names; // ["a"]
 * ```
 */
export function rowTypeOf(columns: string): RowType {
  const s = parseStatement(`CREATE TABLE t (${columns}) WITH ()`);
  if (s.kind !== "createTable") throw new Error("not CREATE TABLE");
  const names: string[] = [];
  const types = [];
  for (const c of s.columns) {
    if (c.kind !== "physical") throw new Error("computed column");
    names.push(c.name.value);
    types.push(toLogicalType(c.type));
  }
  return { names, types };
}

const NO_COLUMNS: RowType = { names: [], types: [] };

/**
 * The value of `text` evaluated on one row of `columns` (a CREATE TABLE
 * column list) with the given field values.
 *
 * @example
 * ```ts
 * evaluate("UPPER(s)", "s STRING", ["a"]); // "A"
 * evaluate("1 + 2"); // 3
 * ```
 */
export function evaluate(text: string, columns?: string, values: SqlValue[] = [], options?: BindOptions): SqlValue {
  return bindExpression(parseExpr(text), columns === undefined ? NO_COLUMNS : rowTypeOf(columns), options).eval(values);
}

/** The type of `text` over `columns` as Flink prints it (`INT NOT NULL`). */
export function typeOfExpr(text: string, columns?: string, options?: BindOptions): string {
  return typeToString(bindExpression(parseExpr(text), columns === undefined ? NO_COLUMNS : rowTypeOf(columns), options).type);
}

/** The message of the error binding `text` throws (or "no error"). */
export function bindError(text: string, rowType: RowType = NO_COLUMNS, options?: BindOptions): string {
  try {
    bindExpression(parseExpr(text), rowType, options);
    return "no error";
  } catch (err) {
    return (err as Error).message;
  }
}
