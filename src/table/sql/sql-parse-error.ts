/**
 * The error for SQL the parser does not accept: a user mistake, reported with
 * its position and never with a stack trace of the parser.
 */
import type { SourceLoc } from "./lexer.ts";

/**
 * A syntax error, an unsupported construct or an invalid literal, located in
 * the statement text. `message` reads `line 3, column 14: expected ')' but
 * found 'FROM'`; {@link SqlParseError.render} adds the offending line with a
 * caret under the position.
 *
 * @example
 * ```ts
 * try {
 *   parseStatement("SELECT a FROM");
 * } catch (e) {
 *   if (e instanceof SqlParseError) console.error(e.render());
 * }
 * ```
 */
export class SqlParseError extends Error {
  override readonly name = "SqlParseError";
  /** 1-based line of the error. */
  readonly line: number;
  /** 1-based column of the error. */
  readonly column: number;
  /** 0-based character offset of the error in {@link SqlParseError.sql}. */
  readonly offset: number;
  /** The message without the position prefix. */
  readonly detail: string;

  constructor(
    /** The whole SQL text that was parsed. */
    readonly sql: string,
    loc: SourceLoc,
    detail: string,
    /** The text of the token found at the position; empty at the end of input. */
    readonly found: string,
    /** What the parser would have accepted instead, when known. */
    readonly expected: readonly string[] = [],
  ) {
    super(`line ${loc.line}, column ${loc.column}: ${detail}`);
    this.line = loc.line;
    this.column = loc.column;
    this.offset = loc.offset;
    this.detail = detail;
  }

  /** The message, then the offending line of SQL with a caret under the error position. */
  render(): string {
    return `${this.message}\n${renderCaret(this.sql, this.offset)}`;
  }
}

/**
 * Renders the line of `sql` that contains `offset`, with a caret under that
 * character on the line below.
 *
 * @example
 * ```ts
 * renderCaret("SELECT a\nFROM", 13); // "FROM\n    ^"
 * ```
 */
export function renderCaret(sql: string, offset: number): string {
  const start = sql.lastIndexOf("\n", offset - 1) + 1;
  let end = sql.indexOf("\n", offset);
  if (end < 0) end = sql.length;
  const line = sql.slice(start, end).replace(/\r$/, "");
  const pad = sql.slice(start, offset).replace(/[^\t]/g, " ");
  return `${line}\n${pad}^`;
}
