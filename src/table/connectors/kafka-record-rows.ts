/**
 * Kafka records ↔ table rows (Flink's `DynamicKafkaDeserializationSchema` /
 * `DynamicKafkaRecordSerializationSchema`): the physical columns come from
 * the key format (the `key.fields`) and the value format (every column or
 * all but the key's), then the metadata columns the table reads; a row
 * becomes a key, a value, and the record's topic, timestamp and headers from
 * its writable metadata columns.
 *
 * Metadata keys, as in Flink: `topic` (STRING, read and write), `partition`
 * (INT), `offset` (BIGINT), `timestamp` (TIMESTAMP_LTZ(3), read and write),
 * `timestamp-type` (STRING: `CreateTime` or `LogAppendTime`) and `headers`
 * (MAP<STRING, BYTES>, read and write).
 */
import type { Row } from "../data/row.ts";
import { isAccumulate, RowKind } from "../data/row-kind.ts";
import { FormatValueError } from "../formats/format-value-error.ts";
import type { LogicalType } from "../types/logical-type.ts";
import type { KafkaConsumerRecord } from "../../connectors/kafka/kafka-record-deserialization-schema.ts";
import type { KafkaProducerRecord } from "../../connectors/kafka/kafka-record-serialization-schema.ts";
import type { SqlValue } from "../types/sql-value.ts";
import type { KafkaTableConfig } from "./kafka-table-options.ts";
import { messageFormat, type MessageFormat } from "./kafka-message-format.ts";
import { TableSinkError } from "./table-sink-error.ts";

const STRING: LogicalType = { kind: "varchar", length: 2147483647, nullable: false };
const LTZ3: LogicalType = { kind: "timestamp", precision: 3, withLocalTimeZone: true, nullable: false };
const HEADERS: LogicalType = { kind: "map", key: { ...STRING, nullable: true }, value: { kind: "varbinary", length: 2147483647, nullable: true }, nullable: false };

/** The metadata a `kafka` or `upsert-kafka` source reads, with Flink's types. */
export const KAFKA_READABLE_METADATA: ReadonlyMap<string, LogicalType> = new Map<string, LogicalType>([
  ["topic", STRING],
  ["partition", { kind: "int", nullable: false }],
  ["headers", HEADERS],
  ["offset", { kind: "bigint", nullable: false }],
  ["timestamp", LTZ3],
  ["timestamp-type", STRING],
]);

/** The metadata a `kafka` or `upsert-kafka` sink writes. */
export const KAFKA_WRITABLE_METADATA: ReadonlyMap<string, LogicalType> = new Map<string, LogicalType>([
  ["topic", { ...STRING, nullable: true }],
  ["headers", { ...HEADERS, nullable: true }],
  ["timestamp", { ...LTZ3, nullable: true }],
]);

/** A record the table cannot read, with its place. */
export class KafkaRecordReadError extends Error {
  override readonly name = "KafkaRecordReadError";

  constructor(
    readonly table: string,
    readonly topic: string,
    readonly partition: number,
    readonly offset: number,
    readonly part: "key" | "value",
    readonly problem: string,
  ) {
    super(`Table '${table}' cannot read the ${part} of the record at ${topic}-${partition} offset ${offset}: ${problem}`);
  }
}

function metadataValue(record: KafkaConsumerRecord, key: string): SqlValue {
  switch (key) {
    case "topic":
      return record.topic;
    case "partition":
      return record.partition;
    case "offset":
      return record.offset; // a safe integer: the BIGINT is that number (see types/bigint-value.ts)
    case "timestamp":
      return record.timestamp;
    case "timestamp-type":
      return record.timestampType;
    default:
      return new Map<SqlValue, SqlValue>(record.headers.map(([k, v]) => [k, v === null ? null : Uint8Array.from(v)]));
  }
}

/** The key and value formats of a table. */
export function messageFormats(config: KafkaTableConfig): { key?: MessageFormat; value: MessageFormat } {
  const key = config.key === undefined ? undefined : messageFormat(config.key.identifier, config.key.rowType, config.key.options);
  const value = messageFormat(config.value.identifier, config.value.rowType, config.value.options);
  return key === undefined ? { value } : { key, value };
}

/**
 * Reads records as rows of the physical columns (`width` of them) followed by
 * the `metadataKeys` values. A record without a value (a tombstone) is no row
 * for a `kafka` table and, with `upsert`, a `-D` row of its key.
 *
 * @example
 * ```ts
 * const read = recordReader(config, 3, ["offset"], false);
 * read(record); // [{ kind: "+I", fields: [1, "Mary", 12.5, 42n] }]
 * ```
 */
export function recordReader(config: KafkaTableConfig, width: number, metadataKeys: readonly string[], upsert: boolean): (record: KafkaConsumerRecord) => Row[] {
  const formats = messageFormats(config);
  const keyFields = config.key?.fields ?? [];
  const valueFields = config.value.fields;
  return (record) => {
    const fail = (part: "key" | "value", e: unknown) => {
      if (e instanceof FormatValueError) return new KafkaRecordReadError(config.table, record.topic, record.partition, record.offset, part, e.message);
      return e;
    };
    let keyValues: readonly SqlValue[] | undefined;
    if (formats.key !== undefined && record.key !== null) {
      try {
        keyValues = formats.key.decode(record.key)[0]?.fields;
      } catch (e) {
        throw fail("key", e);
      }
    }
    const metadata = metadataKeys.map((k) => metadataValue(record, k));
    const rowOf = (kind: RowKind, values: readonly SqlValue[] | undefined): Row => {
      const fields: SqlValue[] = new Array<SqlValue>(width).fill(null);
      keyFields.forEach((p, i) => (fields[p] = keyValues?.[i] ?? null));
      if (values !== undefined) valueFields.forEach((p, i) => (fields[p] = values[i] ?? null));
      fields.push(...metadata);
      return { kind, fields };
    };
    if (record.value === null) return upsert ? [rowOf(RowKind.DELETE, undefined)] : [];
    let rows: Row[];
    try {
      rows = formats.value.decode(record.value);
    } catch (e) {
      throw fail("value", e);
    }
    return rows.map((r) => rowOf(upsert ? RowKind.UPDATE_AFTER : r.kind, r.fields));
  };
}

/**
 * Writes rows (physical columns, then the `metadataKeys` values) as records.
 * With `upsert`: `+I`/`+U` as key and value, `-D` as the key and a tombstone,
 * `-U` not at all (null).
 *
 * @example
 * ```ts
 * const write = recordWriter(config, 2, ["timestamp"], false);
 * write({ kind: "+I", fields: [1, "Mary", 1700000000000] }); // { topic: "users", key: null, value: …, timestamp: 1700000000000 }
 * ```
 */
export function recordWriter(config: KafkaTableConfig, width: number, metadataKeys: readonly string[], upsert: boolean): (row: Row) => KafkaProducerRecord | null {
  const formats = messageFormats(config);
  const keyFields = config.key?.fields;
  const valueFields = config.value.fields;
  const at = (k: string) => metadataKeys.indexOf(k);
  const [topicAt, timestampAt, headersAt] = [at("topic"), at("timestamp"), at("headers")];
  const topics = config.topics;
  return (row) => {
    if (upsert && row.kind === RowKind.UPDATE_BEFORE) return null;
    const f = row.fields;
    const encode = (format: MessageFormat, positions: readonly number[], kind: RowKind) => {
      try {
        return format.encode({ kind, fields: positions.map((p) => f[p] ?? null) });
      } catch (e) {
        if (e instanceof FormatValueError) throw new TableSinkError(config.table, e.message);
        throw e;
      }
    };
    let topic = topicAt < 0 ? undefined : (f[width + topicAt] as string | null);
    if (topic === null || topic === undefined) {
      if (topics === undefined || topics.length !== 1) throw new TableSinkError(config.table, "the 'topic' metadata column is NULL and the table's 'topic' names no single topic");
      topic = topics[0]!;
    } else if (topics !== undefined && !topics.includes(topic)) {
      throw new TableSinkError(config.table, `the row's topic '${topic}' is not one of the table's topics (${topics.join(", ")})`);
    }
    const key = keyFields === undefined ? null : encode(formats.key!, keyFields, RowKind.INSERT);
    const value = upsert && !isAccumulate(row.kind) ? null : encode(formats.value, valueFields, upsert ? RowKind.INSERT : row.kind);
    const timestamp = timestampAt < 0 ? null : (f[width + timestampAt] as number | null);
    const headers = headersAt < 0 ? null : (f[width + headersAt] as Map<SqlValue, SqlValue> | null);
    return {
      topic,
      key,
      value,
      ...(timestamp === null ? {} : { timestamp }),
      ...(headers === null ? {} : { headers: [...headers].flatMap(([k, v]) => (v === null ? [] : [[String(k), v as Uint8Array] as const])) }),
    };
  };
}
