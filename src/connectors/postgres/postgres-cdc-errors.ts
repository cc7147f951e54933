/**
 * Errors of the PostgreSQL CDC source that a user can fix: a table it cannot capture, a publication that
 * does not publish it, a slot that is missing or in use, a restore its slot can no longer serve.
 */

/** A problem of the CDC source's setup or state, found before or while it reads. */
export class PostgresCdcError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(`PostgresSource: ${message}`, options);
    this.name = "PostgresCdcError";
  }
}
