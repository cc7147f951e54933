/**
 * The `blackhole` connector (sink only, Flink's): discards every row, of any
 * kind; for benchmarks and for trying a query's plan.
 *
 * @example
 * ```sql
 * CREATE TABLE nothing (a INT) WITH ('connector' = 'blackhole');
 * ```
 */
import { identifierString } from "../catalog/object-identifier.ts";
import type { Row } from "../data/row.ts";
import { ChangelogMode } from "../plan/changelog-mode.ts";
import type { DynamicTableContext, DynamicTableFactory, TableFactoryOptions, TableSink } from "./dynamic-table-factory.ts";

function createSink(ctx: DynamicTableContext): TableSink {
  return {
    acceptedMode: ChangelogMode.RETRACT,
    consume: (stream) =>
      stream
        .sinkTo({ createWriter: () => ({ write: (_row: Row) => {} }) })
        .uid(ctx.uid)
        .name(`Sink: ${identifierString(ctx.table.identifier)} (blackhole)`),
  };
}

/** `blackhole` has no options. */
const OPTIONS: TableFactoryOptions = { requiredOptions: [], optionalOptions: [] };

/** The `blackhole` connector's factory. */
export const BLACKHOLE_TABLE_FACTORY: DynamicTableFactory = { identifier: "blackhole", ...OPTIONS, createSink };
