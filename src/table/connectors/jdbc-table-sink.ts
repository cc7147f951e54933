/**
 * The sink of a `'connector' = 'jdbc'` table (Flink's `JdbcDynamicTableSink`, PostgreSQL): with a PRIMARY
 * KEY it upserts — `+I`/`+U` as `INSERT … ON CONFLICT (key) DO UPDATE`, `-D` as a DELETE by key — and a
 * batch keeps only the last change of each key, so a `-U` is dropped by the `+U` that follows it (a `-U`
 * without one, e.g. a filter dropping the new row, deletes its key); without a key it appends.
 * The rows of a key go to one subtask (keyed by the primary key). At start the declared columns are
 * checked against the PostgreSQL table (missing columns, types that do not fit, no unique index for the
 * key). Batching, retries and exactly-once (`'sink.delivery-guarantee' = 'exactly-once'`: prepared
 * transactions committed with checkpoints) are the DataStream JdbcSink's.
 */
import { checkStatement, statementSteps, type JdbcBatch, type JdbcQueryClient, type JdbcStep, type JdbcWork } from "../../connectors/postgres/jdbc-batch.ts";
import { JdbcExactlyOnceOptions } from "../../connectors/postgres/jdbc-exactly-once-options.ts";
import { JdbcExecutionOptions } from "../../connectors/postgres/jdbc-execution-options.ts";
import { JdbcSink } from "../../connectors/postgres/jdbc-sink.ts";
import { JdbcPreparedTransactionsDisabledError } from "../../connectors/postgres/jdbc-sink-errors.ts";
import { connect } from "../../connectors/postgres/postgres-connect.ts";
import { jdbcStatement, type JdbcStatement } from "../../connectors/postgres/jdbc-statement.ts";
import { describeTable, type PgTableSchema } from "../../connectors/postgres/postgres-table-schema.ts";
import type { Row } from "../data/row.ts";
import { RowKind } from "../data/row-kind.ts";
import type { RowType } from "../expr/type-rules.ts";
import { ChangelogMode } from "../plan/changelog-mode.ts";
import { rowKeySelector } from "../runtime/row-key.ts";
import type { DynamicTableContext, TableSink } from "./dynamic-table-factory.ts";
import type { JdbcTableConfig } from "./jdbc-table-config.ts";
import { checkPgColumns, PostgresSchemaError } from "./postgres-columns.ts";
import { pgParam } from "./postgres-values.ts";

function quoteIdentifier(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** The statements of a table, made once its PostgreSQL schema is known. */
interface TableStatements {
  /** INSERT, or INSERT … ON CONFLICT (key) DO UPDATE / DO NOTHING. */
  readonly write: JdbcStatement;
  /** DELETE of the keys `unnest($1::t1[], …)`, with a primary key. */
  readonly delete: string | undefined;
}

/** Builds the statements from the PostgreSQL table, checking the declared columns first. */
function tableStatements(config: JdbcTableConfig, schema: PgTableSchema, declared: RowType, key: readonly number[] | undefined): TableStatements {
  checkPgColumns(config.table, schema, declared, "write");
  const columns = declared.names.map((n) => schema.columns.find((c) => c.name === n) ?? schema.columns.find((c) => c.name.toLowerCase() === n.toLowerCase())!);
  const table = `${quoteIdentifier(schema.schema)}.${quoteIdentifier(schema.name)}`;
  const names = columns.map((c) => quoteIdentifier(c.name));
  let sql = `INSERT INTO ${table} (${names.join(", ")}) VALUES (${names.map((_, i) => `$${i + 1}`).join(", ")})`;
  if (key === undefined) return { write: jdbcStatement(sql), delete: undefined };
  const keyNames = key.map((p) => names[p]!);
  const rest = names.filter((_, i) => !key.includes(i));
  sql += ` ON CONFLICT (${keyNames.join(", ")}) ` + (rest.length === 0 ? "DO NOTHING" : `DO UPDATE SET ${rest.map((n) => `${n} = EXCLUDED.${n}`).join(", ")}`);
  const casts = key.map((p, i) => `$${i + 1}::${columns[p]!.type}[]`);
  const del = `DELETE FROM ${table} WHERE (${keyNames.join(", ")}) IN (SELECT * FROM unnest(${casts.join(", ")}))`;
  return { write: jdbcStatement(sql), delete: del };
}

/** The statements of the sink's table, after checking it exists and the declared columns fit its columns. */
async function resolveStatements(client: JdbcQueryClient, config: JdbcTableConfig, declared: RowType, key: readonly number[] | undefined): Promise<TableStatements> {
  const schema = await describeTable(client, config.tableName);
  if (schema === undefined) throw new PostgresSchemaError(`table '${config.table}': the PostgreSQL table '${config.tableName}' does not exist in ${config.connection.describe()}`);
  return tableStatements(config, schema, declared, key);
}

/** A change waiting in a batch: the row's parameters, or the key's for a delete. */
type Change = { readonly upsert: unknown[] } | { readonly delete: unknown[] };

/** The rows of one subtask: appended in order, or the last change per key. */
class JdbcRowBatch implements JdbcBatch<Row> {
  private appends: unknown[][] = [];
  private changes = new Map<string, Change>();

  constructor(
    private readonly shared: { statements: TableStatements | undefined; resolve(client: JdbcQueryClient): Promise<TableStatements> },
    private readonly type: RowType,
    private readonly key: readonly number[] | undefined,
    private readonly keyOf: ((row: Row) => string) | undefined,
    private readonly batchSize: number,
  ) {}

  add(row: Row): void {
    if (this.key === undefined) {
      this.appends.push(this.params(row));
      return;
    }
    const k = this.keyOf!(row);
    if (row.kind === RowKind.DELETE || row.kind === RowKind.UPDATE_BEFORE) this.changes.set(k, { delete: this.key.map((p) => pgParam(row.fields[p] ?? null, this.type.types[p]!)) });
    else this.changes.set(k, { upsert: this.params(row) });
  }

  get size(): number {
    return this.key === undefined ? this.appends.length : this.changes.size;
  }

  take(): JdbcWork {
    const statements = this.shared.statements;
    if (statements === undefined) throw new Error("jdbc table sink: rows before the table was checked");
    if (this.key === undefined) {
      const rows = this.appends;
      this.appends = [];
      return { rows: rows.length, steps: statementSteps(statements.write, rows, this.batchSize, false) };
    }
    const upserts: unknown[][] = [];
    const deletes: unknown[][] = this.key.map(() => []);
    for (const change of this.changes.values()) {
      if ("upsert" in change) upserts.push(change.upsert);
      else change.delete.forEach((v, i) => deletes[i]!.push(v));
    }
    const rows = this.changes.size;
    this.changes = new Map();
    const steps: JdbcStep[] = statementSteps(statements.write, upserts, this.batchSize, false);
    if (deletes[0]!.length > 0) steps.push({ query: { text: statements.delete!, values: deletes } });
    return { rows, steps };
  }

  /** `["a", params]` per appended row, `["c", key, change]` per key's last change. */
  takePending(): unknown[] {
    const out: unknown[] = [...this.appends.map((p) => ["a", p]), ...[...this.changes].map(([k, c]) => ["c", k, c])];
    this.appends = [];
    this.changes = new Map();
    return out;
  }

  putBack(pending: readonly unknown[]): void {
    for (const entry of pending as (["a", unknown[]] | ["c", string, Change])[]) {
      if (entry[0] === "a") this.appends.push(entry[1]);
      else this.changes.set(entry[1], entry[2]);
    }
  }

  describe(): string {
    const s = this.shared.statements;
    return s === undefined ? "(not checked yet)" : [s.write.text, s.delete].filter((t) => t !== undefined).join("; ");
  }

  async check(client: JdbcQueryClient): Promise<void> {
    const s = await this.shared.resolve(client);
    await checkStatement(client, s.write.text);
    if (s.delete !== undefined) await checkStatement(client, s.delete);
  }

  private params(row: Row): unknown[] {
    const types = this.type.types;
    const out = new Array<unknown>(types.length);
    for (let i = 0; i < types.length; i++) out[i] = pgParam(row.fields[i] ?? null, types[i]!);
    return out;
  }
}

/**
 * The TableSink of a `jdbc` table.
 *
 * @example
 * ```ts
 * // in the jdbc table factory
 * createSink: (ctx) => jdbcTableSink(ctx, jdbcTableConfig(ctx)),
 * ```
 */
export function jdbcTableSink(ctx: DynamicTableContext, config: JdbcTableConfig): TableSink {
  const key = ctx.primaryKey !== undefined && ctx.primaryKey.length > 0 ? ctx.primaryKey : undefined;
  const type = ctx.physicalType;
  const s = config.sink;
  const execution = JdbcExecutionOptions.create(s.maxRows > 0 ? s.maxRows : Number.MAX_SAFE_INTEGER, s.intervalMs, s.maxRetries);
  const exactlyOnce = JdbcExactlyOnceOptions.builder();
  if (s.transactionalIdPrefix !== undefined) exactlyOnce.withTransactionIdPrefix(s.transactionalIdPrefix);
  const shared = {
    statements: undefined as TableStatements | undefined,
    async resolve(client: JdbcQueryClient): Promise<TableStatements> {
      if (this.statements !== undefined) return this.statements;
      this.statements = await resolveStatements(client, config, type, key);
      return this.statements;
    },
  };
  const keyOf = key === undefined ? undefined : rowKeySelector(key);
  const sink = new JdbcSink<Row>({
    name: `jdbc table '${config.table}'`,
    connection: config.connection,
    execution,
    guarantee: s.deliveryGuarantee,
    exactlyOnce: exactlyOnce.build(),
    batch: () => new JdbcRowBatch(shared, type, key, keyOf, execution.batchSize),
  });
  return {
    acceptedMode: key === undefined ? ChangelogMode.INSERT_ONLY : ChangelogMode.RETRACT,
    consume(stream) {
      // before the job starts, the client checks the login, the table, its columns and (exactly-once) that the
      // server takes prepared transactions; writers check again
      ctx.env.addLaunchCheck(stream, async () => {
        const client = await connect(config.connection, { purpose: `weir jdbc check ${config.table}` });
        try {
          await resolveStatements(client, config, type, key);
          if (s.deliveryGuarantee === "exactly-once") {
            const setting = (await client.query("SELECT current_setting('max_prepared_transactions') AS n")).rows[0] as { n: string };
            if (Number(setting.n) === 0) throw new JdbcPreparedTransactionsDisabledError(`table '${config.table}' (${config.connection.describe()})`);
          }
        } finally {
          await client.end();
        }
      });
      const input = keyOf === undefined ? stream : (stream.keyBy(keyOf) as unknown as typeof stream);
      const out = input.sinkTo(sink).uid(ctx.uid).name(`Sink: ${config.table} (jdbc)`);
      if (s.parallelism !== undefined) out.setParallelism(s.parallelism);
      return out;
    },
  };
}
