/**
 * The validated options of a `'connector' = 'jdbc'` table (Flink's JDBC SQL connector, PostgreSQL only):
 * what `jdbc-table-options.ts` makes of the WITH clause and what the table's scan source, lookup source and
 * sink (`jdbc-table-sink.ts`) are built from.
 */
import type { JdbcConnectionOptions } from "../../connectors/postgres/jdbc-connection-options.ts";

/** Sink settings (`sink.*`). */
export interface JdbcTableSinkConfig {
  /** `sink.buffer-flush.max-rows` (default 100; 0 = no row limit). */
  maxRows: number;
  /** `sink.buffer-flush.interval` in ms (default 1000; 0 = flush only by rows and at checkpoints). */
  intervalMs: number;
  /** `sink.max-retries` (default 3). */
  maxRetries: number;
  /** `sink.parallelism`, when set. */
  parallelism: number | undefined;
  /** `sink.delivery-guarantee` (Weir's addition; default `at-least-once`). */
  deliveryGuarantee: "none" | "at-least-once" | "exactly-once";
  /** `sink.transactional-id-prefix` (exactly-once: the prefix of the prepared transactions' ids), when set. */
  transactionalIdPrefix: string | undefined;
}

/** Lookup settings (`lookup.*`). */
export interface JdbcTableLookupConfig {
  /** `lookup.cache`: `NONE` (default) or `PARTIAL`. */
  cache: "NONE" | "PARTIAL";
  /** `lookup.partial-cache.max-rows`. */
  maxRows: number | undefined;
  /** `lookup.partial-cache.expire-after-write` in ms. */
  expireAfterWriteMs: number | undefined;
  /** `lookup.partial-cache.expire-after-access` in ms. */
  expireAfterAccessMs: number | undefined;
  /** `lookup.partial-cache.cache-missing-key` (default true). */
  cacheMissingKey: boolean;
  /** `lookup.max-retries` (default 3). */
  maxRetries: number;
}

/** A partitioned scan (`scan.partition.*`): `num` ranges of `column` between the bounds, read in parallel. */
export interface JdbcScanPartition {
  /** `scan.partition.column`: a declared column of an integer type. */
  column: string;
  /** `scan.partition.num`. */
  num: number;
  /** `scan.partition.lower-bound` (inclusive). */
  lowerBound: number;
  /** `scan.partition.upper-bound` (inclusive). */
  upperBound: number;
}

/** A `jdbc` table's options. */
export interface JdbcTableConfig {
  /** The catalog table's name, for messages. */
  table: string;
  /** `url`, `username`, `password`, `connection.max-retry-timeout`. */
  connection: JdbcConnectionOptions;
  /** `table-name`: the PostgreSQL table (`name` or `schema.name`, as written). */
  tableName: string;
  /** `scan.fetch-size` (rows per round trip; 0 = the default). */
  fetchSize: number;
  /** `scan.partition.*`, when set (else one query over the whole table). */
  scanPartition?: JdbcScanPartition;
  sink: JdbcTableSinkConfig;
  lookup: JdbcTableLookupConfig;
}
