/**
 * Errors of the PostgreSQL connectors, and which server errors are worth a retry.
 */

/** A connection PostgreSQL refused or that could not be made, naming the server, database and user. */
export class PostgresConnectionError extends Error {
  /** The server's SQLSTATE (e.g. `28P01` wrong password, `3D000` unknown database), or the socket error's code. */
  readonly code: string | undefined;

  constructor(where: string, cause: unknown) {
    super(`PostgreSQL ${where}: ${connectionProblem(cause)}`, { cause });
    this.name = "PostgresConnectionError";
    this.code = errorCode(cause);
  }
}

/** The SQLSTATE of a server error, or the code of a socket error. */
export function errorCode(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : undefined;
}

function connectionProblem(cause: unknown): string {
  const message = cause instanceof Error ? cause.message : String(cause);
  switch (errorCode(cause)) {
    case "28P01":
    case "28000":
      return `the server refused the login (${message}); check the user and password`;
    case "3D000":
      return `${message}; create the database or fix the URL`;
    case "ECONNREFUSED":
      return `nothing listens there (${message}); is the server running, and are host and port right?`;
    case "ENOTFOUND":
      return `unknown host (${message})`;
    default:
      return message;
  }
}

/**
 * SQLSTATE classes and socket errors after which the same work may succeed when tried again: a lost or
 * refused connection (class 08, 57P01–57P03 shutdown, ECONNRESET, ECONNREFUSED…), a serialization failure or
 * deadlock (40001, 40P01), too many connections (53300).
 */
export function isTransientPostgresError(err: unknown): boolean {
  const code = errorCode(err);
  if (code === undefined) {
    const message = err instanceof Error ? err.message : "";
    return /Connection terminated|connection is closed|Client has encountered a connection error/i.test(message);
  }
  if (code.startsWith("08")) return true;
  return ["57P01", "57P02", "57P03", "40001", "40P01", "53300", "ECONNRESET", "ECONNREFUSED", "EPIPE", "ETIMEDOUT"].includes(code);
}
