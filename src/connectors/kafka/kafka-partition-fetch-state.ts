/**
 * What a Kafka source reader knows of one partition it reads: the split (offset of the next record to
 * emit, checkpointed), the offset of the next fetch, the fetched batches not emitted yet with the
 * read_committed verdict of each, and the partition's leader.
 */
import type { Collector } from "../../core/collector.ts";
import type { ReaderOutput } from "../../core/source.ts";
import { AbortedTransactionsFilter, type AbortedTransaction } from "./aborted-transactions-filter.ts";
import type { KafkaPartitionSplit } from "./kafka-partition-split.ts";
import type { KafkaConsumerRecord } from "./kafka-record-deserialization-schema.ts";
import type { PartitionLeader } from "./kafka-source-client.ts";
import { partitionKey } from "./offsets-initializer.ts";

/** The part of the client's record the reader reads. */
export interface FetchedRecord {
  readonly offsetDelta: number;
  readonly timestampDelta: bigint;
  readonly key: Uint8Array | null;
  readonly value: Uint8Array | null;
  readonly headers: readonly (readonly [Uint8Array | null, Uint8Array | null])[];
}

/** The part of the client's record batch the reader reads. */
export interface FetchedRecordBatch {
  readonly firstOffset: bigint;
  readonly lastOffsetDelta: number;
  readonly attributes: number;
  readonly producerId: bigint;
  readonly firstTimestamp: bigint;
  readonly maxTimestamp: bigint;
  readonly records: readonly FetchedRecord[];
}

/** A fetched batch waiting to be emitted. */
export interface FetchedBatch {
  readonly batch: FetchedRecordBatch;
  /** False for control batches and batches of aborted transactions (read_committed). */
  readonly accepted: boolean;
  /** Offset after the batch. */
  readonly end: number;
  /** Index of the next record to look at. */
  next: number;
}

const IS_CONTROL = 0x20;
const LOG_APPEND_TIME = 0x08;
const utf8 = new TextDecoder();

/**
 * One partition of a reader.
 *
 * @example
 * ```ts
 * const p = new PartitionFetchState({ kind: "partition", topic: "t", partition: 0, offset: 0 }, true);
 * p.append(response.records ?? [], response.abortedTransactions);
 * ```
 */
export class PartitionFetchState {
  readonly key: string;
  /** Offset of the next fetch (past every batch fetched). */
  fetchOffset: number;
  leader: PartitionLeader | undefined;
  /** Whether its split output is created. */
  registered = false;
  /** Bounded and at its stop offset. */
  finished = false;
  /** The record being deserialized: its timestamp and output, read by `collector`. */
  timestamp = 0;
  output: ReaderOutput<unknown> | undefined;
  /** An error thrown downstream of the deserializer's `collect` (not the deserializer's own). */
  downstreamError: unknown;
  /** Where the deserializer emits: the partition's output, with the record's timestamp. */
  readonly collector: Collector<unknown> = {
    collect: (v) => {
      try {
        this.output!.collect(v, this.timestamp);
      } catch (e) {
        this.downstreamError = e;
        throw e;
      }
    },
  };
  private queue: FetchedBatch[] = [];
  private filter: AbortedTransactionsFilter | undefined;

  constructor(
    readonly split: KafkaPartitionSplit,
    private readonly readCommitted: boolean,
  ) {
    this.key = partitionKey(split);
    this.fetchOffset = split.offset;
    this.filter = readCommitted ? new AbortedTransactionsFilter() : undefined;
  }

  needsFetch(): boolean {
    return !this.finished && this.queue.length === 0;
  }

  hasBuffered(): boolean {
    return this.queue.length > 0;
  }

  peek(): FetchedBatch | undefined {
    return this.queue[0];
  }

  shift(): void {
    this.queue.shift();
  }

  finish(): void {
    this.finished = true;
    this.queue = [];
  }

  /** The batches of one fetch response, in offset order; batches fetched before are ignored. */
  append(batches: readonly FetchedRecordBatch[], aborted: readonly AbortedTransaction[]): void {
    this.filter?.startResponse(aborted);
    for (const batch of batches) {
      const end = Number(batch.firstOffset) + batch.lastOffsetDelta + 1;
      if (end <= this.fetchOffset) continue;
      const accepted = this.filter ? this.filter.accept(batch) : (batch.attributes & IS_CONTROL) === 0;
      this.queue.push({ batch, accepted, end, next: 0 });
      this.fetchOffset = end;
    }
  }

  /** Reads from `offset` on (after an out-of-range reset). */
  seek(offset: number): void {
    this.split.offset = offset;
    this.fetchOffset = offset;
    this.queue = [];
    this.filter = this.readCommitted ? new AbortedTransactionsFilter() : undefined;
  }

  /** The record a deserializer sees. */
  consumerRecord(b: FetchedBatch, r: FetchedRecord, offset: number): KafkaConsumerRecord {
    const logAppend = (b.batch.attributes & LOG_APPEND_TIME) !== 0;
    return {
      topic: this.split.topic,
      partition: this.split.partition,
      offset,
      timestamp: Number(logAppend ? b.batch.maxTimestamp : b.batch.firstTimestamp + r.timestampDelta),
      timestampType: logAppend ? "LogAppendTime" : "CreateTime",
      key: r.key,
      value: r.value,
      headers: r.headers.map(([k, v]) => [k === null ? "" : utf8.decode(k), v] as const),
    };
  }
}
