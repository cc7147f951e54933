/**
 * A `jdbc` table's config built by hand, for the SQL sink's tests while they build the TableSink directly
 * (not through `'connector' = 'jdbc'` options): the defaults of Flink's options, with sink settings given.
 */
import { JdbcConnectionOptions } from "../../src/connectors/postgres/jdbc-connection-options.ts";
import type { JdbcTableConfig, JdbcTableSinkConfig } from "../../src/table/connectors/jdbc-table-config.ts";

/** The config of catalog table `table` writing the PostgreSQL table `tableName` at `url`. */
export function jdbcTableConfig(url: string, tableName: string, sink: Partial<JdbcTableSinkConfig> = {}, user?: { username: string; password: string }): JdbcTableConfig {
  const connection = JdbcConnectionOptions.builder().withUrl(url);
  if (user !== undefined) connection.withUsername(user.username).withPassword(user.password);
  return {
    table: `default_catalog.default_database.${tableName}`,
    connection: connection.build(),
    tableName,
    fetchSize: 0,
    sink: { maxRows: 100, intervalMs: 1000, maxRetries: 3, parallelism: undefined, deliveryGuarantee: "at-least-once", transactionalIdPrefix: undefined, ...sink },
    lookup: { cache: "NONE", maxRows: undefined, expireAfterWriteMs: undefined, expireAfterAccessMs: undefined, cacheMissingKey: true, maxRetries: 3 },
  };
}
