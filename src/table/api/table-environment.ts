/**
 * `StreamTableEnvironment`: SQL and tables on a StreamExecutionEnvironment
 * (Flink's). Statements run with {@link StreamTableEnvironment.executeSql};
 * queries become {@link Table}s; streams become tables and tables streams,
 * so SQL and the DataStream API mix in one job.
 */
import { newJobId } from "../../deploy/job-id.ts";
import type { DataStream } from "../../api/data-stream.ts";
import type { StreamExecutionEnvironment } from "../../api/environment.ts";
import type { ProcessContext } from "../../core/process-function.ts";
import type { Collector } from "../../core/collector.ts";
import { executeAndCollect } from "../../api/execute-and-collect.ts";
import { currentLaunch, isWorker } from "../../deploy/launch-context.ts";
import { Catalog } from "../catalog/catalog.ts";
import { describeTable } from "../catalog/describe-table.ts";
import { identifierString, resolveIdentifier } from "../catalog/object-identifier.ts";
import type { DynamicTableFactory } from "../connectors/dynamic-table-factory.ts";
import { tableFactoryRegistry } from "../connectors/table-factory-registry.ts";
import type { FactoryRegistry } from "../catalog/factory-options.ts";
import { Row } from "../data/row.ts";
import type { InsertStatement, Statement, StatementOf } from "../sql/ast.ts";
import { parseStatement } from "../sql/parser.ts";
import { MAX_LENGTH } from "../sql/parse-type.ts";
import { bindPlanExpr, withBindOptions } from "../plan/bind-plan-expr.ts";
import { AGGREGATE_FUNCTIONS } from "../plan/aggregate-call-type.ts";
import type { AggregateFunctionDefinition } from "../functions/aggregate-function.ts";
import { builtinFunctionNames } from "../expr/functions/builtin-functions.ts";
import { FunctionAlreadyExistsError, FunctionCatalog } from "../functions/function-catalog.ts";
import { isTableFunction, resolveTableFunction, type ResolvedTableFunction, type TableFunctionDefinition } from "../functions/table-function.ts";
import type { ScalarFunctionDefinition } from "../functions/scalar-function.ts";
import { loadFunctionModule } from "../functions/load-function-module.ts";
import { ChangelogMode } from "../plan/changelog-mode.ts";
import { ChangelogModes } from "../plan/changelog-inference.ts";
import { convertQuery } from "../plan/convert-query.ts";
import { withComputedColumns } from "../plan/convert-from.ts";
import { explainPlan, type ExplainRoot } from "../plan/explain-plan.ts";
import type { PlannerContext } from "../plan/planner-context.ts";
import { planRowType, isVisible } from "../plan/plan-row-type.ts";
import { checkSinkMode, planSink, type PlannedSink } from "../plan/plan-sink.ts";
import type { RelNode } from "../plan/rel-node.ts";
import { PlanTranslator } from "../plan/translate-plan.ts";
import { ReadFields, sourceProjections } from "../plan/read-fields.ts";
import { sourceNestedProjections } from "../plan/read-nested-fields.ts";
import { pruneColumns } from "../plan/prune-columns.ts";
import { withInputParallelism } from "../plan/inherit-parallelism.ts";
import type { LogicalType } from "../types/logical-type.ts";
import type { SqlValue } from "../types/sql-value.ts";
import { SqlValidationError } from "../validation/sql-validation-error.ts";
import { Schema } from "./schema.ts";
import { StatementSet } from "./statement-set.ts";
import { Table } from "./table.ts";
import { TableConfig } from "./table-config.ts";
import type { MiniBatchSpec } from "../runtime/mini-batch-group-aggregate.ts";
import { TableResult, type ResultColumn } from "./table-result.ts";
import { toSqlValue } from "./to-sql-value.ts";

const STRING: LogicalType = { kind: "varchar", length: MAX_LENGTH, nullable: false };
const NULLABLE_STRING: LogicalType = { kind: "varchar", length: MAX_LENGTH, nullable: true };

/**
 * @example
 * ```ts
 * const env = StreamExecutionEnvironment.getExecutionEnvironment();
 * const tEnv = StreamTableEnvironment.create(env);
 * tEnv.createTemporaryView("clicks", env.fromCollection([{ user: "Mary", url: "/home" }]),
 *   Schema.newBuilder().column("user", "STRING").column("url", "STRING").build());
 * for await (const row of tEnv.sqlQuery("SELECT user, COUNT(url) AS cnt FROM clicks GROUP BY user").execute().collect()) {
 *   console.log(Row.toString(row)); // +I[Mary, 1]
 * }
 * ```
 */
export class StreamTableEnvironment {
  private readonly catalog = new Catalog();
  private readonly inlineViews = new Map<string, () => RelNode>();
  private readonly config: TableConfig;
  private readonly uidCounters = new Map<string, number>();
  private readonly functions = new FunctionCatalog();
  private readonly tableFunctions = new Map<string, ResolvedTableFunction>();

  private constructor(
    private readonly env: StreamExecutionEnvironment,
    private readonly factories: FactoryRegistry<DynamicTableFactory>,
  ) {
    this.config = new TableConfig(env);
  }

  /** A table environment on `env`. */
  static create(env: StreamExecutionEnvironment): StreamTableEnvironment {
    return new StreamTableEnvironment(env, tableFactoryRegistry());
  }

  /** The session configuration (`SET` changes it too). */
  getConfig(): TableConfig {
    return this.config;
  }

  /** The stream environment the tables run on. */
  getStreamExecutionEnvironment(): StreamExecutionEnvironment {
    return this.env;
  }

  /**
   * Runs one SQL statement: DDL, SET/RESET, SHOW, DESCRIBE, EXPLAIN, INSERT
   * (starts a job), `EXECUTE STATEMENT SET` (one job) or a query (its rows
   * from {@link TableResult.collect}).
   *
   * @throws {SqlParseError} | {SqlValidationError} located in the statement.
   */
  executeSql(sql: string): TableResult {
    return this.bound(() => this.execute(parseStatement(sql)));
  }

  /**
   * The table of a query, for the Table API and conversions to streams.
   *
   * @throws {SqlValidationError} when `sql` is not a query or is invalid.
   */
  sqlQuery(sql: string): Table {
    const stmt = parseStatement(sql);
    if (stmt.kind !== "query") throw new SqlValidationError(`sqlQuery() takes a query; use executeSql() for ${stmt.kind.toUpperCase()} statements`, stmt.loc);
    return new Table(this, this.bound(() => convertQuery(this.plannerContext(), stmt.query)));
  }

  /**
   * A table over a stream. Records are plain objects read by column name (or
   * `Row`s, read by position); JavaScript has no run-time types, so the
   * schema declares each column's SQL type. A metadata column reads the
   * record timestamp; `watermark(col, "SOURCE_WATERMARK()")` keeps the
   * stream's watermarks.
   */
  fromDataStream<T>(stream: DataStream<T>, schema: Schema): Table {
    return new Table(this, this.bound(() => this.streamNode(stream, schema, false)));
  }

  /** A table over a stream of `Row`s that carry a RowKind (a changelog). */
  fromChangelogStream(stream: DataStream<Row>, schema: Schema): Table {
    return new Table(this, this.bound(() => this.streamNode(stream, schema, true)));
  }

  /** Registers a stream (with its schema) or a table as a temporary view usable in SQL. */
  createTemporaryView<T>(name: string, source: DataStream<T> | Table, schema?: Schema): void {
    if (this.inlineViews.has(name) || this.catalog.lookup(name) !== undefined) {
      throw new SqlValidationError(`Temporary table '${identifierString(resolveIdentifier([{ value: name, quoted: true, loc: { line: 1, column: 1, offset: 0 } }]))}' already exists`);
    }
    if (source instanceof Table) {
      const node = source.node();
      this.inlineViews.set(name, () => node);
      return;
    }
    if (schema === undefined) throw new SqlValidationError(`createTemporaryView('${name}', stream) needs a Schema: JavaScript has no run-time types to derive the columns from`);
    const node = this.bound(() => this.streamNode(source, schema, false));
    this.inlineViews.set(name, () => node);
  }

  /** Drops a view registered with {@link createTemporaryView}; false when there was none. */
  dropTemporaryView(name: string): boolean {
    return this.inlineViews.delete(name);
  }

  /**
   * The rows of an insert-only table as a stream of `Row`s with field names.
   *
   * @throws {SqlValidationError} when the table's query produces updates (use {@link toChangelogStream}).
   */
  toDataStream(table: Table): DataStream<Row> {
    const node = table.node();
    new ChangelogModes(node).requireInsertOnly(node, "Table sink 'toDataStream'");
    return this.streamOf(node);
  }

  /** The changelog of a table as a stream of `Row`s with RowKinds and field names. */
  toChangelogStream(table: Table): DataStream<Row> {
    const node = table.node();
    new ChangelogModes(node);
    return this.streamOf(node);
  }

  /** The plan of a statement as `EXPLAIN` prints it; `"CHANGELOG_MODE"` adds each node's changelog mode. */
  explainSql(sql: string, ...details: string[]): string {
    const stmt = parseStatement(sql);
    return this.bound(() => this.explainStatement(stmt, details.map((d) => d.toUpperCase())));
  }

  /** A set of INSERTs that run as one job. */
  createStatementSet(): StatementSet {
    return new StatementSet(this);
  }

  /**
   * Registers a user-defined function for SQL, by name (case-insensitive):
   * a scalar function (a `ScalarFunction`, an object literal
   * `{ resultType, eval }` or a function with `resultType`) or an aggregate
   * function (an `SqlAggregateFunction` or an object literal
   * `{ resultType, createAccumulator, accumulate, getValue }`) or a table
   * function (a `TableFunction` or a literal `{ kind: "table", resultType, eval }`).
   *
   * @throws when the name is taken or the definition is invalid.
   */
  createTemporarySystemFunction(name: string, definition: ScalarFunctionDefinition | AggregateFunctionDefinition | TableFunctionDefinition): void {
    const key = name.toUpperCase();
    if (this.tableFunctions.has(key) || (isTableFunction(definition) && this.functions.names().some((n) => n.toUpperCase() === key))) {
      throw new FunctionAlreadyExistsError(`Temporary system function '${name}' already exists`);
    }
    if (isTableFunction(definition)) this.tableFunctions.set(key, resolveTableFunction(name, definition));
    else this.functions.registerTemporarySystemFunction(name, definition);
  }

  /** Drops a function registered with {@link createTemporarySystemFunction}; false when there was none. */
  dropTemporarySystemFunction(name: string): boolean {
    return this.tableFunctions.delete(name.toUpperCase()) || this.functions.dropTemporarySystemFunction(name);
  }

  /** Whether a user-defined function of this name (any case) is registered. */
  private hasUserFunction(name: string): boolean {
    const key = name.toUpperCase();
    return this.tableFunctions.has(key) || this.functions.names().some((n) => n.toUpperCase() === key);
  }

  /** The names of the tables and views, sorted. */
  listTables(): string[] {
    return [...new Set([...this.catalog.listTables(), ...this.catalog.listViews(), ...this.inlineViews.keys()])].sort();
  }

  // ------------------------------------------------------------------ internals

  /** @internal Runs a conversion with this session's functions and time zone. */
  bound<T>(convert: () => T): T {
    return withBindOptions({ functions: this.functions, timeZone: this.config.timeZone() }, convert);
  }

  /** @internal The planner's view of this session. */
  plannerContext(): PlannerContext {
    return {
      env: this.env,
      catalog: this.catalog,
      inlineViews: this.inlineViews,
      factories: this.factories,
      timeZone: this.config.timeZone(),
      uidFor: (prefix) => this.uidFor(prefix),
      scans: new Map(),
      tableFunctions: this.tableFunctions,
    };
  }

  /**
   * A statement that starts a job numbers its operators' uids from the start,
   * so the same statement gets the same uids whatever ran before it in the
   * session, and its job resumes from its checkpoints and savepoints
   * (`source-<table>`, `calc`, `calc-1`, … `sink-<table>`).
   */
  private restartUids(): void {
    for (const prefix of [...this.uidCounters.keys()]) if (prefix !== "datastream") this.uidCounters.delete(prefix);
  }

  private uidFor(prefix: string): string {
    const n = this.uidCounters.get(prefix) ?? 0;
    this.uidCounters.set(prefix, n + 1);
    return n === 0 ? prefix : `${prefix}-${n}`;
  }

  /** A translator of the job whose results come from `roots` (all their fields read). */
  private translator(roots: readonly RelNode[]): PlanTranslator {
    const read = new ReadFields(roots);
    return new PlanTranslator(this.env, (p) => this.uidFor(p), {
      stateTtlMs: this.config.durationMs("table.exec.state.ttl"),
      idleTimeoutMs: this.config.durationMs("table.exec.source.idle-timeout"),
      projections: sourceProjections(roots, read),
      nestedProjections: sourceNestedProjections(roots, read),
      reuseSubPlans: this.config.flag("table.optimizer.reuse-sub-plan-enabled"),
      aggPhaseStrategy: this.config.aggPhaseStrategy(),
      ...(this.config.flag("table.exec.mini-batch.enabled") ? { miniBatch: this.miniBatch() } : {}),
    }, roots);
  }

  /** `table.exec.mini-batch.allow-latency` and `size`, which must be positive when mini-batch is enabled (as in Flink). */
  private miniBatch(): MiniBatchSpec {
    const allowLatencyMs = this.config.durationMs("table.exec.mini-batch.allow-latency");
    const size = Number(this.config.get("table.exec.mini-batch.size"));
    if (!(allowLatencyMs > 0)) throw new SqlValidationError("'table.exec.mini-batch.enabled' is true: 'table.exec.mini-batch.allow-latency' must be greater than 0 ms");
    if (!(size > 0)) throw new SqlValidationError("'table.exec.mini-batch.enabled' is true: 'table.exec.mini-batch.size' must be a positive number of rows");
    return { size, allowLatencyMs };
  }

  /** The rows of `node` as a stream with field names, in the environment's current graph. */
  private streamOf(node: RelNode): DataStream<Row> {
    const [pruned] = pruneColumns([node]);
    return this.translator([pruned!]).translateNamed(pruned!, node.rowType.names.filter(isVisible));
  }

  private streamNode<T>(stream: DataStream<T>, schema: Schema, changelog: boolean): RelNode {
    const resolved = schema.resolve();
    const physical = resolved.schema.columns.filter((c) => c.kind === "physical");
    const metadata = resolved.metadata;
    const convert = physical.map((c) => {
      if (c.kind !== "physical") throw new Error("internal");
      const where = `column '${c.name}'`;
      return { name: c.name, type: c.type, where, metadata: c.name === metadata };
    });
    const width = convert.length;
    const rows = withInputParallelism(stream
      .process((record: T, ctx: ProcessContext, out: Collector<Row>) => {
        const isRow = Row.isRow(record);
        const kind = isRow && changelog ? (record as Row).kind : "+I";
        const fields = new Array<SqlValue>(width);
        let p = 0;
        for (let i = 0; i < width; i++) {
          const c = convert[i]!;
          if (c.metadata) {
            fields[i] = ctx.timestamp() ?? null;
            continue;
          }
          const v = isRow ? (record as Row).fields[p++] : (record as Record<string, unknown>)[c.name];
          fields[i] = toSqlValue(v, c.type, c.where);
        }
        out.collect({ kind, fields });
      })
      .name("FromDataStream"), stream);
    const rowType = planRowType(convert.map((c) => ({ name: c.name, type: c.type, ...(c.metadata && resolved.sourceWatermark ? { time: "rowtime" as const } : {}) })));
    const base: RelNode = { kind: "dataStream", name: `datastream-${this.uidCounters.get("datastream") ?? 0}`, stream: rows, mode: changelog ? ChangelogMode.RETRACT : ChangelogMode.INSERT_ONLY, rowType };
    this.uidFor("datastream");
    return withComputedColumns(base, resolved.schema);
  }

  /** @internal Runs a statement. */
  execute(stmt: Statement): TableResult {
    switch (stmt.kind) {
      case "createTable":
        this.catalog.createTable(stmt);
        return ok();
      case "createView":
        convertQuery(this.scratchContext(), stmt.query); // validates the query now, as Flink does
        this.catalog.createView(stmt);
        return ok();
      case "createFunction": {
        const name = stmt.name.at(-1)!.value;
        if (stmt.language !== undefined && stmt.language !== "JAVASCRIPT" && stmt.language !== "TYPESCRIPT") {
          throw new SqlValidationError(`LANGUAGE ${stmt.language} is not supported: a function is a JavaScript or TypeScript module's export`, stmt.loc);
        }
        if (this.hasUserFunction(name)) {
          if (stmt.ifNotExists) return ok();
          throw new SqlValidationError(`Function '${name}' already exists`, stmt.name.at(-1)!.loc);
        }
        this.createTemporarySystemFunction(name, loadFunctionModule(stmt.identifier, stmt.identifierLoc));
        return ok();
      }
      case "dropFunction": {
        const name = stmt.name.at(-1)!.value;
        if (!this.dropTemporarySystemFunction(name) && !stmt.ifExists) throw new SqlValidationError(`Function '${name}' does not exist`, stmt.name.at(-1)!.loc);
        return ok();
      }
      case "drop":
        if (stmt.object === "VIEW" && stmt.temporary && this.inlineViews.delete(stmt.name.at(-1)!.value)) return ok();
        this.catalog.drop(stmt);
        return ok();
      case "show":
        return this.show(stmt);
      case "describe":
        return this.describe(stmt);
      case "set":
        return this.set(stmt);
      case "reset":
        this.config.reset(stmt.key);
        return ok();
      case "explain":
        return rowsResult([{ name: "result", type: STRING }], [Row.of(this.explainStatement(stmt.statement, stmt.details))]);
      case "insert":
        this.restartUids();
        return this.executeInserts([stmt]);
      case "statementSet":
        this.restartUids();
        return this.executeInserts(stmt.inserts);
      case "query":
        this.restartUids();
        return new Table(this, convertQuery(this.plannerContext(), stmt.query)).execute();
    }
  }

  /** A context whose uids do not count (validation only). */
  private scratchContext(): PlannerContext {
    return { ...this.plannerContext(), uidFor: (p) => p, scans: new Map() };
  }

  private show(stmt: StatementOf<"show">): TableResult {
    if (stmt.object === "FUNCTIONS") {
      const names = [...new Set([...AGGREGATE_FUNCTIONS, ...builtinFunctionNames(), ...this.functions.names(), ...[...this.tableFunctions.values()].map((f) => f.name)])].sort();
      return rowsResult([{ name: "function name", type: STRING }], names.map((f) => Row.of(f)));
    }
    const names = stmt.object === "VIEWS" ? [...this.catalog.listViews(), ...this.inlineViews.keys()].sort() : this.listTables();
    return rowsResult([{ name: stmt.object === "VIEWS" ? "view name" : "table name", type: STRING }], names.map((n) => Row.of(n)));
  }

  private describe(stmt: StatementOf<"describe">): TableResult {
    const table = this.catalog.getTable(stmt.name);
    const rows = describeTable(table, (e) => bindPlanExpr(e, planRowType(table.schema.columns.flatMap((c) => (c.kind === "computed" ? [] : [{ name: c.name, type: c.type }])))).type);
    const columns: ResultColumn[] = [
      { name: "name", type: STRING },
      { name: "type", type: NULLABLE_STRING },
      { name: "null", type: { kind: "boolean", nullable: false } },
      { name: "key", type: NULLABLE_STRING },
      { name: "extras", type: NULLABLE_STRING },
      { name: "watermark", type: NULLABLE_STRING },
    ];
    return rowsResult(columns, rows.map((r) => Row.of(r.name, r.type, r.null, r.key, r.extras, r.watermark)));
  }

  private set(stmt: StatementOf<"set">): TableResult {
    if (stmt.key === undefined) {
      return rowsResult([{ name: "key", type: STRING }, { name: "value", type: STRING }], this.config.entries().map(([k, v]) => Row.of(k, v)));
    }
    try {
      this.config.set(stmt.key, stmt.value!);
    } catch (e) {
      if (e instanceof SqlValidationError && e.line === undefined && !TableConfig.isKnownKey(stmt.key)) throw new SqlValidationError(e.detail, stmt.keyLoc);
      throw e;
    }
    if (!TableConfig.isKnownKey(stmt.key)) {
      return ok(`Weir does not read '${stmt.key}': it is kept (SET lists it) but changes nothing (the keys Weir reads are listed under Configuration in docs/sql.md).`);
    }
    return ok();
  }

  /** @internal Plans INSERTs, checks their sinks' changelog modes. */
  planInserts(inserts: readonly InsertStatement[], ctx: PlannerContext = this.plannerContext()): PlannedSink[] {
    return inserts.map((i) => {
      const table = this.catalog.getTable(i.table);
      const planned = planSink(ctx, table, convertQuery(ctx, i.query), i);
      checkSinkMode(planned, new ChangelogModes(planned.input));
      return planned;
    });
  }

  /** @internal Starts one job writing every planned sink. */
  executeInserts(inserts: readonly InsertStatement[]): TableResult {
    return this.runSinks(this.planInserts(inserts));
  }

  /** @internal Starts one job writing `sinks`. */
  runSinks(planned: PlannedSink[]): TableResult {
    const inputs = pruneColumns(planned.map((s) => s.input));
    const sinks = planned.map((s, i) => ({ ...s, input: inputs[i]! }));
    const name = this.config.get("pipeline.name") || `insert-into_${sinks.map((s) => identifierString(s.table.identifier)).join(",")}`;
    const t = this.translator(sinks.map((s) => s.input));
    const ids = sinks.map((s) => s.sink.consume(t.translate(s.input)).nodeId());
    this.env.graph.detach(ids);
    const client = this.env.launch(name, currentLaunch()?.jobId ?? newJobId(), ids);
    if (isWorker()) client.catch(() => undefined); // another statement's job (OtherJobInWorker): nothing to wait for here
    const columns = sinks.map((s) => ({ name: identifierString(s.table.identifier), type: { kind: "bigint", nullable: false } as LogicalType }));
    return new TableResult(columns, { kind: "job", client, rows: [Row.of(...sinks.map(() => -1))] }, false);
  }

  /** @internal The rows of a query's job, as they come (the job starts when iteration starts). */
  collectRows(node: RelNode): AsyncIterableIterator<Row> & { close?(): Promise<void> | void } {
    return executeAndCollect(this.streamOf(node), this.env, this.config.get("pipeline.name") || "collect", Number.POSITIVE_INFINITY, true);
  }

  /** @internal EXPLAIN of a statement. */
  explainStatement(stmt: Statement, details: readonly string[]): string {
    const changelog = details.includes("CHANGELOG_MODE");
    const roots: ExplainRoot[] = [];
    const ctx = this.scratchContext();
    if (stmt.kind === "query") {
      const [node] = pruneColumns([convertQuery(ctx, stmt.query)]);
      roots.push({ node: node!, modes: new ChangelogModes(node!) });
    } else if (stmt.kind === "insert" || stmt.kind === "statementSet") {
      const inserts = stmt.kind === "insert" ? [stmt] : stmt.inserts;
      const planned = inserts.map((i) => planSink(ctx, this.catalog.getTable(i.table), convertQuery(ctx, i.query), i));
      const inputs = pruneColumns(planned.map((p) => p.input));
      planned.forEach((p, i) => {
        const modes = new ChangelogModes(inputs[i]!);
        checkSinkMode(p, modes);
        roots.push({ sink: p.description, node: inputs[i]!, modes });
      });
    } else {
      throw new SqlValidationError(`EXPLAIN supports queries, INSERT and STATEMENT SET, not ${stmt.kind.toUpperCase()}`, stmt.loc);
    }
    return explainPlan(roots, changelog, this.config.flag("table.optimizer.reuse-sub-plan-enabled"), this.config.aggPhaseStrategy());
  }
}

function ok(warning?: string): TableResult {
  return new TableResult([{ name: "result", type: STRING }], warning === undefined ? { kind: "ok" } : { kind: "ok", warning }, false);
}

function rowsResult(columns: ResultColumn[], rows: Row[]): TableResult {
  return new TableResult(columns, { kind: "rows", rows }, false);
}
