/**
 * `'connector' = 'jdbc'` (Flink's JDBC SQL connector, PostgreSQL only): a PostgreSQL table as a bounded scan
 * source (one query read through a cursor, or one per range of `scan.partition.*`, read in parallel), as a sink
 * (`jdbc-table-sink.ts`: append, or upsert by primary key; exactly-once with prepared transactions) and as the dimension table of a lookup join (a
 * query per key, asynchronous, with the PARTIAL cache and retries of `lookup.*`). Before the job starts,
 * the job's client connects and checks that the table exists and that every declared column exists with a
 * type that fits, so a wrong password, a missing table or a column of another type fails the launch.
 */
import { WatermarkStrategy } from "../../time/watermark-strategy.ts";
import { systemClock } from "../../util/clock.ts";
import { identifierString } from "../catalog/object-identifier.ts";
import { option } from "../../config/config-option.ts";
import type { Row } from "../data/row.ts";
import { ChangelogMode } from "../plan/changelog-mode.ts";
import type { DynamicTableContext, DynamicTableFactory, TableFactoryOptions, TableSource } from "./dynamic-table-factory.ts";
import { jdbcLookupProvider } from "./jdbc-lookup-function.ts";
import { openJdbcTable } from "./jdbc-table-open.ts";
import { jdbcTableConfig } from "./jdbc-table-options.ts";
import { jdbcTableSink } from "./jdbc-table-sink.ts";
import { scanJdbcTable, scanRanges } from "./jdbc-table-scan.ts";
import { JdbcScanSource } from "./jdbc-scan-source.ts";
import { sourceWatermarkStrategy } from "./source-watermarks.ts";
import { WATERMARK_ALIGNMENT_OPTIONS, watermarkAlignmentOf } from "./watermark-alignment-options.ts";

function createSource(ctx: DynamicTableContext): TableSource {
  const config = jdbcTableConfig(ctx);
  const table = identifierString(ctx.table.identifier);
  const declared = ctx.physicalType;
  const check = () => openJdbcTable(config, declared, `weir jdbc check ${table}`).then((t) => t.client.end());
  const clock = ctx.env.options.clock ?? systemClock;
  return {
    changelogMode: ChangelogMode.INSERT_ONLY,
    supportsWatermarkPushDown: true,
    watermarkAlignment: watermarkAlignmentOf(ctx),
    unbounded: false,
    produce(watermarks, projection) {
      const ranges = config.scanPartition === undefined ? [undefined] : scanRanges(config.scanPartition);
      const source = new JdbcScanSource(ranges, (range) => scanJdbcTable(config, declared, projection, `weir jdbc scan ${table}`, range));
      const strategy = watermarks === undefined ? WatermarkStrategy.noWatermarks<Row>() : sourceWatermarkStrategy(watermarks);
      const stream = ctx.env
        .fromSource(source, strategy, `Source: ${table}`)
        .setParallelism(Math.min(ranges.length, ctx.env.getParallelism()))
        .uid(ctx.uid)
        .name(`Source: ${table} (jdbc ${config.tableName})`);
      ctx.env.addLaunchCheck(stream, check);
      return stream;
    },
    lookup: (lookupKeys) => ({ ...jdbcLookupProvider(config, declared, lookupKeys, clock), check }),
  };
}

/** The options of `jdbc`, with Flink's keys and defaults. */
const OPTIONS: TableFactoryOptions = {
  requiredOptions: [
    option("url", { kind: "string" }, "The JDBC URL of the database, 'jdbc:postgresql://host:port/database'."),
    option("table-name", { kind: "string" }, "The PostgreSQL table, 'name' or 'schema.name'."),
  ],
  optionalOptions: [
    ...WATERMARK_ALIGNMENT_OPTIONS,
    option("driver", { kind: "string" }, "The JDBC driver class; only 'org.postgresql.Driver' (PostgreSQL) is supported."),
    option("username", { kind: "string" }, "The user to log in as (else the URL's 'user', else 'postgres')."),
    option("password", { kind: "string" }, "The user's password (else the URL's 'password')."),
    option("connection.max-retry-timeout", { kind: "duration" }, "How long a connection attempt may take.", 60_000),
    option("scan.fetch-size", { kind: "int" }, "Rows the scan fetches per round trip; 0: 1000.", 0),
    option("scan.auto-commit", { kind: "boolean" }, "Accepted for Flink compatibility; the scan always reads in one read-only transaction.", true),
    option("scan.partition.column", { kind: "string" }, "An integer column that splits the scan into 'scan.partition.num' ranges read in parallel."),
    option("scan.partition.num", { kind: "int" }, "The number of ranges of a partitioned scan."),
    option("scan.partition.lower-bound", { kind: "int" }, "The smallest value of the first range of a partitioned scan."),
    option("scan.partition.upper-bound", { kind: "int" }, "The largest value of the last range of a partitioned scan."),
    option("lookup.cache", { kind: "enum", values: ["NONE", "PARTIAL", "FULL"] }, "The lookup cache: 'NONE' or 'PARTIAL' ('FULL' is not supported).", "NONE"),
    option("lookup.partial-cache.max-rows", { kind: "int" }, "The most lookup keys the PARTIAL cache keeps (least recently used go first)."),
    option("lookup.partial-cache.expire-after-write", { kind: "duration" }, "A cached key expires this long after it was looked up."),
    option("lookup.partial-cache.expire-after-access", { kind: "duration" }, "A cached key expires this long after it was last used."),
    option("lookup.partial-cache.cache-missing-key", { kind: "boolean" }, "Cache that a key has no row.", true),
    option("lookup.cache.max-rows", { kind: "int" }, "Deprecated (Flink): 'lookup.cache' = 'PARTIAL' with 'lookup.partial-cache.max-rows'."),
    option("lookup.cache.ttl", { kind: "duration" }, "Deprecated (Flink): 'lookup.partial-cache.expire-after-write'."),
    option("lookup.cache.caching-missing-key", { kind: "boolean" }, "Deprecated (Flink): 'lookup.partial-cache.cache-missing-key'.", true),
    option("lookup.max-retries", { kind: "int" }, "Retries of a failed lookup (after a lost connection: reconnects).", 3),
    option("sink.buffer-flush.max-rows", { kind: "int" }, "Rows buffered before a flush; 0: no row limit.", 100),
    option("sink.buffer-flush.interval", { kind: "duration" }, "The longest time rows wait in the buffer; 0: flush by rows and at checkpoints only.", 1000),
    option("sink.max-retries", { kind: "int" }, "Retries of a failed flush.", 3),
    option("sink.parallelism", { kind: "int" }, "The parallelism of the sink; the input's parallelism when unset."),
    option("sink.delivery-guarantee", { kind: "enum", values: ["none", "at-least-once", "exactly-once"] }, "The sink's delivery guarantee (Weir's option; exactly-once prepares a transaction per checkpoint).", "at-least-once"),
    option("sink.transactional-id-prefix", { kind: "string" }, "The prefix of the exactly-once sink's prepared transaction ids; unique to the job."),
  ],
};

/** The `jdbc` connector. */
export const JDBC_TABLE_FACTORY: DynamicTableFactory = { identifier: "jdbc", ...OPTIONS, createSource, createSink: (ctx) => jdbcTableSink(ctx, jdbcTableConfig(ctx)) };
