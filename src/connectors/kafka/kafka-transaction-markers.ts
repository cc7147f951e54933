/**
 * The check that an ended Kafka transaction left no partition open: once the coordinator has finished
 * sending the transaction's markers, every partition the transaction wrote must show it closed; a partition
 * where its producer still holds a transaction open gets the missing marker (COMMIT or ABORT, the outcome
 * the coordinator already decided) written to the partition leader with `WriteTxnMarkers`, as Kafka's own
 * `kafka-transactions.sh abort` does (KIP-664).
 *
 * Why: a Kafka 4.x coordinator skips the markers of partitions that have no leader at the moment it sends
 * them (it takes them for deleted topics: "Couldn't find leader endpoint for partitions … likely deleted
 * already and hence can be skipped", KAFKA-20734), yet completes the transaction. A single-replica
 * partition has no leader while its broker shuts down, so a commit during a broker restart can leave
 * records that the coordinator calls committed without a marker: a hanging transaction, where
 * read_committed consumers stop for good.
 */
import type { Connection } from "@platformatic/kafka";
import { kafkaModule } from "./kafka-client.ts";
import type { KafkaConnectionSettings } from "./kafka-sink-settings.ts";
import { onBootstrap, onCoordinator, retriable, withConnection, type StoredTransaction } from "./kafka-transaction-admin.ts";

/** The partitions a transaction wrote: topic → partition indexes (plain data, stored in checkpoints). */
export type WrittenPartitions = Record<string, number[]>;

/** A partition whose leader is unknown for now (its broker is starting or stopping): asked again. */
class NoLeaderYet extends Error {
  constructor(topic: string, partition: number) {
    super(`partition ${topic}-${partition} has no leader`);
    this.name = "NoLeaderYet";
  }
}

interface OpenPartition {
  readonly topic: string;
  readonly partition: number;
  readonly coordinatorEpoch: number;
}

interface MarkerResult {
  producerId: bigint;
  topics: { name: string; partitions: { partitionIndex: number; errorCode: number }[] }[];
}

type WriteTxnMarkers = (c: Connection, producerId: bigint, epoch: number, commit: boolean, topics: Map<string, number[]>, coordinatorEpoch: number) => Promise<MarkerResult[]>;

let writeTxnMarkersApi: WriteTxnMarkers | undefined;

/** WriteTxnMarkers v1 (not among the client's APIs): one marker, for the partitions of `topics`. */
async function writeTxnMarkers(): Promise<WriteTxnMarkers> {
  if (writeTxnMarkersApi !== undefined) return writeTxnMarkersApi;
  const { Writer, createAPI } = await kafkaModule();
  const api = createAPI<[bigint, number, boolean, Map<string, number[]>, number], MarkerResult[]>(
    27,
    1,
    (producerId: bigint, epoch: number, commit: boolean, topics: Map<string, number[]>, coordinatorEpoch: number) =>
      Writer.create()
        .appendArray([0], (w) =>
          w
            .appendInt64(producerId)
            .appendInt16(epoch)
            .appendBoolean(commit)
            .appendArray([...topics], (w, [name, partitions]) => w.appendString(name).appendArray(partitions, (w, p) => w.appendInt32(p), true, false))
            .appendInt32(coordinatorEpoch),
        )
        .appendTaggedFields(),
    (_correlationId, _apiKey, _apiVersion, r) =>
      r.readArray((r) => ({
        producerId: r.readInt64(),
        topics: r.readArray((r) => ({ name: r.readString()!, partitions: r.readArray((r) => ({ partitionIndex: r.readInt32(), errorCode: r.readInt16() })) })),
      })),
  );
  writeTxnMarkersApi = (c, ...args) => api.async(c, ...args);
  return writeTxnMarkersApi;
}

/** The leader (host, port) of each written partition. */
async function leaders(s: KafkaConnectionSettings, written: WrittenPartitions): Promise<Map<string, { host: string; port: number; partitions: Map<string, number[]> }>> {
  const { metadataV12 } = await kafkaModule();
  const meta = await onBootstrap(s, (c) => metadataV12.api.async(c, Object.keys(written), false, false));
  const brokers = new Map(meta.brokers.map((b) => [b.nodeId, b]));
  const out = new Map<string, { host: string; port: number; partitions: Map<string, number[]> }>();
  for (const t of meta.topics) {
    for (const p of t.partitions) {
      if (!written[t.name!]?.includes(p.partitionIndex)) continue;
      const b = brokers.get(p.leaderId);
      if (b === undefined) throw new NoLeaderYet(t.name!, p.partitionIndex);
      const key = `${b.host}:${b.port}`;
      const entry = out.get(key) ?? { host: b.host, port: b.port, partitions: new Map<string, number[]>() };
      entry.partitions.set(t.name!, [...(entry.partitions.get(t.name!) ?? []), p.partitionIndex]);
      out.set(key, entry);
    }
  }
  return out;
}

/** The written partitions where producer `txn` still holds a transaction open, by leader. */
async function stillOpen(s: KafkaConnectionSettings, txn: StoredTransaction, written: WrittenPartitions): Promise<{ host: string; port: number; open: OpenPartition[] }[]> {
  const { describeProducersV0 } = await kafkaModule();
  const out: { host: string; port: number; open: OpenPartition[] }[] = [];
  for (const leader of (await leaders(s, written)).values()) {
    const topics = [...leader.partitions].map(([name, partitionIndexes]) => ({ name, partitionIndexes }));
    const r = await withConnection(s, leader.host, leader.port, (c) => describeProducersV0.api.async(c, topics));
    const open: OpenPartition[] = [];
    for (const t of r.topics)
      for (const p of t.partitions) {
        const mine = p.activeProducers.find((a) => a.producerId === txn.producerId && a.producerEpoch === txn.epoch && a.currentTxnStartOffset >= 0n);
        if (mine !== undefined) open.push({ topic: t.name, partition: p.partitionIndex, coordinatorEpoch: mine.coordinatorEpoch });
      }
    if (open.length > 0) out.push({ host: leader.host, port: leader.port, open });
  }
  return out;
}

/** True while the coordinator is still sending the markers of `txn` (state PrepareCommit / PrepareAbort). */
async function markersPending(s: KafkaConnectionSettings, txn: StoredTransaction): Promise<boolean> {
  const { describeTransactionsV0 } = await kafkaModule();
  const r = await onCoordinator(s, txn.transactionalId, (c) => describeTransactionsV0.api.async(c, [txn.transactionalId]));
  const state = r.transactionStates[0];
  return state !== undefined && state.producerId === txn.producerId && state.producerEpoch === txn.epoch && state.transactionState.startsWith("Prepare");
}

/**
 * After `txn` was ended (`commit`: its EndTxn(commit) succeeded; else its EndTxn(abort)): waits until no
 * written partition holds it open, writing the markers the coordinator skipped. Returns the partitions
 * repaired (`topic-partition`). Retries while brokers or leaders are unavailable, until `delivery.timeout.ms`.
 *
 * @example
 * ```ts
 * const repaired = await ensureTransactionClosed(settings, { transactionalId: "out-0-7", producerId: 12n, epoch: 0 }, { orders: [0, 1] }, true);
 * ```
 */
export async function ensureTransactionClosed(s: KafkaConnectionSettings, txn: StoredTransaction, written: WrittenPartitions, commit: boolean): Promise<string[]> {
  if (Object.keys(written).length === 0) return [];
  const deadline = Date.now() + s.deliveryTimeoutMs;
  // The coordinator writes the markers just after EndTxn answers: look again soon, then every retry.backoff.ms.
  for (let wait = 5; ; wait = Math.min(wait * 2, s.retryBackoffMs)) {
    try {
      if ((await stillOpen(s, txn, written)).length === 0) return [];
      if (!(await markersPending(s, txn))) return await writeMissing(s, txn, written, commit);
    } catch (e) {
      if (!(e instanceof NoLeaderYet) && !retriable(e)) throw e;
      if (Date.now() + wait > deadline) throw e;
    }
    if (Date.now() + wait > deadline)
      throw new Error(`Kafka transaction '${txn.transactionalId}': its markers were still being written after delivery.timeout.ms = ${s.deliveryTimeoutMs} ms`);
    await new Promise((r) => setTimeout(r, wait));
  }
}

/** The coordinator is done: the partitions still open missed their marker; write it. */
async function writeMissing(s: KafkaConnectionSettings, txn: StoredTransaction, written: WrittenPartitions, commit: boolean): Promise<string[]> {
  const write = await writeTxnMarkers();
  const { protocolErrorsCodesById } = await kafkaModule();
  const repaired: string[] = [];
  for (const leader of await stillOpen(s, txn, written)) {
    const topics = new Map<string, number[]>();
    for (const p of leader.open) topics.set(p.topic, [...(topics.get(p.topic) ?? []), p.partition]);
    const coordinatorEpoch = Math.max(...leader.open.map((p) => p.coordinatorEpoch));
    const result = await withConnection(s, leader.host, leader.port, (c) => write(c, txn.producerId, txn.epoch, commit, topics, coordinatorEpoch));
    for (const m of result)
      for (const t of m.topics)
        for (const p of t.partitions) {
          if (p.errorCode !== 0) throw new Error(`writing the ${commit ? "COMMIT" : "ABORT"} marker of Kafka transaction '${txn.transactionalId}' to ${t.name}-${p.partitionIndex} failed: ${protocolErrorsCodesById[p.errorCode] ?? `error code ${p.errorCode}`}`);
          repaired.push(`${t.name}-${p.partitionIndex}`);
        }
  }
  return repaired;
}
