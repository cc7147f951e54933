/**
 * The table connectors the planner knows, by `'connector'` identifier:
 * `filesystem`, `kafka` and `upsert-kafka` (sources and sinks), `datagen`,
 * `nexmark` and `postgres-cdc` (sources), `jdbc` (a bounded source and lookups; its sink comes with pgsink), `print` and `blackhole` (sinks). Each
 * declares its options, which are validated before the factory sees them;
 * `tableFactoryRegistry()` adds the formats and the connectors users register.
 */
import { BLACKHOLE_TABLE_FACTORY } from "./blackhole-table-factory.ts";
import { DATAGEN_TABLE_FACTORY } from "./datagen-table-factory.ts";
import type { DynamicTableFactory } from "./dynamic-table-factory.ts";
import { FILESYSTEM_TABLE_FACTORY } from "./filesystem-table-factory.ts";
import { JDBC_TABLE_FACTORY } from "./jdbc-table-factory.ts";
import { KAFKA_TABLE_FACTORY } from "./kafka-table-factory.ts";
import { NEXMARK_TABLE_FACTORY } from "./nexmark-table-factory.ts";
import { POSTGRES_CDC_TABLE_FACTORY } from "./postgres-cdc-table-factory.ts";
import { PRINT_TABLE_FACTORY } from "./print-table-factory.ts";
import { UPSERT_KAFKA_TABLE_FACTORY } from "./upsert-kafka-table-factory.ts";

/**
 * The built-in factories by identifier.
 *
 * @example
 * ```ts
 * const validated = tableFactoryRegistry().validate(table.options);
 * const factory = builtinTableFactories().get(validated.connector);
 * const source = factory?.createSource?.({ env, table, options: validated, physicalType, uid: "src-clicks", timeZone: "UTC" });
 * ```
 */
export function builtinTableFactories(): Map<string, DynamicTableFactory> {
  return new Map([FILESYSTEM_TABLE_FACTORY, PRINT_TABLE_FACTORY, BLACKHOLE_TABLE_FACTORY, DATAGEN_TABLE_FACTORY, NEXMARK_TABLE_FACTORY, KAFKA_TABLE_FACTORY, UPSERT_KAFKA_TABLE_FACTORY, POSTGRES_CDC_TABLE_FACTORY, JDBC_TABLE_FACTORY].map((f) => [f.identifier, f]));
}
