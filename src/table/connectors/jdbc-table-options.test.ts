/**
 * The `jdbc` options are read into a JdbcTableConfig when the planner creates the table's source or sink;
 * a wrong or contradicting option is an error naming the table and the option, before anything runs.
 */
import { describe, expect, it } from "vitest";
import { StreamExecutionEnvironment } from "../../api/environment.ts";
import { tableFactoryRegistry } from "./table-factory-registry.ts";
import type { CatalogTable } from "../catalog/catalog-table.ts";
import type { JdbcTableConfig } from "./jdbc-table-config.ts";
import { jdbcTableConfig } from "./jdbc-table-options.ts";
import { scanRanges } from "./jdbc-table-scan.ts";

const BASE = "'connector' = 'jdbc', 'url' = 'jdbc:postgresql://db.internal:6543/shop', 'table-name' = 'sales.rates'";
const T = "Invalid options of table 'default_catalog.default_database.t': ";

/** The config of a table `t` WITH (BASE, extra) (later keys win), or the message of its error. */
function configOf(extra: string): JdbcTableConfig | string {
  const options = new Map<string, string>();
  for (const m of `${BASE}, ${extra}`.matchAll(/'([^']*)'\s*=\s*'([^']*)'/g)) options.set(m[1]!, m[2]!);
  const identifier = { catalog: "default_catalog", database: "default_database", object: "t" };
  try {
    const validated = tableFactoryRegistry().validate(options, { table: "default_catalog.default_database.t", as: "source" });
    const table = { identifier, options } as unknown as CatalogTable;
    return jdbcTableConfig({ env: StreamExecutionEnvironment.create({}), table, options: validated, physicalType: { names: ["id", "label"], types: [{ kind: "int", nullable: true }, { kind: "varchar", length: 100, nullable: true }] }, uid: "t", timeZone: "UTC" });
  } catch (e) {
    return (e as Error).message;
  }
}

describe("jdbc table options", () => {
  it("reads Flink's options with their defaults", () => {
    const c = configOf("'username' = 'weir', 'password' = 'secret'") as JdbcTableConfig;
    expect(c.connection.address).toEqual({ host: "db.internal", port: 6543, database: "shop", params: {} });
    expect([c.connection.user, c.connection.password, c.connection.connectionCheckTimeoutSeconds, c.tableName, c.fetchSize]).toEqual(["weir", "secret", 60, "sales.rates", 0]);
    expect(c.sink).toEqual({ maxRows: 100, intervalMs: 1000, maxRetries: 3, parallelism: undefined, deliveryGuarantee: "at-least-once", transactionalIdPrefix: undefined });
    expect(c.lookup).toEqual({ cache: "NONE", maxRows: undefined, expireAfterWriteMs: undefined, expireAfterAccessMs: undefined, cacheMissingKey: true, maxRetries: 3 });
  });

  it("reads the sink, scan and lookup options", () => {
    const c = configOf(
      `'scan.fetch-size' = '500', 'sink.buffer-flush.max-rows' = '0', 'sink.buffer-flush.interval' = '2 s', 'sink.max-retries' = '5',
       'sink.parallelism' = '2', 'sink.delivery-guarantee' = 'exactly-once', 'sink.transactional-id-prefix' = 'rates-job',
       'lookup.cache' = 'partial', 'lookup.partial-cache.max-rows' = '1000', 'lookup.partial-cache.expire-after-write' = '1 min',
       'lookup.partial-cache.expire-after-access' = '10 s', 'lookup.partial-cache.cache-missing-key' = 'false', 'lookup.max-retries' = '0',
       'driver' = 'org.postgresql.Driver', 'connection.max-retry-timeout' = '5 s'`,
    ) as JdbcTableConfig;
    expect(c.fetchSize).toBe(500);
    expect(c.connection.connectionCheckTimeoutSeconds).toBe(5);
    expect(c.sink).toEqual({ maxRows: 0, intervalMs: 2000, maxRetries: 5, parallelism: 2, deliveryGuarantee: "exactly-once", transactionalIdPrefix: "rates-job" });
    expect(c.lookup).toEqual({ cache: "PARTIAL", maxRows: 1000, expireAfterWriteMs: 60_000, expireAfterAccessMs: 10_000, cacheMissingKey: false, maxRetries: 0 });
  });

  it("maps Flink's deprecated lookup.cache.max-rows and lookup.cache.ttl to a PARTIAL cache", () => {
    const c = configOf("'lookup.cache.max-rows' = '50', 'lookup.cache.ttl' = '30 s', 'lookup.cache.caching-missing-key' = 'false'") as JdbcTableConfig;
    expect(c.lookup).toEqual({ cache: "PARTIAL", maxRows: 50, expireAfterWriteMs: 30_000, expireAfterAccessMs: undefined, cacheMissingKey: false, maxRetries: 3 });
  });

  it("reads a partitioned scan, split into ranges as Flink does", () => {
    const c = configOf("'scan.partition.column' = 'id', 'scan.partition.num' = '3', 'scan.partition.lower-bound' = '1', 'scan.partition.upper-bound' = '10'") as JdbcTableConfig;
    expect(c.scanPartition).toEqual({ column: "id", num: 3, lowerBound: 1, upperBound: 10 });
    expect(scanRanges(c.scanPartition!)).toEqual([{ lower: 1, upper: 4 }, { lower: 5, upper: 8 }, { lower: 9, upper: 10 }]);
    expect(scanRanges({ column: "id", num: 5, lowerBound: 7, upperBound: 8 })).toEqual([{ lower: 7, upper: 7 }, { lower: 8, upper: 8 }]);
  });

  it.each([
    ["'lookup.cach' = 'PARTIAL'", "lookup.cach (did you mean 'lookup.cache'?)"],
    ["'lookup.cache' = 'SOME'", "Invalid value for option 'lookup.cache': 'SOME' (expected one of 'NONE', 'PARTIAL', 'FULL')."],
    ["'lookup.cache' = 'FULL'", `${T}'lookup.cache' = 'FULL' is not supported; use 'PARTIAL'`],
    ["'lookup.cache' = 'PARTIAL'", `${T}'lookup.cache' = 'PARTIAL' needs a bound: 'lookup.partial-cache.max-rows'`],
    ["'lookup.partial-cache.max-rows' = '10'", `${T}'lookup.partial-cache.max-rows' needs 'lookup.cache' = 'PARTIAL'.`],
    ["'lookup.cache' = 'PARTIAL', 'lookup.partial-cache.max-rows' = '0'", `${T}'lookup.partial-cache.max-rows' must be at least 1, but is 0.`],
    ["'lookup.cache.max-rows' = '10'", `${T}either all or none of 'lookup.cache.max-rows' and 'lookup.cache.ttl' should be set`],
    ["'lookup.cache.max-rows' = '10', 'lookup.cache.ttl' = '1 s', 'lookup.cache' = 'PARTIAL'", `${T}the deprecated 'lookup.cache.max-rows' and 'lookup.cache.ttl' cannot be combined`],
    ["'lookup.max-retries' = '-1'", `${T}'lookup.max-retries' must be 0 or more, but is -1.`],
    ["'sink.parallelism' = '0'", `${T}'sink.parallelism' must be at least 1, but is 0.`],
    ["'sink.buffer-flush.max-rows' = '-5'", `${T}'sink.buffer-flush.max-rows' must be 0 or more, but is -5.`],
    ["'scan.fetch-size' = '-1'", `${T}'scan.fetch-size' must be 0 or more, but is -1.`],
    ["'sink.delivery-guarantee' = 'exactly_once'", "Invalid value for option 'sink.delivery-guarantee': 'exactly_once'"],
    ["'driver' = 'com.mysql.cj.jdbc.Driver'", `${T}'driver': driver 'com.mysql.cj.jdbc.Driver' is not supported: Weir connects to PostgreSQL only (org.postgresql.Driver).`],
    ["'url' = 'jdbc:mysql://localhost/shop'", `${T}'url': 'jdbc:mysql://localhost/shop' is not a PostgreSQL JDBC URL: expected jdbc:postgresql://host:port/database.`],
    ["'table-name' = ' '", `${T}'table-name' is empty.`],
    ["'scan.partition.column' = 'id'", `${T}either all or none of 'scan.partition.column', 'scan.partition.num', 'scan.partition.lower-bound', 'scan.partition.upper-bound' should be set; missing: 'scan.partition.num'`],
    ["'scan.partition.column' = 'idd', 'scan.partition.num' = '2', 'scan.partition.lower-bound' = '0', 'scan.partition.upper-bound' = '9'", `${T}'scan.partition.column' 'idd' is not a column of the table: id, label. Did you mean 'id'?`],
    ["'scan.partition.column' = 'label', 'scan.partition.num' = '2', 'scan.partition.lower-bound' = '0', 'scan.partition.upper-bound' = '9'", `${T}'scan.partition.column' 'label' must be of an integer type`],
    ["'scan.partition.column' = 'id', 'scan.partition.num' = '2', 'scan.partition.lower-bound' = '9', 'scan.partition.upper-bound' = '0'", `${T}'scan.partition.upper-bound' must be at least 9, but is 0.`],
  ])("refuses %s", (extra, message) => {
    const c = configOf(extra);
    expect(c).toEqual(expect.stringContaining(message));
  });
});
