/**
 * A value a format cannot read or write: what is wrong and where in the row
 * (the path of field names, outermost first). The file source adds the file
 * and line; a sink adds the table.
 */

/** A value that does not read as (or cannot be written as) its column's type. */
export class FormatValueError extends Error {
  override readonly name = "FormatValueError";

  /**
   * @param problem what is wrong, e.g. `cannot read "abc" as INT`
   * @param path field names from the row down to the value (empty for the row itself)
   */
  constructor(
    readonly problem: string,
    readonly path: readonly string[] = [],
  ) {
    super(path.length === 0 ? problem : `field '${path.join(".")}': ${problem}`);
  }

  /** The same problem one level further out, in field `name`. */
  within(name: string): FormatValueError {
    return new FormatValueError(this.problem, [name, ...this.path]);
  }
}
