/**
 * The Kafka sink against a real broker, in-process jobs: NONE and AT_LEAST_ONCE write everything;
 * EXACTLY_ONCE through an injected failure shows each record once to read_committed; jobs with different
 * transactional id prefixes do not fence each other; the transaction timeout checks. (A broker restart
 * mid-job: kafka-sink-broker-restart.long.test.ts.)
 */
import { beforeAll, describe, expect, it } from "vitest";
import { RestartStrategies, StreamExecutionEnvironment, WatermarkStrategy, type DataStream } from "../src/index.ts";
import { DeliveryGuarantee, type KafkaSinkBuilder } from "../src/connectors/kafka/index.ts";
import { sharedKafkaBroker, type SharedKafkaBroker } from "./support/shared-kafka.ts";
import { createTopic, readTopic } from "./support/kafka-topics.ts";
import { valueSink } from "./support/kafka-value-sink.ts";
import { committedRecords } from "./support/kafka-committed.ts";
import { throttledSequence } from "./fixtures/throttled-sequence-source.ts";
import { FailOnce } from "./support/fail-once.ts";

let broker: SharedKafkaBroker;
beforeAll(async () => {
  broker = await sharedKafkaBroker();
}, 90_000);

function sinkTo(topic: string): KafkaSinkBuilder<string> {
  return valueSink(broker.bootstrap, topic);
}

/** `v-0`..`v-(n-1)`, slowly (`perPoll` per poll, then `pauseMs`), with a failure once a third through when `fail`. */
function values(env: StreamExecutionEnvironment, n: number, perPoll: number, pauseMs: number, fail = false): DataStream<string> {
  const all = Array.from({ length: n }, (_, i) => `v-${i}`);
  return env
    .fromSource(throttledSequence(0, n - 1, perPoll, pauseMs), WatermarkStrategy.noWatermarks(), "numbers")
    .uid("numbers")
    .map(new FailOnce(all, fail ? Math.floor(n / 3) : -1))
    .uid("values");
}

function expected(n: number): string[] {
  return Array.from({ length: n }, (_, i) => `v-${i}`).sort();
}

/** The read_committed values of `topic`, sorted, once there are at least `atLeast`. */
async function committedValues(topic: string, atLeast = 0): Promise<string[]> {
  return (await committedRecords(broker.bootstrap, topic, atLeast)).map((r) => r.value!).sort();
}

describe("KafkaSink against a real broker", () => {
  for (const guarantee of [DeliveryGuarantee.NONE, DeliveryGuarantee.AT_LEAST_ONCE]) {
    it(`${guarantee}: every record reaches the topic, keyed into partitions by the client's murmur2`, async () => {
      const topic = broker.name(`out-${guarantee}`);
      await createTopic(broker.bootstrap, topic, 3);
      const env = StreamExecutionEnvironment.create({ parallelism: 2 });
      env.enableCheckpointing(50, "exactly-once");
      values(env, 3000, 500, 1).sinkTo(sinkTo(topic).setDeliveryGuarantee(guarantee).build()).uid("kafka-out");
      await env.execute(`kafka-${guarantee}`);
      const records = await committedRecords(broker.bootstrap, topic, 3000);
      expect(records.map((r) => r.value!).sort()).toEqual(expected(3000));
      expect(new Set(records.map((r) => r.partition))).toEqual(new Set([0, 1, 2]));
      const partitionOfKey = new Map<string, number>();
      for (const r of records) expect(partitionOfKey.get(r.key!) ?? r.partition).toBe((partitionOfKey.set(r.key!, r.partition), r.partition));
    }, 30_000);
  }

  it("EXACTLY_ONCE through an injected failure: read_committed sees each record once", async () => {
    const topic = broker.name("out-exactly-once");
    await createTopic(broker.bootstrap, topic, 2);
    const env = StreamExecutionEnvironment.create({ parallelism: 2 });
    env.enableCheckpointing(50, "exactly-once");
    env.setRestartStrategy(RestartStrategies.fixedDelayRestart(3, 0));
    values(env, 2000, 20, 2, true).sinkTo(sinkTo(topic).setDeliveryGuarantee(DeliveryGuarantee.EXACTLY_ONCE).setTransactionalIdPrefix(broker.name("eo-test")).build()).uid("kafka-out");
    const result = await env.execute("kafka-exactly-once");
    expect(result.restarts).toBe(1);
    expect(await committedValues(topic, 2000)).toEqual(expected(2000));
    const all = (await readTopic(broker.bootstrap, topic, { committed: false })).map((r) => r.value!);
    expect(new Set(all)).toEqual(new Set(expected(2000)));
    expect(all.length).toBeGreaterThanOrEqual(2000);
  }, 30_000);

  it("two jobs with prefixes 'job-a' and 'job-a-1' run at once without fencing each other", async () => {
    const [outA, outA1] = [broker.name("out-a"), broker.name("out-a-1")];
    await createTopic(broker.bootstrap, [outA, outA1], 2);
    const run = (topic: string, prefix: string) => {
      const env = StreamExecutionEnvironment.create({ parallelism: 2 });
      env.enableCheckpointing(50, "exactly-once");
      env.setRestartStrategy(RestartStrategies.noRestart());
      values(env, 1000, 20, 3).sinkTo(sinkTo(topic).setDeliveryGuarantee(DeliveryGuarantee.EXACTLY_ONCE).setTransactionalIdPrefix(prefix).build()).uid("kafka-out");
      return env.execute(prefix);
    };
    const [a, b] = await Promise.all([run(outA, broker.name("job-a")), run(outA1, broker.name("job-a-1"))]);
    expect([a.restarts, b.restarts]).toEqual([0, 0]);
    expect(await committedValues(outA, 1000)).toEqual(expected(1000));
    expect(await committedValues(outA1, 1000)).toEqual(expected(1000));
  }, 30_000);

  it("a checkpoint interval not below transaction.timeout.ms fails the job at start naming both settings", async () => {
    const topic = broker.name("out-timeout");
    await createTopic(broker.bootstrap, topic, 1);
    const env = StreamExecutionEnvironment.create({ parallelism: 1 });
    env.enableCheckpointing(1500, "exactly-once");
    env.setRestartStrategy(RestartStrategies.noRestart());
    const sink = sinkTo(topic).setDeliveryGuarantee(DeliveryGuarantee.EXACTLY_ONCE).setTransactionalIdPrefix(broker.name("timeout-test")).setProperty("transaction.timeout.ms", "1000");
    values(env, 200, 1, 20).sinkTo(sink.build()).uid("kafka-out");
    const started = Date.now();
    await expect(env.execute("kafka-timeout")).rejects.toThrow(/KafkaSink 'kafka-out': the checkpoint interval of 1500 ms is not less than transaction\.timeout\.ms = 1000 ms.*execution\.checkpointing\.interval/);
    expect(Date.now() - started, "refused at start, before a checkpoint").toBeLessThan(1500);
  }, 30_000);

  it("a transaction.timeout.ms above the broker's transaction.max.timeout.ms fails the job naming it", async () => {
    const topic = broker.name("out-max-timeout");
    await createTopic(broker.bootstrap, topic, 1);
    const env = StreamExecutionEnvironment.create({ parallelism: 1 });
    env.enableCheckpointing(50, "exactly-once");
    env.setRestartStrategy(RestartStrategies.noRestart());
    const sink = sinkTo(topic).setDeliveryGuarantee(DeliveryGuarantee.EXACTLY_ONCE).setTransactionalIdPrefix(broker.name("max-test")).setProperty("transaction.timeout.ms", "900001");
    values(env, 100, 10, 1).sinkTo(sink.build()).uid("kafka-out");
    await expect(env.execute("kafka-max-timeout")).rejects.toThrow(/refused transaction\.timeout\.ms = 900001 \(INVALID_TRANSACTION_TIMEOUT\).*transaction\.max\.timeout\.ms/);
  }, 30_000);

  for (const guarantee of [DeliveryGuarantee.AT_LEAST_ONCE, DeliveryGuarantee.EXACTLY_ONCE]) {
    it(`${guarantee}: a topic that does not exist fails the job at the first send, naming it (no 2-minute retry)`, async () => {
      const env = StreamExecutionEnvironment.create({ parallelism: 1 });
      env.enableCheckpointing(50, "exactly-once");
      env.setRestartStrategy(RestartStrategies.noRestart());
      const missing = broker.name(`missing-${guarantee}`);
      values(env, 100, 10, 1).sinkTo(sinkTo(missing).setDeliveryGuarantee(guarantee).setTransactionalIdPrefix(missing).build()).uid("kafka-out");
      const started = Date.now();
      await expect(env.execute("kafka-missing-topic")).rejects.toThrow(new RegExp(`KafkaSink 'kafka-out'.*topic '${missing}' does not exist on the brokers`));
      expect(Date.now() - started).toBeLessThan(60_000);
    }, 90_000);
  }

  it("a wrong bootstrap address fails the job within seconds, naming the address", async () => {
    const env = StreamExecutionEnvironment.create({ parallelism: 1 });
    env.setRestartStrategy(RestartStrategies.noRestart());
    const sink = valueSink("127.0.0.1:1", "t").setDeliveryGuarantee(DeliveryGuarantee.AT_LEAST_ONCE).build();
    env.fromElements("a", "b").sinkTo(sink).uid("kafka-out");
    const started = Date.now();
    await expect(env.execute("kafka-wrong-address")).rejects.toThrow(/KafkaSink 'kafka-out'.*topic\(s\) 't' failed: .*Connection to 127\.0\.0\.1:1 failed/);
    expect(Date.now() - started).toBeLessThan(30_000);
  }, 60_000);
});
