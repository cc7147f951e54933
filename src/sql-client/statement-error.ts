/**
 * How the SQL client shows a statement that failed: a parse or validation
 * error with its place (in the script, or in the statement typed), the line
 * of SQL and a caret under the position; any other error as its message.
 */
import { renderCaret, SqlParseError } from "../table/sql/sql-parse-error.ts";
import { SqlValidationError } from "../table/validation/sql-validation-error.ts";
import type { ScriptStatement } from "./statement-splitter.ts";

/**
 * The located message of `e`, thrown by `statement` of `script`: `job.sql:3:14: detail`
 * (or `line 3, column 14: detail` without a `file`), the script's line and a caret.
 *
 * @example
 * ```ts
 * describeStatementError(err, statement, scriptText, "job.sql");
 * // job.sql:2:8: Column 'usr' not found in any table; did you mean 'user'?
 * // SELECT usr FROM clicks
 * //        ^
 * ```
 */
export function describeStatementError(e: unknown, statement: ScriptStatement, script: string, file?: string): string {
  if ((e instanceof SqlParseError || e instanceof SqlValidationError) && e.line !== undefined && e.column !== undefined) {
    const line = statement.line + e.line - 1;
    const column = e.line === 1 ? statement.column + e.column - 1 : e.column;
    const where = file === undefined ? `line ${line}, column ${column}` : `${file}:${line}:${column}`;
    return `${where}: ${e.detail}\n${renderCaret(script, offsetOf(script, line, column))}`;
  }
  const err = e instanceof Error ? e : new Error(String(e));
  const detail = e instanceof SqlParseError || e instanceof SqlValidationError ? e.detail : err.message;
  const message = err.name && err.name !== "Error" && !detail.startsWith(err.name) && !(e instanceof SqlValidationError) ? `${err.name}: ${detail}` : detail;
  return file === undefined ? message : `${file}:${statement.line}:${statement.column}: ${message}`;
}

/** The 0-based offset of 1-based `line` and `column` in `text`. */
function offsetOf(text: string, line: number, column: number): number {
  let offset = 0;
  for (let l = 1; l < line; l++) {
    const nl = text.indexOf("\n", offset);
    if (nl < 0) break;
    offset = nl + 1;
  }
  return Math.min(text.length, offset + column - 1);
}
