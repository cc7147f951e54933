/**
 * The error for a statement that parses but is invalid: against the catalog, the
 * rules of Flink's DDL or the types of an expression: an unknown column, table or
 * function, a type mismatch, a duplicate name, an
 * unsupported connector option.
 */
import type { SourceLoc } from "../sql/ast.ts";

/**
 * A user mistake found after parsing, located in the statement when the
 * mistake has a position: `message` reads `line 3, column 17: Unknown column
 * 'ctime' in WATERMARK. Did you mean 'cTime'?`.
 *
 * @example
 * ```ts
 * throw new SqlValidationError("Duplicate column name 'a'", column.name.loc);
 * ```
 */
export class SqlValidationError extends Error {
  override readonly name = "SqlValidationError";
  /** 1-based line of the mistake, when located. */
  readonly line: number | undefined;
  /** 1-based column of the mistake, when located. */
  readonly column: number | undefined;

  constructor(
    /** The message without the position prefix. */
    readonly detail: string,
    loc?: SourceLoc,
  ) {
    super(loc === undefined ? detail : `line ${loc.line}, column ${loc.column}: ${detail}`);
    this.line = loc?.line;
    this.column = loc?.column;
  }
}
