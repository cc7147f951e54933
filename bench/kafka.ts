/**
 * The Kafka part of `npm run bench` (`--only kafka`): a real broker (test/support/kafka-broker.ts), a
 * 4-partition topic of JSON events, and in one run
 * - throughput of Kafka → keyed count → Kafka (bench/jobs/kafka-count.ts) in-process at parallelism 2,
 *   exactly-once (checkpoints every second, Kafka transactions) and at-least-once (checkpoints every second,
 *   acknowledged sends), against the client's own consume → count → produce loop on the same data (the
 *   ceiling: what @platformatic/kafka does without the engine);
 * - end-to-end latency p50/p99 under a steady input rate, from an event's production to its count becoming
 *   visible to a read_committed consumer, exactly-once vs at-least-once: what exactly-once adds (about one
 *   checkpoint interval: its output becomes visible when the checkpoint completes).
 * Every throughput run is checked: the output topic holds one count per input event.
 */
import { performance } from "node:perf_hooks";
import { Consumer, Producer, type RecordsBatch } from "@platformatic/kafka";
import { startKafkaBroker } from "../test/support/kafka-broker.ts";
import { createTopic, produceRecords, readTopic } from "../test/support/kafka-topics.ts";
import { BenchIntegrityError } from "./integrity-error.ts";
import { runKafkaCount, type KafkaBenchEvent } from "./jobs/kafka-count.ts";
import { throughput } from "./report.ts";

const PARTITIONS = 4;
const KEYS = 1_000;
const EVENTS = 300_000;
const PARALLELISM = 2;
const CHECKPOINT_INTERVAL_MS = 1_000;
/** Latency runs: events per second for this long. */
const LATENCY_RATE = 5_000;
const LATENCY_SECONDS = 10;

/** What the Kafka section measured. */
export interface KafkaFigures {
  readonly events: number;
  /** records/s: exactly-once, at-least-once, the client's own loop. */
  readonly exactlyOnce: number;
  readonly atLeastOnce: number;
  readonly clientLoop: number;
  /** ms from production to visibility for a read_committed consumer. */
  readonly latency: Readonly<Record<"exactly-once" | "at-least-once", { p50: number; p99: number }>>;
}

/**
 * Starts a broker, runs the measurements, stops it.
 *
 * @example
 * ```ts
 * const k = await measureKafka((line) => console.error(line));
 * console.log(k.exactlyOnce / k.clientLoop);
 * ```
 */
export async function measureKafka(progress: (line: string) => void): Promise<KafkaFigures> {
  progress("kafka: starting a broker");
  const broker = await startKafkaBroker();
  try {
    const bootstrap = broker.bootstrap;
    await createTopic(bootstrap, ["events", "out-loop", "out-eo", "out-alo", "steady-in-eo", "steady-eo", "steady-in-alo", "steady-alo"], PARTITIONS);
    progress(`kafka: producing ${EVENTS.toLocaleString("en-US")} events`);
    await produceRecords(bootstrap, "events", Array.from({ length: EVENTS }, (_, i) => ({ key: `k${i % KEYS}`, value: JSON.stringify({ key: `k${i % KEYS}`, sent: 0 }) })));

    progress("kafka: the client's own consume → count → produce loop");
    const clientLoop = throughput(EVENTS, await clientLoopMs(bootstrap, "events", "out-loop"));
    await expectCounts(bootstrap, "out-loop", "client loop");
    const rates: Record<string, number> = {};
    for (const guarantee of ["exactly-once", "at-least-once"] as const) {
      const output = guarantee === "exactly-once" ? "out-eo" : "out-alo";
      progress(`kafka: Kafka → keyed count → Kafka, ${guarantee}, checkpoints every ${CHECKPOINT_INTERVAL_MS} ms`);
      const run = await runKafkaCount({ bootstrap, input: "events", output, parallelism: PARALLELISM, guarantee, checkpointIntervalMs: CHECKPOINT_INTERVAL_MS, runId: guarantee });
      rates[guarantee] = throughput(EVENTS, run.elapsedMs);
      await expectCounts(bootstrap, output, guarantee);
    }
    const latency = {} as Record<"exactly-once" | "at-least-once", { p50: number; p99: number }>;
    for (const guarantee of ["exactly-once", "at-least-once"] as const) {
      progress(`kafka: latency, ${guarantee}, ${LATENCY_RATE}/s for ${LATENCY_SECONDS} s`);
      latency[guarantee] = await measureLatency(bootstrap, guarantee);
    }
    return { events: EVENTS, exactlyOnce: rates["exactly-once"]!, atLeastOnce: rates["at-least-once"]!, clientLoop, latency };
  } finally {
    await broker.stop();
  }
}

/** The output holds one count per event (read_committed; at-least-once may hold replays only after failures, and the bench has none). */
async function expectCounts(bootstrap: string, topic: string, label: string): Promise<void> {
  const n = (await readTopic(bootstrap, topic, { committed: true })).length;
  if (n !== EVENTS) throw new BenchIntegrityError(`kafka ${label}`, `counts on ${topic}`, EVENTS, n);
}

const IS_CONTROL = 0x20;

/** Fetches from every partition of `topic` from `offsets` (advanced in place) once; returns the data records' values. */
async function fetchOnce(consumer: Consumer, topic: string, offsets: bigint[], isolationLevel: number, maxWaitTime: number): Promise<Buffer[]> {
  const meta = await consumer.metadata({ topics: [topic] });
  const t = meta.topics.get(topic)!;
  const response = (await consumer.fetch({
    node: t.partitions[0]!.leader,
    isolationLevel,
    maxWaitTime,
    topics: [{ topicId: t.id, partitions: offsets.map((o, partition) => ({ partition, currentLeaderEpoch: -1, fetchOffset: o, lastFetchedEpoch: -1, partitionMaxBytes: 1 << 20 })) }],
  })) as { responses: { partitions: { partitionIndex: number; records?: RecordsBatch[] }[] }[] };
  const values: Buffer[] = [];
  for (const p of response.responses[0]!.partitions) {
    for (const b of p.records ?? []) {
      offsets[p.partitionIndex] = b.firstOffset + BigInt(b.lastOffsetDelta) + 1n;
      if ((b.attributes & IS_CONTROL) !== 0) continue;
      for (const r of b.records) if (r.value !== null) values.push(r.value);
    }
  }
  return values;
}

/** The client alone: fetch all partitions, count per key in a Map, send each count (batches of up to 2 000 of the fetched records, acks=all). */
async function clientLoopMs(bootstrap: string, input: string, output: string): Promise<number> {
  const consumer = new Consumer({ clientId: "bench-loop", groupId: "bench-loop", bootstrapBrokers: [bootstrap] });
  const producer = new Producer({ clientId: "bench-loop", bootstrapBrokers: [bootstrap], acks: -1, idempotent: true });
  const counts = new Map<string, number>();
  const offsets = Array.from({ length: PARTITIONS }, () => 0n);
  let seen = 0;
  const started = performance.now();
  while (seen < EVENTS) {
    const values = await fetchOnce(consumer, input, offsets, 1, 100);
    const messages = values.map((v) => {
      const e = JSON.parse(v.toString()) as KafkaBenchEvent;
      const count = (counts.get(e.key) ?? 0) + 1;
      counts.set(e.key, count);
      return { topic: output, key: Buffer.from(e.key), value: Buffer.from(JSON.stringify({ key: e.key, count, sent: e.sent })) };
    });
    seen += values.length;
    for (let i = 0; i < messages.length; i += 2000) await producer.send({ messages: messages.slice(i, i + 2000) });
  }
  const elapsed = performance.now() - started;
  await consumer.close();
  await producer.close();
  return elapsed;
}

/** Produces a steady stream into an input topic of its own while the job runs unbounded, and measures production → read_committed visibility. */
async function measureLatency(bootstrap: string, guarantee: "exactly-once" | "at-least-once"): Promise<{ p50: number; p99: number }> {
  const [input, output] = guarantee === "exactly-once" ? ["steady-in-eo", "steady-eo"] : ["steady-in-alo", "steady-alo"];
  let stop!: () => void;
  const until = new Promise<void>((resolve) => (stop = resolve));
  const job = runKafkaCount({ bootstrap, input, output, parallelism: PARALLELISM, guarantee, checkpointIntervalMs: CHECKPOINT_INTERVAL_MS, runId: `steady-${guarantee}`, until });
  const consumer = new Consumer({ clientId: "bench-tail", groupId: "bench-tail", bootstrapBrokers: [bootstrap] });
  const producer = new Producer({ clientId: "bench-steady", bootstrapBrokers: [bootstrap], acks: -1 });
  const latencies: number[] = [];
  const offsets = Array.from({ length: PARTITIONS }, () => 0n);
  let producing = true;
  const tail = (async () => {
    while (producing || latencies.length === 0) {
      for (const v of await fetchOnce(consumer, output, offsets, 1, 100)) latencies.push(Date.now() - (JSON.parse(v.toString()) as KafkaBenchEvent).sent);
    }
  })();
  const batch = LATENCY_RATE / 10;
  const started = Date.now();
  for (let tick = 0; tick < LATENCY_SECONDS * 10; tick++) {
    const due = started + tick * 100;
    if (due > Date.now()) await new Promise((r) => setTimeout(r, due - Date.now()));
    const sent = Date.now();
    await producer.send({ messages: Array.from({ length: batch }, (_, i) => ({ topic: input, key: Buffer.from(`k${i % KEYS}`), value: Buffer.from(JSON.stringify({ key: `k${i % KEYS}`, sent })) })) });
  }
  // Let the last checkpoint commit what was sent, then stop.
  await new Promise((r) => setTimeout(r, 3 * CHECKPOINT_INTERVAL_MS));
  producing = false;
  await tail;
  stop();
  await job;
  await consumer.close();
  await producer.close();
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!;
  return { p50: at(0.5), p99: at(0.99) };
}

/** The ratios of the Kafka section for the report's ratio table. */
export function kafkaRatios(k: KafkaFigures): Record<string, number> {
  return {
    "kafka: exactly-once 1 s / client's own loop": k.exactlyOnce / k.clientLoop,
    "kafka: at-least-once 1 s / client's own loop": k.atLeastOnce / k.clientLoop,
    "kafka: exactly-once / at-least-once": k.exactlyOnce / k.atLeastOnce,
  };
}

/** The Kafka section as a table. */
export function formatKafka(k: KafkaFigures): string {
  const rate = (n: number) => `${Math.round(n).toLocaleString("en-US")}/s`;
  const eo = k.latency["exactly-once"];
  const alo = k.latency["at-least-once"];
  return [
    `Kafka → keyed count → Kafka (${k.events.toLocaleString("en-US")} events, ${PARTITIONS} partitions, parallelism ${PARALLELISM}, in-process)`,
    "| run | records/s |",
    "|---|---|",
    `| client's own consume → count → produce loop | ${rate(k.clientLoop)} |`,
    `| exactly-once, checkpoints every ${CHECKPOINT_INTERVAL_MS} ms | ${rate(k.exactlyOnce)} |`,
    `| at-least-once, checkpoints every ${CHECKPOINT_INTERVAL_MS} ms | ${rate(k.atLeastOnce)} |`,
    "",
    `End-to-end latency, production → visible to read_committed (${LATENCY_RATE}/s for ${LATENCY_SECONDS} s)`,
    "| guarantee | p50 | p99 |",
    "|---|---|---|",
    `| exactly-once | ${eo.p50} ms | ${eo.p99} ms |`,
    `| at-least-once | ${alo.p50} ms | ${alo.p99} ms |`,
    `| added by exactly-once | ${eo.p50 - alo.p50} ms | ${eo.p99 - alo.p99} ms |`,
  ].join("\n");
}
