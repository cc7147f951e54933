/**
 * What a test does to a real broker besides running a job: create topics, produce input, and read a topic
 * back as a consumer would (`committed: true` = read_committed), with @platformatic/kafka directly.
 *
 * `readTopic` decides visibility over the whole log at once — a transactional batch is committed when the
 * next control marker of its producer is a commit, aborted when it is an abort, open when there is none —
 * which is independent of the streaming filter in the source reader it checks.
 */
import { Admin, Consumer, Producer, type RecordsBatch } from "@platformatic/kafka";

/** The part of a fetch response read here (the client's overloads type the promise as `void & Promise<…>`). */
interface FetchResponse {
  responses: { partitions: { errorCode: number; highWatermark: bigint; lastStableOffset: bigint; records?: RecordsBatch[] }[] }[];
}

/** A record as the broker stores it. */
export interface StoredRecord {
  readonly partition: number;
  readonly offset: number;
  readonly timestamp: number;
  readonly key: string | null;
  readonly value: string | null;
  readonly headers: Readonly<Record<string, string>>;
}

/** A record to produce. */
export interface RecordToProduce {
  readonly key?: string;
  readonly value: string | null;
  readonly partition?: number;
  readonly timestamp?: number;
  readonly headers?: Readonly<Record<string, string>>;
}

const IS_CONTROL = 0x20;
const IS_TRANSACTIONAL = 0x10;

/** Creates topics with `partitions` partitions each (replication 1). */
export async function createTopic(bootstrap: string, topic: string | readonly string[], partitions: number, configs: Record<string, string> = {}): Promise<void> {
  const admin = new Admin({ clientId: "weir-test-admin", bootstrapBrokers: [bootstrap] });
  try {
    await admin.createTopics({
      topics: typeof topic === "string" ? [topic] : [...topic],
      partitions,
      replicas: 1,
      configs: Object.entries(configs).map(([name, value]) => ({ name, value })),
    });
  } finally {
    await admin.close();
  }
}

/** Produces `records` (acks=all, in batches of 2 000, in order per partition). */
export async function produceRecords(bootstrap: string, topic: string, records: readonly RecordToProduce[]): Promise<void> {
  // idempotent: a produce retried after a slow answer (a loaded machine) must not store a record twice
  const producer = new Producer({ clientId: "weir-test-producer", bootstrapBrokers: [bootstrap], acks: -1, idempotent: true });
  try {
    for (let i = 0; i < records.length; i += 2000) {
      await producer.send({
        messages: records.slice(i, i + 2000).map((r) => ({
          topic,
          key: r.key === undefined ? undefined : Buffer.from(r.key),
          value: r.value === null ? undefined : Buffer.from(r.value),
          partition: r.partition,
          timestamp: r.timestamp === undefined ? undefined : BigInt(r.timestamp),
          headers: r.headers === undefined ? undefined : new Map(Object.entries(r.headers).map(([k, v]) => [Buffer.from(k), Buffer.from(v)])),
        })),
      });
    }
  } finally {
    await producer.close();
  }
}

/** Every batch of one partition from offset 0 to its high watermark, and its last stable offset. */
async function partitionBatches(consumer: Consumer, node: number, topicId: string, partition: number): Promise<{ batches: RecordsBatch[]; lastStable: bigint; high: bigint }> {
  const batches: RecordsBatch[] = [];
  let offset = 0n;
  for (;;) {
    const response = (await consumer.fetch({
      node,
      isolationLevel: 0,
      maxWaitTime: 0,
      topics: [{ topicId, partitions: [{ partition, currentLeaderEpoch: -1, fetchOffset: offset, lastFetchedEpoch: -1, partitionMaxBytes: 4 << 20 }] }],
    })) as FetchResponse;
    const p = response.responses[0]!.partitions[0]!;
    if (p.errorCode !== 0) throw new Error(`fetch of partition ${partition} failed with error code ${p.errorCode}`);
    const got = p.records ?? [];
    for (const b of got) if (b.firstOffset + BigInt(b.lastOffsetDelta) >= offset) batches.push(b);
    const last = got.at(-1);
    if (last !== undefined) offset = last.firstOffset + BigInt(last.lastOffsetDelta) + 1n;
    if (last === undefined || offset >= p.highWatermark) return { batches, lastStable: p.lastStableOffset, high: p.highWatermark };
  }
}

/** Per partition of `topic`: its high watermark and last stable offset (below the first open transaction's records). */
export async function partitionEnds(bootstrap: string, topic: string): Promise<{ partition: number; high: number; lastStable: number }[]> {
  const consumer = new Consumer({ clientId: "weir-test-reader", groupId: `weir-test-reader-${process.pid}`, bootstrapBrokers: [bootstrap] });
  try {
    const meta = await consumer.metadata({ topics: [topic] });
    const t = meta.topics.get(topic);
    if (t === undefined) throw new Error(`no topic ${topic}`);
    const out: { partition: number; high: number; lastStable: number }[] = [];
    for (let partition = 0; partition < t.partitionsCount; partition++) {
      const { high, lastStable } = await partitionBatches(consumer, t.partitions[partition]!.leader, t.id, partition);
      out.push({ partition, high: Number(high), lastStable: Number(lastStable) });
    }
    return out;
  } finally {
    await consumer.close();
  }
}

/**
 * The records of every partition of `topic`, ordered by partition and offset. `committed`: only what a
 * read_committed consumer sees (committed transactions and non-transactional records below the last
 * stable offset); else every data record (read_uncommitted).
 */
export async function readTopic(bootstrap: string, topic: string, options: { committed: boolean }): Promise<StoredRecord[]> {
  const consumer = new Consumer({ clientId: "weir-test-reader", groupId: `weir-test-reader-${process.pid}`, bootstrapBrokers: [bootstrap] });
  try {
    const meta = await consumer.metadata({ topics: [topic] });
    const t = meta.topics.get(topic);
    if (t === undefined) throw new Error(`no topic ${topic}`);
    const out: StoredRecord[] = [];
    for (let partition = 0; partition < t.partitionsCount; partition++) {
      const { batches, lastStable } = await partitionBatches(consumer, t.partitions[partition]!.leader, t.id, partition);
      // The outcome of each transactional batch: the next control marker of its producer.
      const outcome = new Map<RecordsBatch, "commit" | "abort" | "open">();
      const waiting = new Map<bigint, RecordsBatch[]>();
      for (const b of batches) {
        if ((b.attributes & IS_CONTROL) !== 0) {
          const type = b.records[0]?.key?.readInt16BE(2) === 1 ? "commit" : "abort";
          for (const w of waiting.get(b.producerId) ?? []) outcome.set(w, type);
          waiting.delete(b.producerId);
        } else if ((b.attributes & IS_TRANSACTIONAL) !== 0) {
          waiting.set(b.producerId, [...(waiting.get(b.producerId) ?? []), b]);
          outcome.set(b, "open");
        }
      }
      for (const b of batches) {
        if ((b.attributes & IS_CONTROL) !== 0) continue;
        if (options.committed && ((outcome.get(b) ?? "commit") !== "commit" || b.firstOffset >= lastStable)) continue;
        for (const r of b.records) {
          out.push({
            partition,
            offset: Number(b.firstOffset) + r.offsetDelta,
            timestamp: Number(b.firstTimestamp + r.timestampDelta),
            key: r.key === null ? null : r.key.toString(),
            value: r.value === null ? null : r.value.toString(),
            headers: Object.fromEntries(r.headers.map(([k, v]) => [k?.toString() ?? "", v?.toString() ?? ""])),
          });
        }
      }
    }
    return out;
  } finally {
    await consumer.close();
  }
}
