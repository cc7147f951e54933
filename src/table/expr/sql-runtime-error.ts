/**
 * A failure while evaluating an expression on a row (division by zero, a
 * CAST of text that is not a number): Flink fails the job with it.
 *
 * @example
 * ```ts
 * compile(parseExpr("1 / a"), rowType)([0]); // throws SqlRuntimeError: Division by zero
 * ```
 */
export class SqlRuntimeError extends Error {
  override readonly name = "SqlRuntimeError";
}
