/**
 * Exactly-once SQL through Kafka under real crashes: `weir sql -f` of a statement set reading a `kafka` table
 * (200 000 JSON orders on 4 partitions, bounded at the latest offsets of the first start) into an
 * `upsert-kafka` table (at-least-once, idempotent upserts) and an exactly-once `kafka` debezium-json table,
 * at parallelism 2 on 2 workers, SIGKILLed at seeded random moments and started again with the same command
 * until a run finishes. The upsert topic folds to DuckDB's batch result; the exactly-once changelog topic
 * folds to it too and holds no replayed message (exactly the changelog of a failure-free run: an insert
 * for each key's first order, then a retraction and an update for each later one). Reproduce a failure
 * with WEIR_SEED=<seed>.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, expect, it } from "vitest";
import { MultisetTable } from "../../src/table/data/changelog.ts";
import { Row } from "../../src/table/data/row.ts";
import { randomInt, seededRandom, testSeed } from "../../src/util/seeded-random.ts";
import { batchResult } from "../support/duckdb-oracle.ts";
import { expectLoopEndedCleanly, killLoop } from "../support/e2e-kill-loop.ts";
import { committedRecords } from "../support/kafka-committed.ts";
import { sharedKafkaBroker, type SharedKafkaBroker } from "../support/shared-kafka.ts";
import { createTopic, produceRecords, readTopic } from "../support/kafka-topics.ts";
import { tempDirs } from "../support/temp-dirs.ts";

const SEED = testSeed();
const KILLS = 3;
const ORDERS = 200_000;
const PRODUCTS = 50;
const newDir = tempDirs("weir-kafka-sql-kill-loop-");
let broker: SharedKafkaBroker;

beforeAll(async () => {
  broker = await sharedKafkaBroker();
}, 90_000);

it(`weir sql -f of a statement set from kafka into upsert-kafka and exactly-once debezium-json kafka, killed at random moments (seed ${SEED})`, async () => {
  const random = seededRandom(SEED);
  const orders = Array.from({ length: ORDERS }, (_, id) => ({ id, product: `p${randomInt(random, 0, PRODUCTS - 1)}`, amount: randomInt(random, 0, 99) }));
  const topic = (name: string) => broker.name(name);
  await createTopic(broker.bootstrap, [topic("orders"), topic("totals"), topic("counts")], 4);
  await produceRecords(broker.bootstrap, topic("orders"), orders.map((o) => ({ key: String(o.id), value: JSON.stringify(o) })));
  const root = newDir();
  const checkpoints = join(root, "chk");
  const kafka = (name: string) => `'connector' = 'kafka', 'topic' = '${topic(name)}', 'properties.bootstrap.servers' = '${broker.bootstrap}'`;
  const script = join(root, "orders.sql");
  writeFileSync(
    script,
    [
      `CREATE TABLE orders (id INT, product STRING, amount INT) WITH (${kafka("orders")}, 'format' = 'json', 'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset')`,
      `CREATE TABLE totals (product STRING, total BIGINT, PRIMARY KEY (product) NOT ENFORCED) WITH ('connector' = 'upsert-kafka', 'topic' = '${topic("totals")}', 'properties.bootstrap.servers' = '${broker.bootstrap}', 'key.format' = 'raw', 'value.format' = 'json')`,
      `CREATE TABLE counts (product STRING, n BIGINT) WITH (${kafka("counts")}, 'key.format' = 'json', 'key.fields' = 'product', 'value.format' = 'debezium-json', 'sink.delivery-guarantee' = 'exactly-once', 'sink.transactional-id-prefix' = '${topic("sql-kill-loop")}')`,
      `EXECUTE STATEMENT SET BEGIN
        INSERT INTO totals SELECT product, SUM(CAST(amount AS BIGINT)) FROM orders GROUP BY product;
        INSERT INTO counts SELECT product, COUNT(*) FROM orders WHERE amount >= 50 GROUP BY product;
      END`,
    ].join(";\n") + ";\n",
  );
  const interval = randomInt(random, 100, 300);
  const command = ["sql", "-f", script, "--parallelism", "2", "--workers", "2", "--checkpoint-interval", String(interval), "--checkpoint-dir", checkpoints];
  const report = await killLoop({ command, checkpointDir: checkpoints, kills: KILLS, random, delayMs: [0, 400], timeoutMs: 90_000 });
  const where = `WEIR_SEED=${SEED}, checkpoint interval ${interval} ms, kills ${JSON.stringify(report.kills)}`;
  expectLoopEndedCleanly(report, KILLS, where);

  const table = [{ name: "orders", columns: "id INTEGER, product VARCHAR, amount INTEGER", rows: orders.map((o) => [o.id, o.product, o.amount]) }];
  const sorted = (rows: readonly Row[]) => rows.map((r) => Row.toString(r)).sort();
  // upsert-kafka: the last value per key (a tombstone deletes it), replays allowed.
  const totals = new Map<string, string | null>();
  for (const r of await readTopic(broker.bootstrap, topic("totals"), { committed: true })) totals.set(r.key!, r.value);
  const totalRows = [...totals].filter(([, v]) => v !== null).map(([k, v]) => Row.of(k, BigInt((JSON.parse(v!) as { total: number }).total)));
  expect(sorted(totalRows), where).toEqual(sorted(await batchResult(table, "SELECT product, CAST(SUM(amount) AS BIGINT) FROM orders GROUP BY product")));

  // exactly-once debezium-json: per key in order (one partition per key), folded strictly (a replayed retraction fails).
  const counted = orders.filter((o) => o.amount >= 50);
  const keys = new Set(counted.map((o) => o.product)).size;
  const messages = 2 * counted.length - keys;
  const changelog = await committedRecords(broker.bootstrap, topic("counts"), messages);
  const folded = new MultisetTable();
  for (const r of changelog) {
    const e = JSON.parse(r.value!) as { op: string; before: { product: string; n: number } | null; after: { product: string; n: number } | null };
    const image = e.op === "d" ? e.before! : e.after!;
    folded.apply(Row.ofKind(e.op === "d" ? "-D" : "+I", image.product, BigInt(image.n)));
  }
  expect(sorted(folded.sortedRows()), where).toEqual(sorted(await batchResult(table, "SELECT product, COUNT(*) FROM orders WHERE amount >= 50 GROUP BY product")));
  expect(changelog.length, `${where}: messages on the exactly-once changelog topic`).toBe(messages);
  expect((await readTopic(broker.bootstrap, topic("counts"), { committed: false })).length, `${where}: read_uncommitted sees replays only as aborted data`).toBeGreaterThanOrEqual(messages);
}, 300_000);
