/**
 * `PostgresSource`: Flink CDC's PostgreSQL change-data-capture source on the FLIP-27 source SPI. It takes a
 * consistent initial snapshot of the captured tables (from the snapshot a new logical replication slot
 * exports), then streams their changes from the slot with pgoutput. One split, one reader: the source
 * reads one slot (Flink CDC's incremental, parallel snapshot is not implemented).
 */
import type { Source, SourceReader, SourceReaderContext } from "../../core/source.ts";
import { getLogger } from "../../util/logger.ts";
import { JdbcConnectionOptions } from "./jdbc-connection-options.ts";
import { loadCapturedTables } from "./postgres-cdc-catalog.ts";
import type { PgTableSchema as CapturedTable } from "./postgres-table-schema.ts";
import { PostgresCdcError } from "./postgres-cdc-errors.ts";
import { connect } from "./postgres-connect.ts";
import type { DebeziumDeserializationSchema } from "./postgres-change-event.ts";
import { PostgresSourceReader, type PostgresSourceReaderConfig } from "./postgres-source-reader.ts";
import { initialPostgresSplit, type PostgresSourceSplit } from "./postgres-source-split.ts";

/**
 * Where a fresh job starts (Flink CDC's `StartupOptions`; a restored job resumes from its checkpoint).
 *
 * @example
 * ```ts
 * builder.startupOptions(StartupOptions.initial()); // snapshot, then changes (default)
 * builder.startupOptions(StartupOptions.latest());  // changes from now (the slot's position if it exists)
 * ```
 */
export class StartupOptions {
  private constructor(
    /** `initial` or `latest-offset` (the SQL option `scan.startup.mode`). */
    readonly startupMode: "initial" | "latest-offset",
  ) {}

  /** A snapshot of the tables, then their changes. */
  static initial(): StartupOptions {
    return new StartupOptions("initial");
  }

  /** Only changes: from an existing slot's confirmed position, else from the new slot's creation. */
  static latest(): StartupOptions {
    return new StartupOptions("latest-offset");
  }
}

/**
 * A source of the changes of PostgreSQL tables.
 *
 * @example
 * ```ts
 * const source = PostgresSource.builder<string>()
 *   .hostname("localhost").port(5432).database("shop")
 *   .schemaList("public").tableList("public.orders")
 *   .username("weir").password(process.env.PGPASSWORD!)
 *   .slotName("weir_orders").decodingPluginName("pgoutput")
 *   .deserializer(new JsonDebeziumDeserializationSchema())
 *   .build();
 * env.fromSource(source, WatermarkStrategy.noWatermarks(), "orders-cdc").setParallelism(1);
 * ```
 */
export class PostgresSource<T> implements Source<T, PostgresSourceSplit> {
  readonly boundedness = "continuous" as const;

  /** @internal Use `PostgresSource.builder()`. */
  constructor(private readonly config: PostgresSourceReaderConfig<T>) {}

  /** A builder (Flink CDC's `PostgresSource.builder()`). */
  static builder<T>(): PostgresSourceBuilder<T> {
    return new PostgresSourceBuilder<T>();
  }

  /** One split: the slot. At parallelism > 1 the other readers stay idle. */
  createSplits(parallelism: number): PostgresSourceSplit[] {
    if (parallelism > 1) getLogger().warn(`PostgresSource: reads one replication slot (${this.config.slotName}) with one reader; ${parallelism - 1} reader(s) stay idle (use setParallelism(1))`);
    return [initialPostgresSplit()];
  }

  splitId(): string {
    return `postgres-cdc-${this.config.slotName}`;
  }

  /**
   * @internal Connects and checks the captured tables as a reader does before reading (they exist, have a
   * primary key, pass the builder's `tableCheck`): the SQL connector's launch check, so a wrong declaration
   * or login fails before the job runs.
   */
  async checkTables(): Promise<void> {
    const { connection } = this.config;
    const client = await connect(connection, { purpose: `weir postgres-cdc check ${this.config.slotName}` });
    try {
      this.config.checkTables?.(await loadCapturedTables(client, this.config.tables, connection.describe()));
    } finally {
      await client.end().catch(() => {});
    }
  }

  createReader(_context: SourceReaderContext): SourceReader<T, PostgresSourceSplit> {
    return new PostgresSourceReader<T>(this.config);
  }
}

/** Legal slot names: PostgreSQL allows lower-case letters, digits and underscores, at most 63. */
const SLOT_NAME = /^[a-z0-9_]{1,63}$/;

/**
 * Builds a {@link PostgresSource} (Flink CDC's builder names); `build()` checks everything it can without
 * the server.
 *
 * @example
 * ```ts
 * PostgresSource.builder<PostgresChangeEvent>()
 *   .hostname("db").database("shop").tableList("public.orders", "public.customers")
 *   .username("cdc").password("secret").slotName("weir_shop")
 *   .startupOptions(StartupOptions.latest())
 *   .deserializer(new ChangeEventDeserializationSchema())
 *   .build();
 * ```
 */
export class PostgresSourceBuilder<T> {
  private host: string | undefined;
  private portNumber = 5432;
  private databaseName: string | undefined;
  private schemas: string[] | undefined;
  private tables: string[] = [];
  private user: string | undefined;
  private pass: string | undefined;
  private slot: string | undefined;
  private plugin = "pgoutput";
  private publication = "dbz_publication";
  private startup = StartupOptions.initial();
  private fetch = 1024;
  private schema: DebeziumDeserializationSchema<T> | undefined;
  private connectTimeoutSeconds = 30;
  private check: ((tables: readonly CapturedTable[]) => void) | undefined;

  hostname(hostname: string): this {
    this.host = hostname;
    return this;
  }

  /** Default 5432. */
  port(port: number): this {
    this.portNumber = port;
    return this;
  }

  database(database: string): this {
    this.databaseName = database;
    return this;
  }

  /** The schemas of the tables; the first is the schema of a table named without one (default `public`). */
  schemaList(...schemas: string[]): this {
    this.schemas = schemas;
    return this;
  }

  /** The captured tables, `schema.table` or `table` (exact names). */
  tableList(...tables: string[]): this {
    this.tables = tables;
    return this;
  }

  username(username: string): this {
    this.user = username;
    return this;
  }

  password(password: string): this {
    this.pass = password;
    return this;
  }

  /** The logical replication slot (lower-case letters, digits, `_`): one per source; created when missing. */
  slotName(slotName: string): this {
    this.slot = slotName;
    return this;
  }

  /** Only `pgoutput` (PostgreSQL's built-in plugin) is supported. */
  decodingPluginName(name: string): this {
    this.plugin = name;
    return this;
  }

  /** The publication streamed (default `dbz_publication`, as Flink CDC); created `FOR TABLE …` when missing. */
  publicationName(name: string): this {
    this.publication = name;
    return this;
  }

  /** Where a fresh job starts (default `StartupOptions.initial()`). */
  startupOptions(options: StartupOptions): this {
    this.startup = options;
    return this;
  }

  /** Rows per query while reading the snapshot (default 1024). */
  fetchSize(rows: number): this {
    this.fetch = rows;
    return this;
  }

  /** How long connecting may take, in seconds (default 30; Flink CDC's `connect.timeout`). */
  connectTimeout(seconds: number): this {
    this.connectTimeoutSeconds = seconds;
    return this;
  }

  /** @internal A check of the captured tables before anything is read (the SQL connector's declared columns). */
  tableCheck(check: (tables: readonly CapturedTable[]) => void): this {
    this.check = check;
    return this;
  }

  deserializer(deserializer: DebeziumDeserializationSchema<T>): this {
    this.schema = deserializer;
    return this;
  }

  build(): PostgresSource<T> {
    if (this.host === undefined || this.host === "") throw new PostgresCdcError("hostname is required");
    if (this.databaseName === undefined || this.databaseName === "") throw new PostgresCdcError("database is required");
    if (!Number.isInteger(this.portNumber) || this.portNumber <= 0 || this.portNumber > 65535) throw new PostgresCdcError(`port ${this.portNumber} is out of range`);
    if (this.user === undefined || this.user === "") throw new PostgresCdcError("username is required");
    if (this.slot === undefined) throw new PostgresCdcError("slotName is required (one logical replication slot per source)");
    if (!SLOT_NAME.test(this.slot)) throw new PostgresCdcError(`slot name '${this.slot}' is not legal: lower-case letters, digits and '_', at most 63`);
    if (this.plugin !== "pgoutput") throw new PostgresCdcError(`decoding plugin '${this.plugin}' is not supported: only pgoutput (built into PostgreSQL 10+)`);
    if (this.publication === "") throw new PostgresCdcError("the publication name must not be empty");
    if (!(Number.isInteger(this.fetch) && this.fetch > 0)) throw new PostgresCdcError(`fetch size must be a positive integer, got ${this.fetch}`);
    if (this.schema === undefined) throw new PostgresCdcError("no deserializer (deserializer(new JsonDebeziumDeserializationSchema()))");
    const defaultSchema = this.schemas?.[0] ?? "public";
    if (this.tables.length === 0) throw new PostgresCdcError("no tables to capture (tableList(\"public.orders\"))");
    const tables = this.tables.map((t) => {
      const dot = t.indexOf(".");
      const table = dot < 0 ? { schema: defaultSchema, name: t } : { schema: t.slice(0, dot), name: t.slice(dot + 1) };
      if (table.name === "" || table.schema === "") throw new PostgresCdcError(`'${t}' is not a table name (schema.table)`);
      if (this.schemas !== undefined && !this.schemas.includes(table.schema)) throw new PostgresCdcError(`table ${t} is not in the schema list ${this.schemas.join(", ")}`);
      return table;
    });
    const url = `jdbc:postgresql://${this.host.includes(":") ? `[${this.host}]` : this.host}:${this.portNumber}/${encodeURIComponent(this.databaseName)}`;
    const connection = JdbcConnectionOptions.builder().withUrl(url).withUsername(this.user).withConnectionCheckTimeoutSeconds(this.connectTimeoutSeconds);
    if (this.pass !== undefined) connection.withPassword(this.pass);
    return new PostgresSource<T>({
      connection: connection.build(),
      tables,
      slotName: this.slot,
      publicationName: this.publication,
      startup: this.startup.startupMode,
      deserializer: this.schema,
      snapshotFetchSize: this.fetch,
      statusIntervalMs: 10_000,
      ...(this.check === undefined ? {} : { checkTables: this.check }),
    });
  }
}
