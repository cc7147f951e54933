/**
 * The change events of the PostgreSQL CDC source, in Debezium's envelope as Flink CDC hands them to its
 * deserializers: `op` (`r` snapshot read, `c` create, `u` update, `d` delete), `before`, `after`, `source`.
 * Column values are PostgreSQL's TEXT form (what pgoutput sends and `SELECT col::text` returns) or null.
 */
import type { Collector } from "../../core/collector.ts";

/**
 * The value Debezium puts in place of a TOASTed column an update did not change: PostgreSQL does not send
 * it unless the table has `REPLICA IDENTITY FULL`.
 */
export const UNCHANGED_TOAST_VALUE = "__debezium_unavailable_value";

/** A row: column name → TEXT value (or null). */
export type PostgresRowValues = Record<string, string | null>;

/** Where a change comes from. */
export interface PostgresChangeSource {
  /** The database. */
  readonly db: string;
  readonly schema: string;
  readonly table: string;
  /** LSN of the transaction's commit (`X/Y`); for snapshot reads the slot's consistent point. */
  readonly lsn: string;
  /** Transaction id (undefined for snapshot reads). */
  readonly txId: number | undefined;
  /** Commit time in epoch milliseconds (snapshot reads: when the snapshot was taken). */
  readonly ts_ms: number;
  /** Part of the initial snapshot. */
  readonly snapshot: boolean;
}

/**
 * One change of a captured table.
 *
 * `before`: with `REPLICA IDENTITY FULL` the whole old row of an update or delete; otherwise the old
 * key columns of a delete, of an update only when it changed the key (else null).
 */
export interface PostgresChangeEvent {
  readonly op: "r" | "c" | "u" | "d";
  readonly before: PostgresRowValues | null;
  readonly after: PostgresRowValues | null;
  readonly source: PostgresChangeSource;
  /** The columns of the table's primary key (its replica identity key), in key order. */
  readonly key: readonly string[];
}

/**
 * Turns change events into the records of the stream (Flink CDC's `DebeziumDeserializationSchema`).
 * It may emit any number of records per event.
 *
 * @example
 * ```ts
 * const ids: DebeziumDeserializationSchema<number> = {
 *   deserialize: (event, out) => { if (event.after) out.collect(Number(event.after.id)); },
 * };
 * ```
 */
export interface DebeziumDeserializationSchema<T> {
  deserialize(event: PostgresChangeEvent, out: Collector<T>): void;
}

/**
 * Each event as Debezium's JSON text (Flink CDC's `JsonDebeziumDeserializationSchema`), with `ts_ms`.
 *
 * @example
 * ```ts
 * PostgresSource.builder<string>()....deserializer(new JsonDebeziumDeserializationSchema()).build();
 * // {"before":null,"after":{"id":"1","name":"a"},"source":{...,"lsn":"0/1A2B3C0",...},"op":"c","ts_ms":...}
 * ```
 */
export class JsonDebeziumDeserializationSchema implements DebeziumDeserializationSchema<string> {
  deserialize(event: PostgresChangeEvent, out: Collector<string>): void {
    out.collect(JSON.stringify({ before: event.before, after: event.after, source: event.source, op: event.op, ts_ms: event.source.ts_ms }));
  }
}

/**
 * The events themselves (each a fresh object the job may change).
 *
 * @example
 * ```ts
 * PostgresSource.builder<PostgresChangeEvent>()....deserializer(new ChangeEventDeserializationSchema()).build();
 * ```
 */
export class ChangeEventDeserializationSchema implements DebeziumDeserializationSchema<PostgresChangeEvent> {
  deserialize(event: PostgresChangeEvent, out: Collector<PostgresChangeEvent>): void {
    out.collect(event);
  }
}
