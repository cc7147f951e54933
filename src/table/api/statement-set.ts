/**
 * Several INSERTs that run as one job (Flink's `StatementSet`, SQL's
 * `EXECUTE STATEMENT SET BEGIN … END`): sources read once are shared.
 */
import { parseQualifiedName, parseStatement } from "../sql/parser.ts";
import type { InsertStatement } from "../sql/ast.ts";
import { SqlValidationError } from "../validation/sql-validation-error.ts";
import type { Table } from "./table.ts";
import type { StreamTableEnvironment } from "./table-environment.ts";
import type { TableResult } from "./table-result.ts";
import { explainPlan } from "../plan/explain-plan.ts";
import { pruneColumns } from "../plan/prune-columns.ts";
import { ChangelogModes } from "../plan/changelog-inference.ts";
import { checkSinkMode, planSink, type PlannedSink } from "../plan/plan-sink.ts";

type Entry = { kind: "sql"; stmt: InsertStatement } | { kind: "table"; tableName: string; table: Table };

/**
 * @example
 * ```ts
 * const set = tEnv.createStatementSet();
 * set.addInsertSql("INSERT INTO counts SELECT user, COUNT(*) FROM clicks GROUP BY user");
 * set.addInsertSql("INSERT INTO archive SELECT * FROM clicks");
 * await set.execute().await();
 * ```
 */
export class StatementSet {
  private readonly entries: Entry[] = [];

  /** @internal */
  constructor(private readonly tEnv: StreamTableEnvironment) {}

  /** Adds an `INSERT INTO …` statement. */
  addInsertSql(sql: string): this {
    const stmt = parseStatement(sql);
    if (stmt.kind !== "insert") throw new SqlValidationError("A statement set takes INSERT statements only", stmt.loc);
    this.entries.push({ kind: "sql", stmt });
    return this;
  }

  /** Adds writing `table` into the catalog table `tableName`. */
  add(tableName: string, table: Table): this {
    this.entries.push({ kind: "table", tableName, table });
    return this;
  }

  private plan(): PlannedSink[] {
    return this.tEnv.bound(() => this.planEntries());
  }

  private planEntries(): PlannedSink[] {
    const ctx = this.tEnv.plannerContext();
    return this.entries.map((e) => {
      if (e.kind === "sql") return this.tEnv.planInserts([e.stmt], ctx)[0]!;
      const table = ctx.catalog.getTable(parseQualifiedName(e.tableName));
      const planned = planSink(ctx, table, e.table.node(), undefined);
      checkSinkMode(planned, new ChangelogModes(planned.input));
      return planned;
    });
  }

  /** The plan of every INSERT. */
  explain(...details: string[]): string {
    const planned = this.plan();
    const inputs = pruneColumns(planned.map((p) => p.input));
    return explainPlan(
      planned.map((p, i) => ({ sink: p.description, node: inputs[i]!, modes: new ChangelogModes(inputs[i]!) })),
      details.map((d) => d.toUpperCase()).includes("CHANGELOG_MODE"),
      this.tEnv.getConfig().flag("table.optimizer.reuse-sub-plan-enabled"),
      this.tEnv.getConfig().aggPhaseStrategy(),
    );
  }

  /** Starts one job for every INSERT added. */
  execute(): TableResult {
    if (this.entries.length === 0) throw new SqlValidationError("No statement in the statement set: add INSERTs first");
    return this.tEnv.runSinks(this.plan());
  }
}
