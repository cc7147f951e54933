/**
 * Flink's `JdbcStatementBuilder`: user code that sets a record's values on the statement's `?`
 * placeholders with JDBC's setters (1-based), and its TypeScript-friendly twin, a function returning the
 * parameters as an array.
 */

/** The statement a `JdbcStatementBuilder` fills (the setters of JDBC's `PreparedStatement`, 1-based). */
export class JdbcParameters {
  /** @internal The values by position (0-based). */
  readonly values: unknown[] = [];

  constructor(private readonly count: number) {}

  private set(index: number, value: unknown): void {
    if (!(Number.isInteger(index) && index >= 1 && index <= this.count))
      throw new RangeError(`parameter index ${index} is out of range: the statement has ${this.count} parameter${this.count === 1 ? "" : "s"} (1…${this.count})`);
    this.values[index - 1] = value === undefined ? null : value;
  }

  setInt(index: number, value: number): void {
    this.set(index, value);
  }
  setShort(index: number, value: number): void {
    this.set(index, value);
  }
  setByte(index: number, value: number): void {
    this.set(index, value);
  }
  /** A BIGINT: a number or a bigint. */
  setLong(index: number, value: number | bigint): void {
    this.set(index, typeof value === "bigint" ? value.toString() : value);
  }
  setDouble(index: number, value: number): void {
    this.set(index, value);
  }
  setFloat(index: number, value: number): void {
    this.set(index, value);
  }
  /** A NUMERIC: its decimal text (exact) or a number. */
  setBigDecimal(index: number, value: string | number | bigint): void {
    this.set(index, String(value));
  }
  setBoolean(index: number, value: boolean): void {
    this.set(index, value);
  }
  setString(index: number, value: string): void {
    this.set(index, value);
  }
  /** A TIMESTAMP / TIMESTAMPTZ: a Date, epoch milliseconds, or PostgreSQL's text. */
  setTimestamp(index: number, value: Date | number | string): void {
    this.set(index, typeof value === "number" ? new Date(value) : value);
  }
  /** A DATE: a Date (its UTC day) or `YYYY-MM-DD`. */
  setDate(index: number, value: Date | string): void {
    this.set(index, value instanceof Date ? value.toISOString().slice(0, 10) : value);
  }
  /** A TIME: `HH:MM:SS[.fff]`. */
  setTime(index: number, value: string): void {
    this.set(index, value);
  }
  /** A BYTEA. */
  setBytes(index: number, value: Uint8Array): void {
    this.set(index, Buffer.isBuffer(value) ? value : Buffer.from(value.buffer, value.byteOffset, value.byteLength));
  }
  /** Any value the `pg` client takes (objects become JSON, arrays PostgreSQL arrays). */
  setObject(index: number, value: unknown): void {
    this.set(index, typeof value === "bigint" ? value.toString() : value);
  }
  /** NULL (the JDBC type argument is accepted and not needed). */
  setNull(index: number, _sqlType?: number): void {
    this.set(index, null);
  }
}

/**
 * Sets one record's values on the statement (Flink's `JdbcStatementBuilder<T>`): a function or an object
 * with `accept`.
 *
 * @example
 * ```ts
 * const builder: JdbcStatementBuilder<Order> = (ps, o) => {
 *   ps.setLong(1, o.id);
 *   ps.setString(2, o.customer);
 *   ps.setBigDecimal(3, o.amount);
 * };
 * ```
 */
export type JdbcStatementBuilder<T> = ((statement: JdbcParameters, value: T) => void) | { accept(statement: JdbcParameters, value: T): void };

/** Thrown when a record's parameters do not match the statement's placeholders. */
export class JdbcParametersError extends Error {
  constructor(where: string, message: string) {
    super(`${where}: ${message}`);
    this.name = "JdbcParametersError";
  }
}

/** The parameters function of a builder: every placeholder must be set. */
export function builderParameters<T>(builder: JdbcStatementBuilder<T>, count: number, where: string): (value: T) => unknown[] {
  const accept = typeof builder === "function" ? builder : (ps: JdbcParameters, v: T) => builder.accept(ps, v);
  return (value) => {
    const ps = new JdbcParameters(count);
    accept(ps, value);
    const values = ps.values;
    for (let i = 0; i < count; i++) if (!(i in values)) throw new JdbcParametersError(where, `the statement builder set no value for parameter ${i + 1} of ${count}`);
    return values;
  };
}

/** The parameters function of the TypeScript-friendly form: an array of exactly `count` values. */
export function arrayParameters<T>(parameters: (value: T) => readonly unknown[], count: number, where: string): (value: T) => unknown[] {
  return (value) => {
    const values = parameters(value);
    if (!Array.isArray(values) || values.length !== count)
      throw new JdbcParametersError(where, `the parameters function returned ${Array.isArray(values) ? `${values.length} values` : typeof values}, the statement has ${count} placeholders`);
    return values.map((v) => (v === undefined ? null : typeof v === "bigint" ? v.toString() : v));
  };
}
