/**
 * The options of the `jdbc` connector (declared with Flink's keys and defaults in `JDBC_TABLE_FACTORY`) read
 * into a {@link JdbcTableConfig}: the URL and login, the scan's fetch size, the lookup cache and retries, and the
 * sink's buffering, retries and delivery guarantee. Every rule between options (a PARTIAL cache needs a bound,
 * the deprecated cache options come as a pair, the partitioned scan's options come together, …) is checked here, when the planner creates the table's source
 * or sink, before anything runs; unknown keys were already refused, with the nearest key, by the registry.
 */
import { JdbcConnectionOptions, JdbcConnectionOptionsError } from "../../connectors/postgres/jdbc-connection-options.ts";
import { identifierString } from "../catalog/object-identifier.ts";
import { SqlValidationError } from "../validation/sql-validation-error.ts";
import type { DynamicTableContext } from "./dynamic-table-factory.ts";
import { didYouMean } from "../validation/nearest-name.ts";
import type { JdbcScanPartition, JdbcTableConfig, JdbcTableLookupConfig, JdbcTableSinkConfig } from "./jdbc-table-config.ts";

/** A planning error naming the table. */
function jdbcOptionError(table: string, problem: string): SqlValidationError {
  return new SqlValidationError(`Invalid options of table '${table}': ${problem}`);
}

/** Reads options of `o` with checks that name the table and the key. */
class OptionReader {
  constructor(
    private readonly table: string,
    private readonly o: ReadonlyMap<string, unknown>,
  ) {}

  has(key: string): boolean {
    return this.o.has(key);
  }

  string(key: string): string | undefined {
    return this.o.get(key) as string | undefined;
  }

  boolean(key: string): boolean {
    return this.o.get(key) as boolean;
  }

  /** A number at least `min` (an int, or a duration in ms), or undefined when neither given nor defaulted. */
  atLeast(key: string, min: number): number | undefined {
    const v = this.o.get(key) as number | undefined;
    if (v !== undefined && !(v >= min)) throw jdbcOptionError(this.table, `'${key}' must be ${min === 0 ? "0 or more" : `at least ${min}`}, but is ${v}.`);
    return v;
  }

  error(problem: string): SqlValidationError {
    return jdbcOptionError(this.table, problem);
  }
}

function connectionOf(r: OptionReader): JdbcConnectionOptions {
  const driver = r.string("driver");
  try {
    const b = JdbcConnectionOptions.builder()
      .withUrl(r.string("url")!)
      .withConnectionCheckTimeoutSeconds(r.atLeast("connection.max-retry-timeout", 1)! / 1000);
    if (driver !== undefined) b.withDriverName(driver);
    const username = r.string("username");
    const password = r.string("password");
    if (username !== undefined) b.withUsername(username);
    if (password !== undefined) b.withPassword(password);
    return b.build();
  } catch (e) {
    if (e instanceof JdbcConnectionOptionsError) throw r.error(`${driver !== undefined && e.message.startsWith("driver") ? "'driver'" : "'url'"}: ${e.message}.`);
    throw e;
  }
}

function lookupOf(r: OptionReader): JdbcTableLookupConfig {
  const maxRetries = r.atLeast("lookup.max-retries", 0)!;
  const legacyRows = r.atLeast("lookup.cache.max-rows", 1);
  const legacyTtl = r.atLeast("lookup.cache.ttl", 1);
  let cache = r.string("lookup.cache") as "NONE" | "PARTIAL" | "FULL";
  if (cache === "FULL") throw r.error("'lookup.cache' = 'FULL' is not supported; use 'PARTIAL' (rows cached per key as they are looked up).");
  const partialKeys = ["lookup.partial-cache.max-rows", "lookup.partial-cache.expire-after-write", "lookup.partial-cache.expire-after-access"];
  if (legacyRows !== undefined || legacyTtl !== undefined) {
    if (legacyRows === undefined || legacyTtl === undefined) {
      throw r.error("either all or none of 'lookup.cache.max-rows' and 'lookup.cache.ttl' should be set (they are deprecated: prefer 'lookup.cache' = 'PARTIAL' with 'lookup.partial-cache.*').");
    }
    if (cache === "PARTIAL" || partialKeys.some((k) => r.has(k))) {
      throw r.error("the deprecated 'lookup.cache.max-rows' and 'lookup.cache.ttl' cannot be combined with 'lookup.cache' = 'PARTIAL' and 'lookup.partial-cache.*'; keep the new options.");
    }
    return { cache: "PARTIAL", maxRows: legacyRows, expireAfterWriteMs: legacyTtl, expireAfterAccessMs: undefined, cacheMissingKey: r.boolean("lookup.cache.caching-missing-key"), maxRetries };
  }
  const maxRows = r.atLeast("lookup.partial-cache.max-rows", 1);
  const expireAfterWriteMs = r.atLeast("lookup.partial-cache.expire-after-write", 1);
  const expireAfterAccessMs = r.atLeast("lookup.partial-cache.expire-after-access", 1);
  if (cache === "NONE") {
    const set = partialKeys.filter((k) => r.has(k));
    if (set.length > 0) throw r.error(`${set.map((k) => `'${k}'`).join(", ")} need${set.length === 1 ? "s" : ""} 'lookup.cache' = 'PARTIAL'.`);
    return { cache, maxRows: undefined, expireAfterWriteMs: undefined, expireAfterAccessMs: undefined, cacheMissingKey: r.boolean("lookup.partial-cache.cache-missing-key"), maxRetries };
  }
  cache = "PARTIAL";
  if (maxRows === undefined && expireAfterWriteMs === undefined && expireAfterAccessMs === undefined) {
    throw r.error("'lookup.cache' = 'PARTIAL' needs a bound: 'lookup.partial-cache.max-rows', 'lookup.partial-cache.expire-after-write' or 'lookup.partial-cache.expire-after-access'.");
  }
  return { cache, maxRows, expireAfterWriteMs, expireAfterAccessMs, cacheMissingKey: r.boolean("lookup.partial-cache.cache-missing-key"), maxRetries };
}

const PARTITION_KEYS = ["scan.partition.column", "scan.partition.num", "scan.partition.lower-bound", "scan.partition.upper-bound"];
const INTEGER_KINDS = ["tinyint", "smallint", "int", "bigint"];

function scanPartitionOf(r: OptionReader, ctx: DynamicTableContext): JdbcScanPartition | undefined {
  const given = PARTITION_KEYS.filter((k) => r.has(k));
  if (given.length === 0) return undefined;
  if (given.length < PARTITION_KEYS.length) {
    throw r.error(`either all or none of ${PARTITION_KEYS.map((k) => `'${k}'`).join(", ")} should be set; missing: ${PARTITION_KEYS.filter((k) => !given.includes(k)).map((k) => `'${k}'`).join(", ")}.`);
  }
  const column = r.string("scan.partition.column")!;
  const { names, types } = ctx.physicalType;
  const i = names.indexOf(column);
  if (i < 0) throw r.error(`'scan.partition.column' '${column}' is not a column of the table: ${names.join(", ")}.${didYouMean(column, names)}`);
  if (!INTEGER_KINDS.includes(types[i]!.kind)) throw r.error(`'scan.partition.column' '${column}' must be of an integer type (TINYINT, SMALLINT, INT, BIGINT).`);
  const num = r.atLeast("scan.partition.num", 1)!;
  const lowerBound = r.atLeast("scan.partition.lower-bound", Number.MIN_SAFE_INTEGER)!;
  const upperBound = r.atLeast("scan.partition.upper-bound", lowerBound)!;
  return { column, num, lowerBound, upperBound };
}

function sinkOf(r: OptionReader): JdbcTableSinkConfig {
  return {
    maxRows: r.atLeast("sink.buffer-flush.max-rows", 0)!,
    intervalMs: r.atLeast("sink.buffer-flush.interval", 0)!,
    maxRetries: r.atLeast("sink.max-retries", 0)!,
    parallelism: r.atLeast("sink.parallelism", 1),
    deliveryGuarantee: r.string("sink.delivery-guarantee") as JdbcTableSinkConfig["deliveryGuarantee"],
    transactionalIdPrefix: r.string("sink.transactional-id-prefix"),
  };
}

/**
 * Reads and checks the options of a `jdbc` table.
 *
 * @throws {SqlValidationError} naming the table and the option for a value out of range, a URL that is not
 *   PostgreSQL's, a driver other than PostgreSQL's, or contradicting lookup cache options
 * @example
 * ```ts
 * // CREATE TABLE rates (currency STRING, rate DECIMAL(10, 4)) WITH ('connector' = 'jdbc',
 * //   'url' = 'jdbc:postgresql://localhost:5432/shop', 'table-name' = 'rates', 'lookup.cache' = 'PARTIAL',
 * //   'lookup.partial-cache.max-rows' = '10000', 'lookup.partial-cache.expire-after-write' = '1 min')
 * const config = jdbcTableConfig(ctx);
 * config.lookup; // { cache: "PARTIAL", maxRows: 10000, expireAfterWriteMs: 60000, … }
 * ```
 */
export function jdbcTableConfig(ctx: DynamicTableContext): JdbcTableConfig {
  const table = identifierString(ctx.table.identifier);
  const r = new OptionReader(table, ctx.options.options);
  const tableName = r.string("table-name")!.trim();
  if (tableName === "") throw r.error("'table-name' is empty.");
  const partition = scanPartitionOf(r, ctx);
  return {
    table,
    connection: connectionOf(r),
    tableName,
    fetchSize: r.atLeast("scan.fetch-size", 0)!,
    ...(partition === undefined ? {} : { scanPartition: partition }),
    sink: sinkOf(r),
    lookup: lookupOf(r),
  };
}
