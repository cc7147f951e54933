/**
 * Test helpers: an expression parsed from `SELECT <expr> FROM t` and a row
 * type from `name TYPE` pairs written in SQL.
 */
import type { Expr } from "../sql/ast.ts";
import { parseStatement } from "../sql/parser.ts";
import type { RowType } from "./type-rules.ts";
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
