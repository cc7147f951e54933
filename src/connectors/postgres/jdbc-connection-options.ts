/**
 * Where a PostgreSQL connector connects (Flink's `JdbcConnectionOptions`): a JDBC URL
 * `jdbc:postgresql://host[:port]/database[?user=…&password=…&currentSchema=…]`, a user and a password.
 */

/** A URL or connection setting that cannot work, found before the job runs. */
export class JdbcConnectionOptionsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "JdbcConnectionOptionsError";
  }
}

/** The parts of a `jdbc:postgresql:` URL. */
export interface PostgresAddress {
  host: string;
  port: number;
  database: string;
  /** Query parameters of the URL (`user`, `password`, `currentSchema`, `ApplicationName`, …). */
  params: Readonly<Record<string, string>>;
}

/**
 * Parses `jdbc:postgresql://host[:port]/database[?k=v&…]` (also without `jdbc:`, and `postgres://`).
 *
 * @example
 * ```ts
 * parseJdbcUrl("jdbc:postgresql://localhost:5432/shop?currentSchema=sales");
 * // { host: "localhost", port: 5432, database: "shop", params: { currentSchema: "sales" } }
 * ```
 */
export function parseJdbcUrl(url: string): PostgresAddress {
  const m = /^(?:jdbc:)?(?:postgresql|postgres):\/\/(\[[^\]]+\]|[^/:?]*)(?::(\d+))?(?:\/([^?]*))?(?:\?(.*))?$/.exec(url.trim());
  if (m === null) {
    throw new JdbcConnectionOptionsError(`'${url}' is not a PostgreSQL JDBC URL: expected jdbc:postgresql://host:port/database`);
  }
  const host = m[1]!.replace(/^\[|\]$/g, "") || "localhost";
  const port = m[2] === undefined ? 5432 : Number(m[2]);
  if (!(port > 0 && port < 65536)) throw new JdbcConnectionOptionsError(`'${url}': port ${m[2]} is out of range`);
  const database = decodeURIComponent(m[3] ?? "");
  if (database === "") throw new JdbcConnectionOptionsError(`'${url}' names no database: expected jdbc:postgresql://host:port/database`);
  const params: Record<string, string> = {};
  for (const pair of (m[4] ?? "").split("&")) {
    if (pair === "") continue;
    const eq = pair.indexOf("=");
    const key = decodeURIComponent(eq < 0 ? pair : pair.slice(0, eq));
    params[key] = eq < 0 ? "" : decodeURIComponent(pair.slice(eq + 1));
  }
  return { host, port, database, params };
}

/** Resolved connection settings of a PostgreSQL connector. */
export class JdbcConnectionOptions {
  /** The parsed URL. */
  readonly address: PostgresAddress;

  private constructor(
    /** The JDBC URL as given. */
    readonly url: string,
    /** The user (the builder's, else the URL's `user`). */
    readonly username: string | undefined,
    /** The password (the builder's, else the URL's `password`). */
    readonly password: string | undefined,
    /** How long to wait for a connection, in seconds (Flink's `connectionCheckTimeoutSeconds`, default 60). */
    readonly connectionCheckTimeoutSeconds: number,
  ) {
    this.address = parseJdbcUrl(url);
  }

  /**
   * Starts a builder (Flink's `new JdbcConnectionOptions.JdbcConnectionOptionsBuilder()`).
   *
   * @example
   * ```ts
   * const connection = JdbcConnectionOptions.builder()
   *   .withUrl("jdbc:postgresql://localhost:5432/shop")
   *   .withUsername("weir").withPassword(process.env.PGPASSWORD!)
   *   .build();
   * ```
   */
  static builder(): JdbcConnectionOptionsBuilder {
    return new JdbcConnectionOptionsBuilder();
  }

  /** @internal Used by the builder. */
  static create(url: string, username: string | undefined, password: string | undefined, timeoutSeconds: number): JdbcConnectionOptions {
    return new JdbcConnectionOptions(url, username, password, timeoutSeconds);
  }

  /** The user a connection logs in as (builder, URL, else `postgres`). */
  get user(): string {
    return this.username ?? this.address.params["user"] ?? "postgres";
  }

  /** `host:port/database` as user, for messages (never the password). */
  describe(): string {
    return `${this.address.host}:${this.address.port}/${this.address.database} as ${this.user}`;
  }
}

/** Builds `JdbcConnectionOptions` (Flink's builder names). */
export class JdbcConnectionOptionsBuilder {
  private url: string | undefined;
  private username: string | undefined;
  private password: string | undefined;
  private timeoutSeconds = 60;

  /** The JDBC URL, `jdbc:postgresql://host:port/database`. */
  withUrl(url: string): this {
    this.url = url;
    return this;
  }

  /** Accepted for Flink compatibility: only `org.postgresql.Driver` (PostgreSQL) is supported. */
  withDriverName(driver: string): this {
    if (driver !== "org.postgresql.Driver") throw new JdbcConnectionOptionsError(`driver '${driver}' is not supported: Weir connects to PostgreSQL only (org.postgresql.Driver)`);
    return this;
  }

  withUsername(username: string): this {
    this.username = username;
    return this;
  }

  withPassword(password: string): this {
    this.password = password;
    return this;
  }

  /** How long a connection attempt may take, in seconds (default 60). */
  withConnectionCheckTimeoutSeconds(seconds: number): this {
    if (!(seconds > 0)) throw new JdbcConnectionOptionsError(`connection check timeout must be a positive number of seconds, got ${seconds}`);
    this.timeoutSeconds = seconds;
    return this;
  }

  build(): JdbcConnectionOptions {
    if (this.url === undefined) throw new JdbcConnectionOptionsError("JdbcConnectionOptions: withUrl(...) is required");
    return JdbcConnectionOptions.create(this.url, this.username, this.password, this.timeoutSeconds);
  }
}
