/**
 * Exactly-once end to end through Kafka under real crashes: a 4-partition topic of 200 000 orders → `weir run`
 * (KafkaSource → keyBy → running total in keyed state → exactly-once KafkaSink) at parallelism 3 on 2 workers,
 * SIGKILLed at seeded random moments and restarted with the same command until a run reads to the end of the
 * bounded input. A read_committed consumer then reads exactly the output of a failure-free run — none lost,
 * none twice, every key's totals in order — and the topic holds no open transaction. Reproduce a failure with
 * WEIR_SEED=<seed>.
 */
import { join } from "node:path";
import { beforeAll, expect, it } from "vitest";
import { testSeed, seededRandom, randomInt } from "../src/util/seeded-random.ts";
import { expectLoopEndedCleanly, killLoop } from "./support/e2e-kill-loop.ts";
import { describeDiff, diffTotals, expectedTotals, generateOrders, type E2eTotal } from "./support/e2e-orders.ts";
import { sharedKafkaBroker, type SharedKafkaBroker } from "./support/shared-kafka.ts";
import { committedRecords } from "./support/kafka-committed.ts";
import { createTopic, partitionEnds, produceRecords } from "./support/kafka-topics.ts";
import { tempDirs } from "./support/temp-dirs.ts";

const SEED = testSeed();
const PARTITIONS = 4;
const PER_PARTITION = 50_000;
const KILLS = 4;
const newDir = tempDirs("weir-kafka-kill-loop-");
let broker: SharedKafkaBroker;

beforeAll(async () => {
  broker = await sharedKafkaBroker();
}, 90_000);

it(`weir run with a Kafka source and an exactly-once Kafka sink, SIGKILLed ${KILLS} times (seed ${SEED}): read_committed sees each total once, in per-key order`, async () => {
  const orders = generateOrders(SEED, PARTITIONS, PER_PARTITION, 40);
  const [ordersTopic, totalsTopic] = [broker.name("orders"), broker.name("totals")];
  await createTopic(broker.bootstrap, [ordersTopic, totalsTopic], PARTITIONS);
  for (let p = 0; p < PARTITIONS; p++) {
    await produceRecords(broker.bootstrap, ordersTopic, orders[p]!.map((o) => ({ key: o.key, value: JSON.stringify(o), partition: p })));
  }
  const random = seededRandom(SEED);
  const interval = randomInt(random, 100, 300);
  const checkpoints = join(newDir(), "chk");
  const command = [
    "run", "test/fixtures/kafka-running-total-job.ts",
    "--parallelism", "3", "--workers", "2", "--checkpoint-interval", String(interval), "--mode", "exactly-once", "--checkpoint-dir", checkpoints,
    "--", broker.bootstrap, ordersTopic, totalsTopic, broker.name("kill-loop"), "20000",
  ];
  const report = await killLoop({ command, checkpointDir: checkpoints, kills: KILLS, random, delayMs: [0, 400], timeoutMs: 90_000 });
  const where = `seed ${SEED} (WEIR_SEED=${SEED}), checkpoint interval ${interval} ms, kills ${JSON.stringify(report.kills)}`;
  expectLoopEndedCleanly(report, KILLS, where);

  const committed = await committedRecords(broker.bootstrap, totalsTopic, PARTITIONS * PER_PARTITION);
  const totals = committed.map((r) => JSON.parse(r.value!) as E2eTotal);
  const diff = diffTotals(expectedTotals(orders), totals);
  expect(diff.missing.length + diff.duplicated.length + diff.wrong.length, `${where}: ${describeDiff(diff)}`).toBe(0);
  // Per key: its totals are in one partition, in the order of their counts.
  const last = new Map<string, number>();
  for (const r of committed) {
    const t = JSON.parse(r.value!) as E2eTotal;
    expect(r.key, where).toBe(t.key);
    expect(t.count, `${where}: key ${t.key} out of order at partition ${r.partition} offset ${r.offset}`).toBe((last.get(t.key) ?? 0) + 1);
    last.set(t.key, t.count);
  }
  // No transaction is left open: every partition becomes stable up to its end (commit markers land just after a commit).
  let ends = await partitionEnds(broker.bootstrap, totalsTopic);
  for (const deadline = Date.now() + 15_000; ends.some((p) => p.lastStable !== p.high) && Date.now() < deadline; ) {
    await new Promise((r) => setTimeout(r, 100));
    ends = await partitionEnds(broker.bootstrap, totalsTopic);
  }
  expect(ends.filter((p) => p.lastStable !== p.high), `${where}: partitions with an open transaction`).toEqual([]);
}, 400_000);
