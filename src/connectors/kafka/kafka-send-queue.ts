/**
 * The records of one Kafka producer on their way to the brokers: taken synchronously (`add`), sent in
 * batches of at most `max.request.size` bytes with one request in flight (the idempotent and transactional
 * producer allow no more; batches grow while one is in flight, so there is one promise per batch, never
 * per record), bounded by `buffer.memory` bytes (backpressure through `blocked()`), and awaited as a
 * whole (`drained()`) at a checkpoint barrier.
 */
import type { MessageToProduce } from "@platformatic/kafka";
import { KafkaConfigError } from "./kafka-config.ts";
import { KafkaSendError, KafkaUnknownTopicError } from "./kafka-sink-errors.ts";

/** A record ready to send (key and value as the client takes them). */
export interface QueuedRecord {
  readonly message: MessageToProduce;
  readonly bytes: number;
  /** The partition chooser of a record whose partition depends on its topic's partition count. */
  readonly partitionOf?: (partitionCount: number) => number;
}

/** Where batches go: a producer, or a producer's transaction. */
export interface BatchSender {
  send(messages: MessageToProduce[]): Promise<void>;
  /** The partition count of `topic` (only asked for records with `partitionOf`). */
  partitionCount(topic: string): Promise<number>;
  /** Whether the brokers know `topic` (asked once per topic, before the first send to it). */
  topicExists(topic: string): Promise<boolean>;
}

/** Sends queued records in batches; one per producer. */
export class KafkaSendQueue {
  private queue: QueuedRecord[] = [];
  private head = 0;
  private bytes = 0;
  private sending = false;
  private failure: Error | undefined;
  private sender: Promise<BatchSender> | undefined;
  private drainWaiters: { resolve: () => void; reject: (e: Error) => void }[] = [];
  private stopped = false;
  private idleWaiters: (() => void)[] = [];
  private space: { promise: Promise<void>; resolve: () => void } | undefined;
  /** Topics known to exist (asked once each, before the first send to them). */
  private readonly knownTopics = new Set<string>();
  /** Records handed to `add` so far. */
  added = 0;

  constructor(
    private readonly what: string,
    private readonly openSender: () => Promise<BatchSender>,
    private readonly maxRequestBytes: number,
    private readonly bufferBytes: number,
  ) {}

  /** Queues one record (throws the error of a failed earlier send). */
  add(record: QueuedRecord): void {
    if (this.failure !== undefined) throw this.failure;
    this.queue.push(record);
    this.bytes += record.bytes;
    this.added++;
    if (!this.sending) this.pump();
  }

  /** Undefined while fewer than `buffer.memory` bytes wait; else resolves when half of them are sent (or a send failed). */
  blocked(): Promise<void> | undefined {
    if (this.bytes <= this.bufferBytes || this.failure !== undefined) return undefined;
    if (this.space === undefined) {
      let resolve!: () => void;
      const promise = new Promise<void>((r) => (resolve = r));
      this.space = { promise, resolve };
    }
    return this.space.promise;
  }

  /** Resolves when every record added so far is acknowledged; rejects with the error of a failed send. */
  drained(): Promise<void> {
    if (this.failure !== undefined) return Promise.reject(this.failure);
    if (!this.sending && this.head === this.queue.length) return Promise.resolve();
    return new Promise((resolve, reject) => this.drainWaiters.push({ resolve, reject }));
  }

  /**
   * Sends no further batch and resolves once none is in flight (its outcome ignored): a transaction may
   * only be ended when no send of it can still land.
   */
  stop(): Promise<void> {
    this.stopped = true;
    if (!this.sending) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** The sender, opened on the first batch (or now). */
  open(): Promise<BatchSender> {
    this.sender ??= this.openSender();
    return this.sender;
  }

  /** True once the sender was asked for (a producer exists). */
  get opened(): boolean {
    return this.sender !== undefined;
  }

  private pump(): void {
    if (this.sending || this.stopped || this.failure !== undefined || this.head === this.queue.length) return;
    const batch: QueuedRecord[] = [];
    let size = 0;
    while (this.head < this.queue.length) {
      const r = this.queue[this.head]!;
      if (batch.length > 0 && size + r.bytes > this.maxRequestBytes) break;
      batch.push(r);
      size += r.bytes;
      this.head++;
    }
    if (this.head === this.queue.length) {
      this.queue = [];
      this.head = 0;
    }
    this.sending = true;
    this.sendBatch(batch).then(
      () => {
        this.sending = false;
        for (const w of this.idleWaiters.splice(0)) w();
        this.bytes -= size;
        if (this.space !== undefined && this.bytes <= this.bufferBytes / 2) {
          this.space.resolve();
          this.space = undefined;
        }
        if (this.head === this.queue.length) for (const w of this.drainWaiters.splice(0)) w.resolve();
        else this.pump();
      },
      (e: unknown) => {
        this.sending = false;
        for (const w of this.idleWaiters.splice(0)) w();
        this.failure = e instanceof KafkaConfigError || e instanceof KafkaUnknownTopicError ? e : new KafkaSendError(this.what, [...new Set(batch.map((r) => r.message.topic))], e);
        this.space?.resolve();
        this.space = undefined;
        for (const w of this.drainWaiters.splice(0)) w.reject(this.failure);
      },
    );
  }

  private async sendBatch(batch: QueuedRecord[]): Promise<void> {
    const sender = await this.open();
    for (const r of batch) if (!this.knownTopics.has(r.message.topic)) await this.checkTopic(sender, r.message.topic);
    const messages: MessageToProduce[] = [];
    /** Partition counts asked once per topic and batch (not per record). */
    const counts = new Map<string, number>();
    for (const r of batch) {
      if (r.partitionOf === undefined) messages.push(r.message);
      else {
        const topic = r.message.topic;
        let count = counts.get(topic);
        if (count === undefined) counts.set(topic, (count = await sender.partitionCount(topic)));
        messages.push({ ...r.message, partition: r.partitionOf(count) });
      }
    }
    await sender.send(messages);
  }

  /** Fails at once for a topic the brokers do not know, instead of retrying the send until `delivery.timeout.ms`. */
  private async checkTopic(sender: BatchSender, topic: string): Promise<void> {
    if (!(await sender.topicExists(topic))) throw new KafkaUnknownTopicError(this.what, topic);
    this.knownTopics.add(topic);
  }
}
