/**
 * The broker requests of a Kafka source reader, at the protocol level of @platformatic/kafka (its public API
 * objects `metadataV12`, `listOffsetsV9`, `fetchV17`, … over its `ConnectionPool`): no consumer-group
 * membership, as Flink assigns partitions itself. Each request goes to the broker that must answer it (the
 * partition's leader, the group's coordinator), in the highest version both sides speak.
 *
 * Failures surface as the client's errors; the reader decides whether to retry (a broker restart) or fail.
 */
import type * as Kafka from "@platformatic/kafka";
import type { Broker, ConnectionPool, Connection } from "@platformatic/kafka";
import { kafkaModule, type KafkaModule } from "./kafka-client.ts";
import { partitionKey, type TopicPartition } from "./offsets-initializer.ts";
import type { OffsetsLookup } from "./offsets-resolution.ts";

type ApiVersionsResponseApi = Kafka.apiVersionsV3.ApiVersionsResponseApi;
type MetadataResponse = Kafka.metadataV12.MetadataResponse;
/** A fetch response (the same shape in every version). */
export type FetchResponse = Kafka.fetchV17.FetchResponse;

/** A partition with what a fetch needs: its topic id and leader. */
export interface PartitionLeader extends TopicPartition {
  readonly topicId: string;
  readonly leader: number;
  readonly leaderEpoch: number;
}

/** One partition of a fetch request. */
export interface FetchPartition {
  readonly topicId: string;
  readonly partition: number;
  readonly offset: number;
  readonly leaderEpoch: number;
}

/** Settings of the connection. */
export interface KafkaSourceClientConfig {
  readonly bootstrap: readonly string[];
  readonly clientId: string;
  readonly groupId: string | undefined;
  /** 0 read_uncommitted, 1 read_committed. */
  readonly isolationLevel: 0 | 1;
  readonly connectTimeoutMs: number;
  readonly requestTimeoutMs: number;
}

/** The API objects of one request kind the client ships (same request arguments in every version). */
type Versions<A> = readonly { readonly api: A & { readonly key: number; readonly version: number } }[];

/** The highest version of `versions` the broker supports. */
function pick<A>(versions: Versions<A>, apis: readonly ApiVersionsResponseApi[], name: string): A {
  const key = versions[0]!.api.key;
  const range = apis.find((a) => a.apiKey === key);
  const usable = versions.filter((v) => range !== undefined && v.api.version >= range.minVersion && v.api.version <= range.maxVersion);
  const best = usable.sort((a, b) => b.api.version - a.api.version)[0];
  if (best === undefined) throw new Error(`the broker does not support a ${name} request version this client speaks (${versions.map((v) => v.api.version).join(", ")})`);
  return best.api;
}

function toBroker(address: string): Broker {
  const i = address.lastIndexOf(":");
  return { host: address.slice(0, i), port: Number(address.slice(i + 1)) };
}

/** The APIs chosen for a broker. */
function chooseApis(m: KafkaModule, apis: readonly ApiVersionsResponseApi[]) {
  return {
    metadata: pick([m.metadataV9, m.metadataV10, m.metadataV11, m.metadataV12], apis, "Metadata"),
    listOffsets: pick([m.listOffsetsV5, m.listOffsetsV6, m.listOffsetsV7, m.listOffsetsV8, m.listOffsetsV9], apis, "ListOffsets"),
    fetch: pick([m.fetchV12, m.fetchV13, m.fetchV14, m.fetchV15, m.fetchV16, m.fetchV17], apis, "Fetch"),
    findCoordinator: pick([m.findCoordinatorV4, m.findCoordinatorV5, m.findCoordinatorV6], apis, "FindCoordinator"),
    offsetFetch: pick([m.offsetFetchV8, m.offsetFetchV9], apis, "OffsetFetch"),
    offsetCommit: pick([m.offsetCommitV8, m.offsetCommitV9], apis, "OffsetCommit"),
  };
}

/**
 * A reader's connection to the cluster.
 *
 * @example
 * ```ts
 * const client = await KafkaSourceClient.connect(config);
 * const { partitions, missing } = await client.partitions(["orders"]);
 * ```
 */
export class KafkaSourceClient implements OffsetsLookup {
  private brokers = new Map<number, Broker>();
  private coordinator: number | undefined;

  private constructor(
    private readonly config: KafkaSourceClientConfig,
    private readonly pool: ConnectionPool,
    private readonly apis: ReturnType<typeof chooseApis>,
  ) {}

  get groupId(): string | undefined {
    return this.config.groupId;
  }

  /** Connects to the first bootstrap server that answers and learns which request versions it speaks. */
  static async connect(config: KafkaSourceClientConfig): Promise<KafkaSourceClient> {
    const m = await kafkaModule();
    const pool = new m.ConnectionPool(config.clientId, { connectTimeout: config.connectTimeoutMs, requestTimeout: config.requestTimeoutMs });
    try {
      const connection = await pool.getFirstAvailable(config.bootstrap.map(toBroker));
      const versions = await m.apiVersionsV3.api.async(connection, m.clientSoftwareName, m.clientSoftwareVersion as string);
      return new KafkaSourceClient(config, pool, chooseApis(m, versions.apiKeys));
    } catch (e) {
      await pool.close().catch(() => {});
      throw e;
    }
  }

  /**
   * The partitions of `topics` (a list, or every topic matching a pattern), with their leaders, and the listed
   * topics that do not exist.
   */
  async partitions(topics: readonly string[] | RegExp): Promise<{ partitions: PartitionLeader[]; missing: string[] }> {
    const response = await this.metadata(topics instanceof RegExp ? null : [...topics]);
    const partitions: PartitionLeader[] = [];
    const missing: string[] = [];
    for (const t of response.topics) {
      const name = t.name ?? "";
      if (topics instanceof RegExp && (t.isInternal || !topics.test(name))) continue;
      if (t.errorCode === 3 || t.errorCode === 100) {
        missing.push(name);
        continue;
      }
      // e.g. LEADER_NOT_AVAILABLE just after the topic was created: its partitions are not known yet, ask again
      if (t.errorCode !== 0) throw new Error(`the metadata of topic '${name}' is not available yet (Kafka error code ${t.errorCode})`);
      for (const p of t.partitions) partitions.push({ topic: name, partition: p.partitionIndex, topicId: t.topicId, leader: p.leaderId, leaderEpoch: p.leaderEpoch });
    }
    partitions.sort((a, b) => (a.topic < b.topic ? -1 : a.topic > b.topic ? 1 : a.partition - b.partition));
    return { partitions, missing };
  }

  async listOffsets(partitions: readonly TopicPartition[], timestamp: number): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    if (partitions.length === 0) return out;
    const { partitions: leaders } = await this.partitions([...new Set(partitions.map((p) => p.topic))]);
    const wanted = new Set(partitions.map(partitionKey));
    const byLeader = new Map<number, Map<string, { partitionIndex: number; currentLeaderEpoch: number; timestamp: bigint }[]>>();
    for (const p of leaders) {
      if (!wanted.has(partitionKey(p))) continue;
      const topics = byLeader.get(p.leader) ?? new Map();
      byLeader.set(p.leader, topics);
      const list = topics.get(p.topic) ?? [];
      topics.set(p.topic, list);
      list.push({ partitionIndex: p.partition, currentLeaderEpoch: p.leaderEpoch, timestamp: BigInt(timestamp) });
    }
    await Promise.all(
      [...byLeader].map(async ([leader, topics]) => {
        const connection = await this.connection(leader);
        const request = [...topics].map(([name, ps]) => ({ name, partitions: ps }));
        const response = await this.apis.listOffsets.async(connection, -1, this.config.isolationLevel, request);
        for (const t of response.topics) for (const p of t.partitions) out.set(`${t.name}-${p.partitionIndex}`, Number(p.offset));
      }),
    );
    return out;
  }

  async committedOffsets(partitions: readonly TopicPartition[]): Promise<Map<string, number>> {
    const groupId = this.config.groupId!;
    const byTopic = new Map<string, number[]>();
    for (const p of partitions) byTopic.set(p.topic, [...(byTopic.get(p.topic) ?? []), p.partition]);
    const connection = await this.coordinatorConnection();
    const response = await this.apis.offsetFetch.async(connection, [{ groupId, memberId: null, memberEpoch: -1, topics: [...byTopic].map(([name, partitionIndexes]) => ({ name, partitionIndexes })) }], true);
    const out = new Map<string, number>();
    for (const g of response.groups) for (const t of g.topics) for (const p of t.partitions) out.set(`${t.name}-${p.partitionIndex}`, Number(p.committedOffset));
    return out;
  }

  /** Commits offsets to the group as a client outside any group generation (Kafka's "simple" commit). */
  async commitOffsets(offsets: readonly (TopicPartition & { readonly offset: number })[]): Promise<void> {
    const byTopic = new Map<string, { partitionIndex: number; committedOffset: bigint; committedLeaderEpoch: number; committedMetadata: null }[]>();
    for (const o of offsets) byTopic.set(o.topic, [...(byTopic.get(o.topic) ?? []), { partitionIndex: o.partition, committedOffset: BigInt(o.offset), committedLeaderEpoch: -1, committedMetadata: null }]);
    const connection = await this.coordinatorConnection();
    try {
      await this.apis.offsetCommit.async(connection, this.config.groupId!, -1, "", null, [...byTopic].map(([name, partitions]) => ({ name, partitions })));
    } catch (e) {
      this.coordinator = undefined;
      throw e;
    }
  }

  /**
   * One fetch from `leader`. A partition-level error does not throw: it is in the partition's `errorCode`
   * (the client raises the whole response as an error; its data is taken back from it).
   */
  async fetch(leader: number, partitions: readonly FetchPartition[], o: { maxWaitMs: number; minBytes: number; maxBytes: number; partitionMaxBytes: number }): Promise<FetchResponse> {
    const connection = await this.connection(leader);
    const topics = new Map<string, { partition: number; currentLeaderEpoch: number; fetchOffset: bigint; lastFetchedEpoch: number; partitionMaxBytes: number }[]>();
    for (const p of partitions) {
      const list = topics.get(p.topicId) ?? [];
      topics.set(p.topicId, list);
      list.push({ partition: p.partition, currentLeaderEpoch: p.leaderEpoch, fetchOffset: BigInt(p.offset), lastFetchedEpoch: -1, partitionMaxBytes: o.partitionMaxBytes });
    }
    const request = [...topics].map(([topicId, ps]) => ({ topicId, partitions: ps }));
    try {
      return await this.apis.fetch.async(connection, o.maxWaitMs, o.minBytes, o.maxBytes, this.config.isolationLevel, 0, -1, request, [], "");
    } catch (e) {
      const response = (e as { response?: FetchResponse }).response;
      if (response !== undefined && response.errorCode === 0 && Array.isArray(response.responses)) return response;
      throw e;
    }
  }

  /** Forgets the leaders, so the next request asks the cluster again (after a leader change or restart). */
  forgetBrokers(): void {
    this.brokers.clear();
    this.coordinator = undefined;
  }

  async close(): Promise<void> {
    await this.pool.close();
  }

  private async bootstrapConnection(): Promise<Connection> {
    return this.pool.getFirstAvailable(this.config.bootstrap.map(toBroker));
  }

  private async metadata(topics: string[] | null): Promise<MetadataResponse> {
    const response = await this.apis.metadata.async(await this.bootstrapConnection(), topics, false, false).catch((e: unknown) => {
      const partial = (e as { response?: MetadataResponse }).response;
      if (partial?.brokers) return partial;
      throw e;
    });
    for (const b of response.brokers) this.brokers.set(b.nodeId, { host: b.host, port: b.port });
    return response;
  }

  private async connection(node: number): Promise<Connection> {
    if (!this.brokers.has(node)) await this.metadata([]);
    const broker = this.brokers.get(node);
    if (broker === undefined) throw new Error(`broker ${node} is not in the cluster's metadata`);
    return this.pool.get(broker);
  }

  private async coordinatorConnection(): Promise<Connection> {
    if (this.coordinator === undefined) {
      const response = await this.apis.findCoordinator.async(await this.bootstrapConnection(), 0, [this.config.groupId!]);
      const c = response.coordinators[0]!;
      if (c.errorCode !== 0) throw new Error(`no coordinator for group '${this.config.groupId}' (error code ${c.errorCode})`);
      this.brokers.set(c.nodeId, { host: c.host, port: c.port });
      this.coordinator = c.nodeId;
    }
    return this.connection(this.coordinator);
  }
}
