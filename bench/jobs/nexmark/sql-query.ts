/**
 * A Nexmark query run from its SQL: the bids of the event stream become the
 * table `bid` (the nexmark project's columns, `dateTime` the rowtime with
 * the source's out-of-orderness as watermark delay), the query's SQL runs on
 * it, and its rows become the query's output rows.
 */
import {
  NexmarkEventType,
  Schema,
  StreamTableEnvironment,
  type DataStream,
  type NexmarkEvent,
  type Row,
} from "../../../src/index.ts";
import type { NexmarkQuery } from "./nexmark-query.ts";

/** The rows of `query`'s SQL over the bids of `events`. */
export function sqlPipeline<Out>(events: DataStream<NexmarkEvent>, query: NexmarkQuery<Out>, outOfOrdernessMs: number): DataStream<Out> {
  const env = events.getExecutionEnvironment();
  const tEnv = StreamTableEnvironment.create(env);
  const bids = events
    .filter((e) => e.type === NexmarkEventType.BID)
    .name("bids")
    .map((e) => e.bid!)
    .name("bid records");
  tEnv.createTemporaryView(
    "bid",
    bids,
    Schema.newBuilder()
      .column("auction", "BIGINT")
      .column("bidder", "BIGINT")
      .column("price", "BIGINT")
      .column("channel", "STRING")
      .column("url", "STRING")
      .column("dateTime", "TIMESTAMP(3)")
      .column("extra", "STRING")
      .watermark("dateTime", `dateTime - INTERVAL '${outOfOrdernessMs / 1000}' SECOND`)
      .build(),
  );
  const sql = query.sql!;
  return tEnv
    .toChangelogStream(tEnv.sqlQuery(sql.text))
    .map((r: Row) => sql.row(r))
    .name(`${query.name} rows`);
}
