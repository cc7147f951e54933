/**
 * A table of the Table API (Flink's `Table`): the plan of a query, to run
 * ({@link Table.execute}), explain, insert into a catalog table or turn into
 * a stream with the table environment.
 */
import { ChangelogModes } from "../plan/changelog-inference.ts";
import { ChangelogMode } from "../plan/changelog-mode.ts";
import { explainPlan } from "../plan/explain-plan.ts";
import { isVisible } from "../plan/plan-row-type.ts";
import { pruneColumns } from "../plan/prune-columns.ts";
import type { RelNode } from "../plan/rel-node.ts";
import { formatLogicalType } from "../types/logical-type.ts";
import type { StreamTableEnvironment } from "./table-environment.ts";
import { TableResult, type ResultColumn } from "./table-result.ts";

/**
 * @example
 * ```ts
 * const counts = tEnv.sqlQuery("SELECT user, COUNT(url) AS cnt FROM clicks GROUP BY user");
 * counts.getResolvedSchema().columns.map((c) => c.name); // ["user", "cnt"]
 * await counts.execute().print();
 * ```
 */
export class Table {
  /** @internal */
  constructor(
    private readonly tEnv: StreamTableEnvironment,
    private readonly plan: RelNode,
  ) {}

  /** @internal The plan. */
  node(): RelNode {
    return this.plan;
  }

  /** The columns: names and types. */
  getResolvedSchema(): { columns: ResultColumn[] } {
    const t = this.plan.rowType;
    return { columns: t.names.flatMap((name, i) => (isVisible(name) ? [{ name, type: t.types[i]! }] : [])) };
  }

  /** The schema as Flink prints it: `(\n  `user` STRING,\n  `cnt` BIGINT NOT NULL\n)`. */
  printSchema(write: (line: string) => void = (l) => console.log(l)): void {
    const cols = this.getResolvedSchema().columns;
    write("(\n" + cols.map((c) => `  \`${c.name}\` ${formatLogicalType(c.type)}`).join(",\n") + "\n)");
  }

  /** Runs the query; its changelog is the result's rows. */
  execute(): TableResult {
    const modes = new ChangelogModes(this.plan);
    const changelog = !ChangelogMode.isInsertOnly(modes.of(this.plan));
    return new TableResult(this.getResolvedSchema().columns, { kind: "query", start: () => this.tEnv.collectRows(this.plan) }, changelog);
  }

  /** The plan as EXPLAIN prints it (`"CHANGELOG_MODE"` adds each node's mode). */
  explain(...details: string[]): string {
    const [node] = pruneColumns([this.plan]);
    return explainPlan(
      [{ node: node!, modes: new ChangelogModes(node!) }],
      details.map((d) => d.toUpperCase()).includes("CHANGELOG_MODE"),
      this.tEnv.getConfig().flag("table.optimizer.reuse-sub-plan-enabled"),
      this.tEnv.getConfig().aggPhaseStrategy(),
    );
  }

  /** Writes the table into the catalog table `tableName` in a job of its own. */
  executeInsert(tableName: string): TableResult {
    return this.tEnv.createStatementSet().add(tableName, this).execute();
  }
}
