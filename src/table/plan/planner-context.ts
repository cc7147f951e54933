/**
 * What the planner needs from its session: the catalog and the inline views
 * (streams and tables registered from the API), the connectors, the session's
 * configuration, and the statement text for error locations.
 */
import type { StreamExecutionEnvironment } from "../../api/environment.ts";
import type { Catalog } from "../catalog/catalog.ts";
import type { FactoryRegistry } from "../catalog/factory-options.ts";
import type { DynamicTableFactory } from "../connectors/dynamic-table-factory.ts";
import type { RelNode } from "./rel-node.ts";
import type { ResolvedTableFunction } from "../functions/table-function.ts";

/** The session state a conversion reads. */
export interface PlannerContext {
  readonly env: StreamExecutionEnvironment;
  readonly catalog: Catalog;
  /** Views registered from the API (`createTemporaryView(name, stream | table)`), by name: their plans. */
  readonly inlineViews: ReadonlyMap<string, () => RelNode>;
  /** The connectors and formats (`tableFactoryRegistry()`): their options are checked, then their factories create sources and sinks. */
  readonly factories: FactoryRegistry<DynamicTableFactory>;
  /** The user-defined table functions, by upper-case name. */
  readonly tableFunctions: ReadonlyMap<string, ResolvedTableFunction>;
  /** `table.local-time-zone`. */
  readonly timeZone: string;
  /** A uid for an operator of the plan, stable when the same statements are planned again in the same order. */
  uidFor(prefix: string): string;
  /**
   * The tables scanned so far in the job being planned, by name: a table read
   * twice in one job (a self-join, the INSERTs of a statement set) is read
   * by one source, as Flink reuses sources.
   */
  readonly scans: Map<string, RelNode>;
}
