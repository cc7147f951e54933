/**
 * `KafkaSource`: Flink's Kafka source on the FLIP-27 source SPI. Each partition is a split holding the offset
 * of its next record (and its stop offset when bounded); discovery splits (one bucket per reader of the first
 * run) let each reader find the partitions it owns itself, at start and every
 * `partition.discovery.interval.ms`. Records carry Kafka's timestamps, watermarks are per partition, and
 * read_committed (the default) skips aborted transactions. Offsets are committed to the group when a
 * checkpoint completes (monitoring only: a restore uses the checkpoint's offsets).
 */
import type { Boundedness, Source, SourceReader, SourceReaderContext } from "../../core/source.ts";
import type { DeserializationSchema } from "../../core/serialization-schema.ts";
import { systemClock, type Clock } from "../../util/clock.ts";
import { KafkaConfigError, parseBootstrapServers } from "./kafka-config.ts";
import { initialKafkaSplits, kafkaSplitId, type KafkaSourceSplit } from "./kafka-partition-split.ts";
import { KafkaRecordDeserializationSchema } from "./kafka-record-deserialization-schema.ts";
import { KafkaSourceReader } from "./kafka-source-reader.ts";
import { checkProperty, kafkaSourceSettings, type KafkaSourceSettings } from "./kafka-source-options.ts";
import { OffsetsInitializer } from "./offsets-initializer.ts";

const SOURCE = "KafkaSource";
const LEGAL_TOPIC = /^[a-zA-Z0-9._-]{1,249}$/;

/** What `KafkaSourceBuilder.build` checked. */
interface KafkaSourceConfig<T> {
  readonly bootstrap: string[];
  readonly topics: readonly string[] | RegExp;
  readonly groupId: string | undefined;
  readonly clientIdPrefix: string;
  readonly starting: OffsetsInitializer;
  readonly stopping: OffsetsInitializer | undefined;
  readonly boundedness: Boundedness;
  readonly deserializer: KafkaRecordDeserializationSchema<T>;
  readonly settings: KafkaSourceSettings;
  readonly clock: Clock;
}

/**
 * A source of the records of Kafka topics.
 *
 * @example
 * ```ts
 * const source = KafkaSource.builder<string>()
 *   .setBootstrapServers("localhost:9092")
 *   .setTopics("orders")
 *   .setGroupId("weir-orders")
 *   .setStartingOffsets(OffsetsInitializer.earliest())
 *   .setValueOnlyDeserializer(new SimpleStringSchema())
 *   .build();
 * env.fromSource(source, WatermarkStrategy.forBoundedOutOfOrderness(5_000).withIdleness(60_000), "orders");
 * ```
 */
export class KafkaSource<T> implements Source<T, KafkaSourceSplit> {
  readonly boundedness: Boundedness;

  /** @internal Use `KafkaSource.builder()`. */
  constructor(private readonly config: KafkaSourceConfig<T>) {
    this.boundedness = config.boundedness;
  }

  /** A builder (Flink's `KafkaSource.builder()`). */
  static builder<T>(): KafkaSourceBuilder<T> {
    return new KafkaSourceBuilder<T>();
  }

  /** One discovery bucket per reader: no I/O, the same in every thread. */
  createSplits(parallelism: number): KafkaSourceSplit[] {
    return initialKafkaSplits(parallelism);
  }

  /** A partition's id is `"topic-partition"` (its watermark follows it through a rescale). */
  splitId(split: KafkaSourceSplit): string {
    return kafkaSplitId(split);
  }

  createReader(context: SourceReaderContext): SourceReader<T, KafkaSourceSplit> {
    const c = this.config;
    return new KafkaSourceReader<T>({
      topics: c.topics,
      starting: c.starting,
      stopping: c.stopping,
      bounded: c.boundedness === "bounded",
      deserializer: c.deserializer,
      settings: c.settings,
      clock: c.clock,
      client: {
        bootstrap: c.bootstrap,
        clientId: `${c.clientIdPrefix}-${context.subtaskIndex}`,
        groupId: c.groupId,
        isolationLevel: c.settings.isolationLevel,
        connectTimeoutMs: c.settings.connectTimeoutMs,
        requestTimeoutMs: c.settings.requestTimeoutMs,
      },
    });
  }
}

/**
 * Builds a {@link KafkaSource} (Flink's `KafkaSourceBuilder`); `build()` checks everything.
 *
 * @example
 * ```ts
 * KafkaSource.builder<Order>()
 *   .setBootstrapServers("kafka-1:9092,kafka-2:9092")
 *   .setTopicPattern(/orders-.*\/)
 *   .setValueOnlyDeserializer(new JsonDeserializationSchema<Order>())
 *   .setProperty("partition.discovery.interval.ms", "10000")
 *   .build();
 * ```
 */
export class KafkaSourceBuilder<T> {
  private bootstrap: string | undefined;
  private topics: string[] | undefined;
  private pattern: RegExp | undefined;
  private groupId: string | undefined;
  private clientIdPrefix: string | undefined;
  private starting = OffsetsInitializer.earliest();
  private stopping: OffsetsInitializer | undefined;
  private boundedness: Boundedness = "continuous";
  private deserializer: KafkaRecordDeserializationSchema<T> | undefined;
  private readonly properties = new Map<string, string>();
  private clock: Clock = systemClock;

  /** The brokers to start from, `"host:port,host:port"`. */
  setBootstrapServers(servers: string): this {
    this.bootstrap = servers;
    return this;
  }

  /** The topics to read (each must exist: the source fails at start naming a missing one). */
  setTopics(...topics: (string | readonly string[])[]): this {
    this.topics = topics.flat();
    return this;
  }

  /** Reads every topic whose whole name matches `pattern`, including topics created later (found by discovery). */
  setTopicPattern(pattern: RegExp): this {
    this.pattern = pattern;
    return this;
  }

  /** The group the offsets of completed checkpoints are committed to (monitoring), and `committedOffsets` reads. */
  setGroupId(groupId: string): this {
    this.groupId = groupId;
    return this;
  }

  /** Prefix of the readers' client ids (`<prefix>-<subtask>`). */
  setClientIdPrefix(prefix: string): this {
    this.clientIdPrefix = prefix;
    return this;
  }

  /** Where each partition starts (default `OffsetsInitializer.earliest()`); partitions found later start at the earliest offset. */
  setStartingOffsets(initializer: OffsetsInitializer): this {
    this.starting = initializer;
    return this;
  }

  /** A bounded source: reads each partition up to these offsets, then ends (no discovery after the first). */
  setBounded(initializer: OffsetsInitializer): this {
    this.stopping = initializer;
    this.boundedness = "bounded";
    return this;
  }

  /** A continuous source whose partitions stop at these offsets (the job does not end). */
  setUnbounded(initializer: OffsetsInitializer): this {
    this.stopping = initializer;
    this.boundedness = "continuous";
    return this;
  }

  /** Deserializes the whole record (key, value, headers, metadata). */
  setDeserializer(deserializer: KafkaRecordDeserializationSchema<T>): this {
    this.deserializer = deserializer;
    return this;
  }

  /** Deserializes the value alone; tombstones (no value) are skipped. */
  setValueOnlyDeserializer(schema: DeserializationSchema<T>): this {
    this.deserializer = KafkaRecordDeserializationSchema.valueOnly(schema);
    return this;
  }

  /** One property (see docs/connectors.md for the supported ones); an unknown name or a bad value is refused. */
  setProperty(key: string, value: string): this {
    checkProperty(key, value);
    this.properties.set(key, value);
    return this;
  }

  /** Several properties. */
  setProperties(properties: Readonly<Record<string, string>>): this {
    for (const [key, value] of Object.entries(properties)) this.setProperty(key, value);
    return this;
  }

  /** @internal The clock of discovery and retries (tests). */
  setClock(clock: Clock): this {
    this.clock = clock;
    return this;
  }

  build(): KafkaSource<T> {
    const props = this.properties;
    const bootstrap = parseBootstrapServers(SOURCE, this.bootstrap ?? props.get("bootstrap.servers") ?? "");
    if (this.topics !== undefined && this.pattern !== undefined) throw new KafkaConfigError(SOURCE, "set either topics (setTopics) or a topic pattern (setTopicPattern), not both");
    let topics: readonly string[] | RegExp;
    if (this.pattern !== undefined) topics = new RegExp(`^(?:${this.pattern.source})$`, this.pattern.flags.replace(/[gy]/g, ""));
    else {
      const list = [...new Set(this.topics ?? [])];
      if (list.length === 0) throw new KafkaConfigError(SOURCE, "no topics to read (setTopics(\"orders\") or setTopicPattern(/orders-.*/))");
      for (const t of list) if (typeof t !== "string" || !LEGAL_TOPIC.test(t)) throw new KafkaConfigError(SOURCE, `'${String(t)}' is not a legal topic name (letters, digits, '.', '_', '-'; at most 249)`);
      topics = list;
    }
    if (this.deserializer === undefined) throw new KafkaConfigError(SOURCE, "no deserializer (setValueOnlyDeserializer(new SimpleStringSchema()) or setDeserializer(...))");
    const groupId = this.groupId ?? props.get("group.id");
    if (groupId !== undefined && groupId.trim() === "") throw new KafkaConfigError(SOURCE, "the group id must not be empty");
    for (const [what, init] of [["starting", this.starting], ["stopping", this.stopping]] as const) {
      if (init?.spec.kind === "committed" && groupId === undefined) throw new KafkaConfigError(SOURCE, `committed ${what} offsets need a group id (setGroupId)`);
    }
    const settings = kafkaSourceSettings(props, this.boundedness === "bounded");
    if (settings.requestTimeoutMs <= settings.fetchMaxWaitMs) {
      throw new KafkaConfigError(SOURCE, `request.timeout.ms (${settings.requestTimeoutMs}) must be greater than fetch.max.wait.ms (${settings.fetchMaxWaitMs})`);
    }
    return new KafkaSource<T>({
      bootstrap,
      topics,
      groupId,
      clientIdPrefix: this.clientIdPrefix ?? props.get("client.id.prefix") ?? "weir-kafka-source",
      starting: this.starting,
      stopping: this.stopping,
      boundedness: this.boundedness,
      deserializer: this.deserializer,
      settings,
      clock: this.clock,
    });
  }
}
