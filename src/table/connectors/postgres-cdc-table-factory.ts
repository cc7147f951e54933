/**
 * The `postgres-cdc` connector (Flink CDC's): a PostgreSQL table as a changelog source — its snapshot as
 * `+I`, then its changes from a logical replication slot. `'changelog-mode' = 'all'` (the default) emits
 * `+I -U +U -D` with the old row of each update and delete, which PostgreSQL sends only for tables with
 * `REPLICA IDENTITY FULL`; `'upsert'` emits the new row of each change by primary key and `-D` by key,
 * made a full changelog by ChangelogNormalize (as upsert-kafka). The declared columns, types and primary
 * key are checked against the table before the job runs (a launch check), and again when the source starts.
 *
 * @example
 * ```sql
 * CREATE TABLE orders (id INT, amount DECIMAL(10, 2), PRIMARY KEY (id) NOT ENFORCED) WITH (
 *   'connector' = 'postgres-cdc', 'hostname' = 'localhost', 'port' = '5432',
 *   'username' = 'weir', 'password' = 'secret', 'database-name' = 'shop',
 *   'schema-name' = 'public', 'table-name' = 'orders', 'slot.name' = 'weir_orders');
 * SELECT COUNT(*), SUM(amount) FROM orders;
 * ```
 */
import { option } from "../../config/config-option.ts";
import type { Collector } from "../../core/collector.ts";
import type { CapturedTable } from "../../connectors/postgres/postgres-cdc-catalog.ts";
import { UNCHANGED_TOAST_VALUE, type DebeziumDeserializationSchema, type PostgresChangeEvent, type PostgresRowValues } from "../../connectors/postgres/postgres-change-event.ts";
import { PostgresSource, StartupOptions } from "../../connectors/postgres/postgres-source.ts";
import { WatermarkStrategy } from "../../time/watermark-strategy.ts";
import { identifierString } from "../catalog/object-identifier.ts";
import type { Row } from "../data/row.ts";
import { RowKind } from "../data/row-kind.ts";
import type { RowType } from "../expr/type-rules.ts";
import { ChangelogMode } from "../plan/changelog-mode.ts";
import { changelogNormalize } from "../runtime/changelog-normalize.ts";
import type { SqlValue } from "../types/sql-value.ts";
import { SqlValidationError } from "../validation/sql-validation-error.ts";
import type { DynamicTableContext, DynamicTableFactory, TableFactoryOptions, TableSource } from "./dynamic-table-factory.ts";
import { checkPgColumns, PostgresSchemaError } from "./postgres-columns.ts";
import { fromPgText } from "./postgres-values.ts";
import { sourceWatermarkStrategy } from "./source-watermarks.ts";
import { WATERMARK_ALIGNMENT_OPTIONS, watermarkAlignmentOf } from "./watermark-alignment-options.ts";

/** A change that cannot become a row of the declared table. */
export class PostgresCdcRowError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PostgresCdcRowError";
  }
}

/** Change events as rows of the declared physical columns. */
class CdcRows implements DebeziumDeserializationSchema<Row> {
  /** The PostgreSQL column of each declared column (set by the start-up check). */
  private columns: string[] = [];

  constructor(
    private readonly table: string,
    private readonly type: RowType,
    private readonly key: readonly number[],
    private readonly upsert: boolean,
  ) {}

  /** Checks the PostgreSQL table against the declaration and learns its column names. */
  check(pg: CapturedTable): void {
    checkPgColumns(this.table, pg, this.type, "read");
    const where = `table '${this.table}' (PostgreSQL table ${pg.schema}.${pg.name})`;
    if (!this.upsert && pg.replicaIdentity !== "f") {
      throw new PostgresSchemaError(
        `${where}: 'changelog-mode' = 'all' needs the old rows of updates and deletes, which PostgreSQL sends only with REPLICA IDENTITY FULL: ALTER TABLE ${pg.schema}.${pg.name} REPLICA IDENTITY FULL, or 'changelog-mode' = 'upsert'`,
      );
    }
    this.columns = this.type.names.map((name) => (pg.columns.find((c) => c.name === name) ?? pg.columns.find((c) => c.name.toLowerCase() === name.toLowerCase()))!.name);
    const declared = this.key.map((i) => this.columns[i]!);
    if (this.key.length > 0 && (declared.length !== pg.primaryKey.length || declared.some((k) => !pg.primaryKey.includes(k)))) {
      throw new PostgresSchemaError(`${where}: the declared PRIMARY KEY (${declared.join(", ")}) is not the table's (${pg.primaryKey.join(", ")})`);
    }
  }

  deserialize(event: PostgresChangeEvent, out: Collector<Row>): void {
    const { before, after } = event;
    switch (event.op) {
      case "r":
      case "c":
        out.collect({ kind: RowKind.INSERT, fields: this.fields(after!) });
        return;
      case "d":
        out.collect({ kind: RowKind.DELETE, fields: this.fields(before!, this.upsert) });
        return;
      case "u":
        if (this.upsert) {
          // a changed key: the old key's row goes away
          if (before !== null && this.key.some((i) => before[this.columns[i]!] !== after![this.columns[i]!])) {
            out.collect({ kind: RowKind.DELETE, fields: this.fields(before, true) });
          }
        } else out.collect({ kind: RowKind.UPDATE_BEFORE, fields: this.fields(before!) });
        out.collect({ kind: RowKind.UPDATE_AFTER, fields: this.fields(after!) });
    }
  }

  /** The declared columns' values of `values`; with `keyOnly`, the key columns alone (the rest NULL). */
  private fields(values: PostgresRowValues, keyOnly = false): SqlValue[] {
    const { names, types } = this.type;
    const fields: SqlValue[] = new Array(names.length);
    for (let i = 0; i < names.length; i++) {
      if (keyOnly && !this.key.includes(i)) {
        fields[i] = null;
        continue;
      }
      const text = values[this.columns[i]!] ?? null;
      if (text === UNCHANGED_TOAST_VALUE) {
        throw new PostgresCdcRowError(`table '${this.table}': PostgreSQL did not send column '${names[i]}' of an update (a large TOASTed value that did not change): give the table REPLICA IDENTITY FULL`);
      }
      try {
        fields[i] = fromPgText(text, types[i]!);
      } catch (e) {
        throw new PostgresCdcRowError(`table '${this.table}', column '${names[i]}': ${(e as Error).message}`);
      }
    }
    return fields;
  }
}

function createSource(ctx: DynamicTableContext): TableSource {
  const table = identifierString(ctx.table.identifier);
  const o = ctx.options.options;
  const fail = (problem: string) => new SqlValidationError(`Invalid options of table '${table}': ${problem}`);
  const upsert = o.get("changelog-mode") === "upsert";
  const key = ctx.primaryKey ?? [];
  if (upsert && key.length === 0) throw fail("'changelog-mode' = 'upsert' needs a PRIMARY KEY (the table's primary key) … NOT ENFORCED.");
  if (o.get("scan.incremental.snapshot.enabled") === true) throw fail("'scan.incremental.snapshot.enabled' = 'true' is not supported: Weir reads the snapshot with one reader (set it to 'false').");
  let publication = "dbz_publication";
  for (const [k, v] of o) {
    if (!k.startsWith("debezium.")) continue;
    if (k !== "debezium.publication.name") throw fail(`'${k}' is not supported (of the Debezium properties, only 'debezium.publication.name').`);
    publication = v as string;
  }
  const rows = new CdcRows(table, ctx.physicalType, key, upsert);
  const builder = PostgresSource.builder<Row>()
    .hostname(o.get("hostname") as string)
    .port(o.get("port") as number)
    .database(o.get("database-name") as string)
    .schemaList(o.get("schema-name") as string)
    .tableList(`${o.get("schema-name") as string}.${o.get("table-name") as string}`)
    .username(o.get("username") as string)
    .password(o.get("password") as string)
    .slotName(o.get("slot.name") as string)
    .decodingPluginName(o.get("decoding.plugin.name") as string)
    .publicationName(publication)
    .startupOptions(o.get("scan.startup.mode") === "latest-offset" ? StartupOptions.latest() : StartupOptions.initial())
    .fetchSize(o.get("scan.snapshot.fetch.size") as number)
    .connectTimeout(Math.max(1, Math.ceil((o.get("connect.timeout") as number) / 1000)))
    .tableCheck((tables) => rows.check(tables[0]!))
    .deserializer(rows);
  let source: PostgresSource<Row>;
  try {
    source = builder.build();
  } catch (e) {
    throw fail((e as Error).message.replace(/^PostgresSource: /, ""));
  }
  return {
    changelogMode: ChangelogMode.RETRACT,
    supportsWatermarkPushDown: true,
    watermarkAlignment: watermarkAlignmentOf(ctx),
    unbounded: true,
    produce(watermarks) {
      const name = `Source: ${table} (postgres-cdc)`;
      const strategy = watermarks === undefined ? WatermarkStrategy.noWatermarks<Row>() : sourceWatermarkStrategy(watermarks);
      const changes = ctx.env.fromSource(source, strategy, name).uid(ctx.uid).name(name).setParallelism(1);
      ctx.env.addLaunchCheck(changes, () => source.checkTables());
      if (!upsert) return changes;
      const names = key.map((p) => ctx.physicalType.names[p]).join(", ");
      return changelogNormalize(changes, key, { uid: `${ctx.uid}-normalize`, name: `ChangelogNormalize(key=[${names}])` });
    },
  };
}

/** The options of `postgres-cdc`, with Flink's keys and defaults. */
const OPTIONS: TableFactoryOptions = {
  requiredOptions: [
    option("hostname", { kind: "string" }, "The PostgreSQL server's host."),
    option("username", { kind: "string" }, "The user (needs the REPLICATION attribute and SELECT on the table)."),
    option("password", { kind: "string" }, "The user's password."),
    option("database-name", { kind: "string" }, "The database of the table."),
    option("schema-name", { kind: "string" }, "The schema of the table."),
    option("table-name", { kind: "string" }, "The table (its exact name)."),
    option("slot.name", { kind: "string" }, "The logical replication slot of this source (lower-case letters, digits, '_'); created when missing."),
  ],
  optionalOptions: [
    ...WATERMARK_ALIGNMENT_OPTIONS,
    option("port", { kind: "int" }, "The server's port.", 5432),
    option("decoding.plugin.name", { kind: "string" }, "The logical decoding plugin: only 'pgoutput' (Flink CDC's default is 'decoderbufs').", "pgoutput"),
    option("scan.startup.mode", { kind: "enum", values: ["initial", "latest-offset"] }, "'initial': a snapshot of the table, then its changes; 'latest-offset': only changes.", "initial"),
    option("changelog-mode", { kind: "enum", values: ["all", "upsert"] }, "'all': +I -U +U -D with before images (needs REPLICA IDENTITY FULL); 'upsert': changes by primary key, normalized in state.", "all"),
    option("scan.snapshot.fetch.size", { kind: "int" }, "Rows per query while reading the snapshot.", 1024),
    option("scan.incremental.snapshot.enabled", { kind: "boolean" }, "Flink CDC's parallel incremental snapshot: not supported (false).", false),
    option("connect.timeout", { kind: "duration" }, "How long connecting may take.", 30_000),
    option("debezium.*", { kind: "string" }, "Debezium properties: only 'debezium.publication.name' (default 'dbz_publication')."),
  ],
};

/** The `postgres-cdc` connector's factory. */
export const POSTGRES_CDC_TABLE_FACTORY: DynamicTableFactory = {
  identifier: "postgres-cdc",
  ...OPTIONS,
  createSource,
};
