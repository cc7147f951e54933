/**
 * The Kafka benchmark job, in the calling thread: JSON events `{ key, sent }` from a bounded KafkaSource →
 * keyBy(key) → a running count per key in keyed state → a KafkaSink of `{ key, count, sent }` keyed by key,
 * with exactly-once (checkpoints and Kafka transactions) or at-least-once (checkpoints, acknowledged sends).
 *
 * ```
 * KafkaSource(input, earliest → latest) → keyBy(key) → count → KafkaSink(output, guarantee)
 * ```
 */
import { performance } from "node:perf_hooks";
import {
  DeliveryGuarantee,
  JsonDeserializationSchema,
  JsonSerializationSchema,
  KafkaRecordSerializationSchema,
  KafkaSink,
  KafkaSource,
  KeyedProcessFunction,
  OffsetsInitializer,
  SimpleStringSchema,
  StreamExecutionEnvironment,
  ValueStateDescriptor,
  WatermarkStrategy,
  type CheckpointStats,
  type Collector,
  type KeyedProcessContext,
  type ValueState,
} from "../../src/index.ts";
import { withCheckpointDir } from "./checkpoint-dir.ts";

/** An input event: its key and when it was produced (ms since the epoch). */
export interface KafkaBenchEvent {
  readonly key: string;
  readonly sent: number;
}

/** An output record: the key's count after the event, and the event's `sent`. */
export interface KafkaBenchCount {
  readonly key: string;
  readonly count: number;
  readonly sent: number;
}

/** One run of the Kafka job. */
export interface KafkaCountParams {
  readonly bootstrap: string;
  readonly input: string;
  readonly output: string;
  readonly parallelism: number;
  readonly guarantee: "exactly-once" | "at-least-once";
  readonly checkpointIntervalMs: number;
  /** Unique per run (transactional ids). */
  readonly runId: string;
  /** Unbounded: the job reads until this resolves, then is cancelled (latency runs); else it reads up to the latest offsets at its start. */
  readonly until?: Promise<void>;
}

/** Counts per key. */
class Count extends KeyedProcessFunction<string, KafkaBenchEvent, KafkaBenchCount> {
  private count!: ValueState<number>;
  open(): void {
    this.count = this.getRuntimeContext().getState(new ValueStateDescriptor<number>("count"));
  }
  processElement(e: KafkaBenchEvent, ctx: KeyedProcessContext<string>, out: Collector<KafkaBenchCount>): void {
    const count = (this.count.value() ?? 0) + 1;
    this.count.update(count);
    out.collect({ key: ctx.getCurrentKey(), count, sent: e.sent });
  }
}

/**
 * Runs the job once to the end of its bounded input and times it.
 *
 * @example
 * ```ts
 * const run = await runKafkaCount({ bootstrap, input: "in", output: "out-1", parallelism: 2, guarantee: "exactly-once", checkpointIntervalMs: 1000, runId: "1" });
 * ```
 */
export async function runKafkaCount(p: KafkaCountParams): Promise<{ elapsedMs: number; checkpoints: CheckpointStats | null }> {
  return withCheckpointDir(p.checkpointIntervalMs, async (dir) => {
    const env = StreamExecutionEnvironment.create({ parallelism: p.parallelism, workers: 0, fresh: true, log: () => {} });
    env.enableCheckpointing(p.checkpointIntervalMs, p.guarantee);
    if (dir) env.getCheckpointConfig().setCheckpointStorage(dir);
    const builder = KafkaSource.builder<KafkaBenchEvent>()
      .setBootstrapServers(p.bootstrap)
      .setTopics(p.input)
      .setStartingOffsets(OffsetsInitializer.earliest())
      .setValueOnlyDeserializer(new JsonDeserializationSchema<KafkaBenchEvent>());
    const source = (p.until === undefined ? builder.setBounded(OffsetsInitializer.latest()) : builder).build();
    const keys = new SimpleStringSchema();
    const sink = KafkaSink.builder<KafkaBenchCount>()
      .setBootstrapServers(p.bootstrap)
      .setRecordSerializer(
        KafkaRecordSerializationSchema.builder<KafkaBenchCount>()
          .setTopic(p.output)
          .setKeySerializationSchema({ serialize: (c: KafkaBenchCount) => keys.serialize(c.key) })
          .setValueSerializationSchema(new JsonSerializationSchema<KafkaBenchCount>())
          .build(),
      )
      .setDeliveryGuarantee(p.guarantee === "exactly-once" ? DeliveryGuarantee.EXACTLY_ONCE : DeliveryGuarantee.AT_LEAST_ONCE)
      .setTransactionalIdPrefix(`bench-${p.runId}`)
      .build();
    env
      .fromSource(source, WatermarkStrategy.noWatermarks(), "events")
      .uid("events")
      .keyBy((e) => e.key)
      .process(new Count())
      .uid("count")
      .sinkTo(sink)
      .uid("counts");
    const started = performance.now();
    const client = await env.executeAsync(`bench-kafka-${p.guarantee}`);
    if (p.until !== undefined) {
      await p.until;
      await client.cancel();
      return { elapsedMs: performance.now() - started, checkpoints: null };
    }
    const result = await client.getJobExecutionResult();
    return { elapsedMs: performance.now() - started, checkpoints: result.checkpoints };
  });
}
