/**
 * Test support: the context the planner gives a table factory, built from a
 * `CREATE TABLE` statement with the real parser, catalog and option validation.
 */
import type { StreamExecutionEnvironment } from "../../api/environment.ts";
import { tableFactoryRegistry } from "./table-factory-registry.ts";
import { tableFromStatement } from "../catalog/catalog-table.ts";
import { resolveIdentifier } from "../catalog/object-identifier.ts";
import type { RowType } from "../expr/type-rules.ts";
import type { StatementOf } from "../sql/ast.ts";
import { parseStatement } from "../sql/parser.ts";
import type { DynamicTableContext } from "./dynamic-table-factory.ts";

/**
 * The factory context of the table `createTable` declares.
 *
 * @example
 * ```ts
 * const ctx = tableContext(env, "CREATE TABLE t (a INT) WITH ('connector' = 'print')");
 * ```
 */
export function tableContext(env: StreamExecutionEnvironment, createTable: string, uid = "table"): DynamicTableContext {
  const stmt = parseStatement(createTable) as StatementOf<"createTable">;
  const table = tableFromStatement(stmt, resolveIdentifier(stmt.name));
  const physical = table.schema.columns.flatMap((c) => (c.kind === "physical" ? [c] : []));
  const physicalType: RowType = { names: physical.map((c) => c.name), types: physical.map((c) => c.type) };
  const pk = table.schema.primaryKey?.columns.map((n) => physicalType.names.indexOf(n));
  return {
    env,
    table,
    options: tableFactoryRegistry().validate(table.options),
    physicalType,
    ...(pk === undefined ? {} : { primaryKey: pk }),
    uid,
    timeZone: "UTC",
  };
}
