/**
 * The error for an expression that does not type-check: a user mistake,
 * located in the statement text and never reported with a stack trace.
 */
import type { SourceLoc } from "../sql/ast.ts";

/**
 * A validation error such as an unknown column or function or a type
 * mismatch. `message` reads `line 1, column 8: Cannot apply '+' to arguments
 * of type <VARCHAR(2147483647)> and <INT>`.
 *
 * @example
 * ```ts
 * try { inferType(expr, rowType); } catch (e) { if (e instanceof SqlValidationError) console.error(e.message); }
 * ```
 */
export class SqlValidationError extends Error {
  override readonly name = "SqlValidationError";
  readonly line: number;
  readonly column: number;

  constructor(loc: SourceLoc, readonly detail: string) {
    super(`line ${loc.line}, column ${loc.column}: ${detail}`);
    this.line = loc.line;
    this.column = loc.column;
  }
}

