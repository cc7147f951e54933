/**
 * An error a REST handler answers with, in Flink's shape: an HTTP status and
 * `{"errors": ["…"]}`.
 */

/**
 * @example
 * ```ts
 * throw new RestError(404, `Job ${jid} not found`);
 * ```
 */
export class RestError extends Error {
  override readonly name = "RestError";
  constructor(
    /** The HTTP status of the answer (400, 401, 403, 404, 405, 409, 413, 415, 500). */
    readonly status: number,
    message: string,
    /** Extra response headers (e.g. `Allow` with a 405, `WWW-Authenticate` with a 401). */
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
  }
}

/** The server cannot start with the options it was given (a non-loopback address without a token, a bad port…). */
export class RestConfigError extends Error {
  override readonly name = "RestConfigError";
}
