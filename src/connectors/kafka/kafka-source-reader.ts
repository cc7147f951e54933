/**
 * Reads the partitions of one parallel instance of a Kafka source. Broker work runs in the background
 * (discovery, one fetch round at a time: one request per leader carrying all its partitions); `pollNext`
 * only emits what fetches buffered, synchronously, one record after another, so there is no promise per
 * record and a checkpoint never waits for a long poll. Each partition emits through its own split output
 * (per-partition watermarks); its offset is the next record to emit, which is what checkpoints hold.
 */
import type { PollStatus, ReaderOutput, SourceReader } from "../../core/source.ts";
import type { Clock } from "../../util/clock.ts";
import { getLogger } from "../../util/logger.ts";
import { PartitionFetchState, type FetchedBatch } from "./kafka-partition-fetch-state.ts";
import { copyKafkaSplit, planKafkaDiscovery, type KafkaDiscoverySplit, type KafkaPartitionSplit, type KafkaSourceSplit } from "./kafka-partition-split.ts";
import type { KafkaRecordDeserializationSchema } from "./kafka-record-deserialization-schema.ts";
import { KafkaSourceClient, type FetchResponse, type KafkaSourceClientConfig, type PartitionLeader } from "./kafka-source-client.ts";
import { KafkaConnectionError, KafkaDeserializationError, KafkaSourceError, KafkaSourceOffsetError, KafkaTopicNotFoundError } from "./kafka-source-errors.ts";
import type { KafkaSourceSettings } from "./kafka-source-options.ts";
import { OffsetsInitializer, partitionKey, type OffsetResetStrategy, type TopicPartition } from "./offsets-initializer.ts";
import { EARLIEST_TIMESTAMP, LATEST_TIMESTAMP, resolveOffsets } from "./offsets-resolution.ts";

/** What a reader needs besides its splits. */
export interface KafkaSourceReaderConfig<T> {
  readonly topics: readonly string[] | RegExp;
  readonly starting: OffsetsInitializer;
  readonly stopping: OffsetsInitializer | undefined;
  /** A bounded source discovers once and ends when every partition reached its stop offset. */
  readonly bounded: boolean;
  readonly deserializer: KafkaRecordDeserializationSchema<T>;
  readonly client: KafkaSourceClientConfig;
  readonly settings: KafkaSourceSettings;
  readonly clock: Clock;
}

/** Partition-level fetch errors after which the leaders are looked up again. */
const RETRIABLE_CODES = new Set([3, 5, 6, 9, 56, 74, 75, 78, 100]);
const OFFSET_OUT_OF_RANGE = 1;

/**
 * The reader of a Kafka source.
 *
 * @example
 * ```ts
 * const reader = source.createReader(context);
 * reader.addSplits(source.createSplits(1));
 * while ((await reader.pollNext(output, 100)) !== "end-of-input") await reader.isAvailable();
 * ```
 */
export class KafkaSourceReader<T> implements SourceReader<T, KafkaSourceSplit> {
  private readonly partitions = new Map<string, PartitionFetchState>();
  private buckets: KafkaDiscoverySplit[] = [];
  private client: KafkaSourceClient | undefined;
  private connecting: Promise<KafkaSourceClient> | undefined;
  /** A background operation (discovery or a fetch round) in flight. */
  private busy = false;
  private failure: Error | undefined;
  private closed = false;
  private nextDiscoveryAt = Number.NEGATIVE_INFINITY;
  private discoveredOnce = false;
  private leadersStale = true;
  /** Broker trouble: no request before this time; `outageSince` for the log and the start deadline. */
  private retryAt = Number.NEGATIVE_INFINITY;
  private backoffMs = 0;
  private outageSince: number | undefined;
  private readonly startedAt: number;
  private everConnected = false;
  private wake: { promise: Promise<void>; resolve: () => void } | undefined;
  private readonly pendingCommits = new Map<number, (TopicPartition & { offset: number })[]>();
  /** Final offsets of partitions finished since the last checkpoint (committed with it, as Flink). */
  private finishedOffsets: (TopicPartition & { offset: number })[] = [];
  private readonly resetStrategy: OffsetResetStrategy;
  /** Round-robin start of the next emit, so one busy partition does not starve the others. */
  private turn = 0;

  constructor(private readonly config: KafkaSourceReaderConfig<T>) {
    this.startedAt = config.clock.now();
    this.resetStrategy = config.settings.autoOffsetReset ?? config.starting.autoOffsetResetStrategy();
  }

  addSplits(splits: KafkaSourceSplit[]): void {
    for (const s of splits) {
      const copy = copyKafkaSplit(s);
      if (copy.kind === "discovery") this.buckets.push(copy);
      else this.addPartition(copy);
    }
  }

  pollNext(output: ReaderOutput<T>, maxRecords: number): PollStatus {
    if (this.failure) throw this.failure;
    this.startBackgroundWork();
    let emitted = 0;
    const states = [...this.partitions.values()];
    for (let i = 0; i < states.length && emitted < maxRecords; i++) {
      const p = states[(this.turn + i) % states.length]!;
      if (!p.registered) {
        output.createOutputForSplit(p.key, { activeFromStart: true });
        p.registered = true;
      }
      emitted += this.emit(p, output, maxRecords - emitted);
      if (p.finished) {
        this.finishedOffsets.push({ topic: p.split.topic, partition: p.split.partition, offset: p.split.offset });
        output.releaseOutputForSplit(p.key);
        this.partitions.delete(p.key);
      }
    }
    this.turn++;
    // register new partitions before their first record, so they hold event time from the start
    for (const p of this.partitions.values()) {
      if (!p.registered) {
        output.createOutputForSplit(p.key, { activeFromStart: true });
        p.registered = true;
      }
    }
    if (emitted > 0) return "more-available";
    if (this.partitions.size === 0) {
      // a bounded reader discovers once (then holds no bucket); a reader without partitions does not hold back event time
      if (this.buckets.length === 0 && this.config.bounded) return "end-of-input";
      if (this.discoveredOnce || this.buckets.length === 0) output.markIdle?.();
    }
    this.startBackgroundWork();
    return "nothing-available";
  }

  isAvailable(): Promise<void> {
    if (this.failure || this.hasBuffered()) return Promise.resolve();
    this.wake ??= (() => {
      let resolve!: () => void;
      const promise = new Promise<void>((r) => (resolve = r));
      return { promise, resolve };
    })();
    const { clock } = this.config;
    if (!this.busy) {
      // nothing in flight: wake at the next discovery or retry, or after a while to look again
      const interval = this.config.settings.discoveryIntervalMs;
      const due = Math.min(this.retryAt, this.buckets.length > 0 && interval !== undefined ? this.nextDiscoveryAt : Number.POSITIVE_INFINITY);
      const delay = Number.isFinite(due) ? Math.max(0, due - clock.now()) : 1000;
      const wake = this.wake;
      clock.setTimeout(() => this.signal(wake), Math.min(delay, 1000));
    }
    return this.wake.promise;
  }

  snapshotState(checkpointId: number): KafkaSourceSplit[] {
    const splits = [...this.partitions.values()].map((p) => copyKafkaSplit(p.split) as KafkaPartitionSplit);
    if (checkpointId >= 0 && this.config.client.groupId !== undefined && this.config.settings.commitOffsetsOnCheckpoint) {
      this.pendingCommits.set(checkpointId, [...this.finishedOffsets, ...splits.map((s) => ({ topic: s.topic, partition: s.partition, offset: s.offset }))]);
      this.finishedOffsets = [];
    }
    return [...splits, ...this.buckets.map(copyKafkaSplit)];
  }

  /** Commits the offsets of checkpoint `checkpointId` to the group (monitoring only: a failure is logged). */
  notifyCheckpointComplete(checkpointId: number): void {
    const offsets = this.pendingCommits.get(checkpointId);
    for (const id of [...this.pendingCommits.keys()]) if (id <= checkpointId) this.pendingCommits.delete(id);
    const client = this.client;
    if (offsets === undefined || offsets.length === 0 || client === undefined) return;
    client.commitOffsets(offsets).catch((e: unknown) => {
      if (!this.closed) getLogger().warn(`KafkaSource: committing the offsets of checkpoint ${checkpointId} to group '${this.config.client.groupId}' failed (monitoring only, reading goes on): ${(e as Error).message}`);
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.wake) this.signal(this.wake);
    const client = this.client ?? (await this.connecting?.catch(() => undefined));
    await client?.close().catch(() => {});
  }

  private addPartition(split: KafkaPartitionSplit): void {
    const state = new PartitionFetchState(split, this.config.settings.isolationLevel === 1);
    this.partitions.set(state.key, state);
    this.leadersStale = true;
  }

  private hasBuffered(): boolean {
    for (const p of this.partitions.values()) if (p.hasBuffered() || p.finished) return true;
    return false;
  }

  private signal(wake: { resolve: () => void }): void {
    if (this.wake === wake) this.wake = undefined;
    wake.resolve();
  }

  /** Emits up to `max` buffered records of `p`; returns how many. */
  private emit(p: PartitionFetchState, output: ReaderOutput<T>, max: number): number {
    const out = output.createOutputForSplit(p.key, { activeFromStart: true });
    const { deserializer } = this.config;
    const split = p.split;
    let n = 0;
    let batch: FetchedBatch | undefined;
    while (n < max && (batch = p.peek()) !== undefined) {
      const records = batch.batch.records;
      const base = batch.batch.firstOffset;
      while (n < max && batch.next < records.length) {
        const r = records[batch.next]!;
        const offset = Number(base + BigInt(r.offsetDelta));
        if (split.stopOffset !== undefined && offset >= split.stopOffset) {
          p.finish();
          return n;
        }
        batch.next++;
        if (!batch.accepted || offset < split.offset) continue;
        const record = p.consumerRecord(batch, r, offset);
        p.timestamp = record.timestamp;
        p.output = out;
        try {
          deserializer.deserialize(record, p.collector);
        } catch (e) {
          if (e === p.downstreamError) throw e;
          throw new KafkaDeserializationError(split.topic, split.partition, offset, (e as Error).message ?? String(e), { cause: e });
        }
        split.offset = offset + 1;
        n++;
      }
      if (batch.next >= records.length) {
        p.shift();
        if (batch.end > split.offset) split.offset = batch.end;
      }
    }
    if (split.stopOffset !== undefined && split.offset >= split.stopOffset) p.finish();
    return n;
  }

  /** Starts discovery or a fetch round in the background, when one is due and none is in flight. */
  private startBackgroundWork(): void {
    if (this.busy || this.closed || this.failure || this.config.clock.now() < this.retryAt) return;
    let work: (() => Promise<void>) | undefined;
    if (this.discoveryDue()) work = () => this.discover();
    else if (this.leadersStale && this.partitions.size > 0) work = () => this.refreshLeaders();
    else if ([...this.partitions.values()].some((p) => p.needsFetch())) work = () => this.fetchRound();
    if (work === undefined) return;
    this.busy = true;
    const run = work;
    void (async () => {
      try {
        await run();
        this.recovered();
      } catch (e) {
        this.onError(e);
      } finally {
        this.busy = false;
        if (this.wake) this.signal(this.wake);
      }
    })();
  }

  private discoveryDue(): boolean {
    if (this.buckets.length === 0) return false;
    if (this.buckets.some((b) => !b.discovered) || !this.discoveredOnce) return true;
    const interval = this.config.settings.discoveryIntervalMs;
    return interval !== undefined && this.config.clock.now() >= this.nextDiscoveryAt;
  }

  private async connected(): Promise<KafkaSourceClient> {
    if (this.client) return this.client;
    this.connecting ??= KafkaSourceClient.connect(this.config.client);
    try {
      this.client = await this.connecting;
    } finally {
      this.connecting = undefined;
    }
    if (this.closed) await this.client.close();
    return this.client;
  }

  private async discover(): Promise<void> {
    const client = await this.connected();
    const { topics, bounded, starting, stopping, settings, clock } = this.config;
    const { partitions, missing } = await client.partitions(topics);
    const firstTime = this.buckets.some((b) => !b.discovered);
    if (missing.length > 0 && !(topics instanceof RegExp)) {
      if (firstTime) throw new KafkaTopicNotFoundError(missing[0]!, this.config.client.bootstrap.join(","));
      getLogger().warn(`KafkaSource: topic(s) ${missing.join(", ")} no longer exist on ${this.config.client.bootstrap.join(",")}`);
    }
    const plan = planKafkaDiscovery(partitions, this.buckets);
    const first = await resolveOffsets(starting, plan.initial, client);
    const later = await resolveOffsets(OffsetsInitializer.earliest(), plan.later, client);
    const found = [...plan.initial, ...plan.later];
    const stops = stopping === undefined ? undefined : await resolveOffsets(stopping, found, client);
    for (const tp of found) {
      const key = partitionKey(tp);
      const offset = first.get(key) ?? later.get(key);
      if (offset === undefined || offset < 0) throw new KafkaSourceOffsetError(`no starting offset for ${key}`);
      const stop = stops?.get(key);
      this.addPartition({ kind: "partition", topic: tp.topic, partition: tp.partition, offset, ...(stop === undefined ? {} : { stopOffset: stop }) });
    }
    if (plan.later.length > 0) getLogger().info(`KafkaSource: found new partition(s) ${plan.later.map(partitionKey).join(", ")}: reading them from the earliest offset`);
    this.applyLeaders(partitions);
    this.buckets = bounded ? [] : plan.buckets;
    this.discoveredOnce = true;
    this.nextDiscoveryAt = settings.discoveryIntervalMs === undefined ? Number.POSITIVE_INFINITY : clock.now() + settings.discoveryIntervalMs;
  }

  private async refreshLeaders(): Promise<void> {
    const client = await this.connected();
    const topics = [...new Set([...this.partitions.values()].map((p) => p.split.topic))];
    const { partitions, missing } = await client.partitions(topics);
    if (missing.length > 0) throw new Error(`topic(s) ${missing.join(", ")} of restored partitions do not exist (any more)`);
    this.applyLeaders(partitions);
  }

  private applyLeaders(leaders: readonly PartitionLeader[]): void {
    const byKey = new Map(leaders.map((l) => [partitionKey(l), l]));
    let stale = false;
    for (const p of this.partitions.values()) {
      p.leader = byKey.get(p.key) ?? p.leader;
      if (p.leader === undefined || p.leader.leader < 0) stale = true;
    }
    this.leadersStale = stale;
  }

  private async fetchRound(): Promise<void> {
    const client = await this.connected();
    const s = this.config.settings;
    const byLeader = new Map<number, PartitionFetchState[]>();
    for (const p of this.partitions.values()) {
      if (!p.needsFetch() || p.leader === undefined) continue;
      const list = byLeader.get(p.leader.leader) ?? [];
      byLeader.set(p.leader.leader, list);
      list.push(p);
    }
    await Promise.all(
      [...byLeader].map(async ([leader, states]) => {
        const request = states.map((p) => ({ topicId: p.leader!.topicId, partition: p.split.partition, offset: p.fetchOffset, leaderEpoch: p.leader!.leaderEpoch }));
        const response = await client.fetch(leader, request, { maxWaitMs: s.fetchMaxWaitMs, minBytes: s.fetchMinBytes, maxBytes: s.fetchMaxBytes, partitionMaxBytes: s.partitionMaxBytes });
        await this.onFetched(client, states, response);
      }),
    );
  }

  private async onFetched(client: KafkaSourceClient, states: readonly PartitionFetchState[], response: FetchResponse): Promise<void> {
    const byId = new Map(states.map((p) => [`${p.leader!.topicId}/${p.split.partition}`, p]));
    for (const topic of response.responses) {
      for (const part of topic.partitions) {
        const p = byId.get(`${topic.topicId}/${part.partitionIndex}`);
        if (p === undefined || this.partitions.get(p.key) !== p) continue;
        if (part.errorCode === 0) p.append(part.records ?? [], part.abortedTransactions);
        else if (part.errorCode === OFFSET_OUT_OF_RANGE) await this.resetOutOfRange(client, p);
        else if (RETRIABLE_CODES.has(part.errorCode)) {
          this.leadersStale = true;
          client.forgetBrokers();
        } else throw new KafkaSourceError(`fetching ${p.key} at offset ${p.fetchOffset} failed with Kafka error code ${part.errorCode}`);
      }
    }
  }

  /** An offset the partition no longer (or not yet) has: reset by `auto.offset.reset`, or fail with `none`. */
  private async resetOutOfRange(client: KafkaSourceClient, p: PartitionFetchState): Promise<void> {
    const earliest = (await client.listOffsets([p.split], EARLIEST_TIMESTAMP)).get(p.key);
    const latest = (await client.listOffsets([p.split], LATEST_TIMESTAMP)).get(p.key);
    const problem = `offset ${p.fetchOffset} of ${p.key} is out of range (${p.key} holds offsets ${earliest} to ${latest})`;
    if (this.resetStrategy === "none") throw new KafkaSourceOffsetError(`${problem} and auto.offset.reset is 'none'`);
    const offset = this.resetStrategy === "earliest" ? earliest : latest;
    if (offset === undefined) throw new KafkaSourceOffsetError(`${problem}: no ${this.resetStrategy} offset to reset to`);
    getLogger().warn(`KafkaSource: ${problem}: resetting to the ${this.resetStrategy} offset ${offset} (auto.offset.reset)`);
    p.seek(offset);
  }

  /** Broker trouble: retried with backoff, except before any broker answered for `default.api.timeout.ms`, or for the user's errors. */
  private onError(e: unknown): void {
    if (this.closed) return;
    const { clock, settings, client } = this.config;
    if (e instanceof KafkaSourceError) {
      this.failure = e;
      return;
    }
    const message = (e as Error).message ?? String(e);
    const detail = (e as { errors?: Error[] }).errors?.map((x) => x.message).join("; ");
    const now = clock.now();
    if (!this.everConnected && now - this.startedAt >= settings.apiTimeoutMs) {
      this.failure = new KafkaConnectionError(client.bootstrap.join(","), `no answer within ${settings.apiTimeoutMs} ms (default.api.timeout.ms): ${message}${detail ? ` (${detail})` : ""}`, { cause: e });
      return;
    }
    if (this.outageSince === undefined) {
      this.outageSince = now;
      getLogger().warn(`KafkaSource: request to ${client.bootstrap.join(",")} failed, retrying: ${message}${detail ? ` (${detail})` : ""}`);
    }
    this.client?.forgetBrokers();
    this.leadersStale = this.partitions.size > 0;
    this.backoffMs = Math.min(settings.reconnectBackoffMaxMs, this.backoffMs === 0 ? settings.retryBackoffMs : this.backoffMs * 2);
    this.retryAt = now + this.backoffMs;
  }

  private recovered(): void {
    this.everConnected = true;
    this.backoffMs = 0;
    this.retryAt = Number.NEGATIVE_INFINITY;
    if (this.outageSince !== undefined) {
      getLogger().info(`KafkaSource: brokers answer again after ${this.config.clock.now() - this.outageSince} ms`);
      this.outageSince = undefined;
    }
  }
}
