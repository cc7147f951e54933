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
import type { Row } from "../data/row.ts";
import { ChangelogMode } from "../plan/changelog-mode.ts";
import type { DynamicTableContext, DynamicTableFactory, TableSource } from "./dynamic-table-factory.ts";
import { jdbcLookupProvider } from "./jdbc-lookup-function.ts";
import { openJdbcTable } from "./jdbc-table-open.ts";
import { jdbcTableConfig } from "./jdbc-table-options.ts";
import { jdbcTableSink } from "./jdbc-table-sink.ts";
import { scanJdbcTable, scanRanges } from "./jdbc-table-scan.ts";
import { JdbcScanSource } from "./jdbc-scan-source.ts";
import { sourceWatermarkStrategy } from "./source-watermarks.ts";

function createSource(ctx: DynamicTableContext): TableSource {
  const config = jdbcTableConfig(ctx);
  const table = identifierString(ctx.table.identifier);
  const declared = ctx.physicalType;
  const check = () => openJdbcTable(config, declared, `weir jdbc check ${table}`).then((t) => t.client.end());
  const clock = ctx.env.options.clock ?? systemClock;
  return {
    changelogMode: ChangelogMode.INSERT_ONLY,
    unbounded: false,
    produce(watermarks, projection) {
      const ranges = config.scanPartition === undefined ? [undefined] : scanRanges(config.scanPartition);
      const source = new JdbcScanSource(ranges, (range) => scanJdbcTable(config, declared, projection, `weir jdbc scan ${table}`, range));
      const strategy = watermarks === undefined ? WatermarkStrategy.noWatermarks<Row>() : sourceWatermarkStrategy(watermarks, (row: Row) => [row]);
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

/** The `jdbc` connector (its options: `JDBC` in builtin-factories.ts). */
export const JDBC_TABLE_FACTORY: DynamicTableFactory = { identifier: "jdbc", createSource, createSink: (ctx) => jdbcTableSink(ctx, jdbcTableConfig(ctx)) };
