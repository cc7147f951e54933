/**
 * One value through the user's serialization schema into a record the send queue takes (bytes wrapped,
 * not copied).
 */
import type { KafkaRecordSerializationSchema } from "./kafka-record-serialization-schema.ts";
import type { QueuedRecord } from "./kafka-send-queue.ts";

const NO_CONTEXT = Object.freeze({});

function buffer(b: Uint8Array): Buffer {
  return Buffer.isBuffer(b) ? b : Buffer.from(b.buffer, b.byteOffset, b.byteLength);
}

/** The queued form of `element`, or undefined when the schema skips it. */
export function queuedRecord<T>(schema: KafkaRecordSerializationSchema<T>, element: T): QueuedRecord | undefined {
  const r = schema.serialize(element, NO_CONTEXT);
  if (r === null) return undefined;
  const key = r.key == null ? undefined : buffer(r.key);
  const value = r.value === null ? undefined : buffer(r.value);
  let bytes = 70 + (key?.length ?? 0) + (value?.length ?? 0);
  let headers: Map<Buffer, Buffer> | undefined;
  if (r.headers !== undefined && r.headers.length > 0) {
    headers = new Map();
    for (const [k, v] of r.headers) {
      const kb = Buffer.from(k);
      headers.set(kb, buffer(v));
      bytes += kb.length + v.length + 2;
    }
  }
  const message = {
    topic: r.topic,
    key,
    value,
    ...(r.partition === undefined ? {} : { partition: r.partition }),
    ...(r.timestamp === undefined ? {} : { timestamp: BigInt(r.timestamp) }),
    ...(headers === undefined ? {} : { headers }),
  };
  const partitioner = schema.partitioner;
  if (r.partition !== undefined || partitioner === undefined) return { message, bytes };
  const k = r.key ?? null;
  const v = r.value;
  return { message, bytes, partitionOf: (count) => ((partitioner(element, k, v, r.topic, count) % count) + count) % count };
}
