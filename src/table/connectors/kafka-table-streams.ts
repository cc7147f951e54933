/**
 * The DataStream side of the `kafka` and `upsert-kafka` tables: a
 * `KafkaSource` whose record deserializer yields the table's rows and a
 * `KafkaSink` whose record serializer writes them.
 */
import type { DataStream, DataStreamSink } from "../../api/data-stream.ts";
import type { Row } from "../data/row.ts";
import type { DynamicTableContext } from "./dynamic-table-factory.ts";
import type { ConsumedRecord, ProducedRecord } from "./kafka-record-rows.ts";
import type { KafkaTableConfig } from "./kafka-table-options.ts";
import type { SourceWatermarks } from "./source-watermarks.ts";

/** The rows of the table's topics, read by a `KafkaSource` (the DataStream connector lands separately). */
export function kafkaRowStream(_ctx: DynamicTableContext, _config: KafkaTableConfig, _read: (r: ConsumedRecord) => Row[], _name: string, _watermarks?: SourceWatermarks): DataStream<Row> {
  throw new Error("the DataStream KafkaSource is not merged yet");
}

/** Writes `stream` with a `KafkaSink`. */
export function kafkaRowSink(_stream: DataStream<Row>, _ctx: DynamicTableContext, _config: KafkaTableConfig, _write: (row: Row) => ProducedRecord | null, _name: string): DataStreamSink {
  throw new Error("the DataStream KafkaSink is not merged yet");
}
