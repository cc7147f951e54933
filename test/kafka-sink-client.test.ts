/**
 * What the exactly-once Kafka sink relies on in @platformatic/kafka and the broker, pinned against a real
 * broker: the producer's `timeout` option is the transaction timeout and its `producerId`/`producerEpoch`
 * options are InitProducerId's expected ones; a transaction of a producer that is gone is committed by
 * EndTxn with its stored id and epoch (again: success), refused once the broker aborted it; open
 * transactions are listed and aborted by id; a partition a transaction left open gets its marker written
 * (DescribeProducers, DescribeTransactions and WriteTxnMarkers v1, which the sink sends itself).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { Connection, describeTransactionsV0, findCoordinatorV6, Producer } from "@platformatic/kafka";
import { abortTransactionById, commitStoredTransaction, listOngoingTransactions } from "../src/connectors/kafka/kafka-transaction-admin.ts";
import { ensureTransactionClosed } from "../src/connectors/kafka/kafka-transaction-markers.ts";
import { resolveKafkaSinkSettings } from "../src/connectors/kafka/kafka-sink-settings.ts";
import { sharedKafkaBroker, type SharedKafkaBroker } from "./support/shared-kafka.ts";
import { createTopic, readTopic } from "./support/kafka-topics.ts";
import { committedRecords } from "./support/kafka-committed.ts";

let broker: SharedKafkaBroker;
beforeAll(async () => {
  broker = await sharedKafkaBroker();
  await createTopic(broker.bootstrap, broker.name("pin"), 1);
}, 90_000);

const settings = () =>
  resolveKafkaSinkSettings({ bootstrapServers: broker.bootstrap, serializer: { serialize: () => null }, deliveryGuarantee: "exactly-once", transactionalIdPrefix: broker.name("pin"), properties: {} });

/** A transactional producer as the sink makes it, with one record sent in an open transaction. */
async function openTransaction(id: string, timeout: number, value: string, producerId = -1n, producerEpoch = -1) {
  const producer = new Producer({ clientId: "pin", bootstrapBrokers: [broker.bootstrap], transactionalId: id, idempotent: true, timeout, producerId, producerEpoch });
  const transaction = await producer.beginTransaction();
  await transaction.send({ messages: [{ topic: broker.name("pin"), value: Buffer.from(value) }] });
  return { producer, transaction, stored: { transactionalId: id, producerId: producer.producerId!, epoch: producer.producerEpoch! } };
}

async function describeTransaction(id: string) {
  const [host, port] = broker.bootstrap.split(":") as [string, string];
  const c = new Connection("pin");
  await c.connect(host, Number(port));
  try {
    const coordinator = (await findCoordinatorV6.api.async(c, 1, [id])).coordinators[0]!;
    expect(coordinator.port).toBe(broker.port);
    return (await describeTransactionsV0.api.async(c, [id])).transactionStates[0]!;
  } finally {
    await c.close();
  }
}

const committedValues = async () => (await readTopic(broker.bootstrap, broker.name("pin"), { committed: true })).map((r) => r.value);
/** The committed values once `value` is among them (the commit markers land just after the commit). */
const committedWith = async (value: string) => (await committedRecords(broker.bootstrap, broker.name("pin"), (r) => r.some((x) => x.value === value))).map((r) => r.value);

describe("@platformatic/kafka and the broker, as the Kafka sink uses them", () => {
  it("the producer's `timeout` is the transaction's timeout; listed as ongoing until the end", async () => {
    const { producer, transaction } = await openTransaction(broker.name("pin-timeout"), 123_456, "t");
    expect((await describeTransaction(broker.name("pin-timeout"))).transactionTimeoutMs).toBe(123_456);
    expect(await listOngoingTransactions(settings())).toContain(broker.name("pin-timeout"));
    await transaction.abort();
    await producer.close();
    expect(await listOngoingTransactions(settings())).not.toContain(broker.name("pin-timeout"));
  });

  it("EndTxn(commit) with the stored id and epoch commits a transaction whose producer is gone; a repeat succeeds", async () => {
    const { producer, stored } = await openTransaction(broker.name("pin-commit"), 60_000, "committed-by-id");
    await producer.close(); // the transaction stays open on the broker
    expect(await committedValues()).not.toContain("committed-by-id");
    expect(await commitStoredTransaction(settings(), stored)).toBe("committed");
    expect(await committedWith("committed-by-id")).toContain("committed-by-id");
    expect(await commitStoredTransaction(settings(), stored)).toBe("committed");
    expect((await committedWith("committed-by-id")).filter((v) => v === "committed-by-id")).toHaveLength(1);
  });

  it("InitProducerId aborts an open transaction; EndTxn(commit) of it is refused; the id is taken over with -1, not with the client's default 0", async () => {
    const { producer, stored } = await openTransaction(broker.name("pin-abort"), 60_000, "aborted");
    await producer.close();
    await abortTransactionById(settings(), broker.name("pin-abort"));
    const refused = await commitStoredTransaction(settings(), stored);
    expect(refused).toEqual({ refused: expect.stringMatching(/PRODUCER_FENCED|INVALID_PRODUCER_EPOCH/) });
    expect(await committedValues()).not.toContain("aborted");
    await expect(openTransaction(broker.name("pin-abort"), 60_000, "x", 0n, 0)).rejects.toThrow(/InitProducerId/);
    const again = await openTransaction(broker.name("pin-abort"), 60_000, "reused");
    await again.transaction.commit();
    await again.producer.close();
    expect(await committedWith("reused")).toContain("reused");
  });

  it("a partition left open by a transaction gets the missing COMMIT marker; none is written where the coordinator wrote it", async () => {
    await createTopic(broker.bootstrap, broker.name("pin-markers"), 2);
    const producer = new Producer({ clientId: "pin", bootstrapBrokers: [broker.bootstrap], transactionalId: broker.name("pin-markers"), idempotent: true, timeout: 60_000, producerId: -1n, producerEpoch: -1 });
    const transaction = await producer.beginTransaction();
    const sent = await transaction.send({ messages: [{ topic: broker.name("pin-markers"), partition: 1, value: Buffer.from("m") }] });
    expect(sent.offsets).toEqual([{ topic: broker.name("pin-markers"), partition: 1, offset: 0n }]);
    const stored = { transactionalId: broker.name("pin-markers"), producerId: producer.producerId!, epoch: producer.producerEpoch! };
    expect(await readTopic(broker.bootstrap, broker.name("pin-markers"), { committed: true })).toEqual([]);
    // The coordinator is not sending markers (the transaction is Ongoing there, as for a skipped marker
    // once it completed): partition 1 is open, partition 0 was never written and gets nothing.
    expect(await ensureTransactionClosed(settings(), stored, { [broker.name("pin-markers")]: [0, 1] }, true)).toEqual([broker.name("pin-markers-1")]);
    expect((await readTopic(broker.bootstrap, broker.name("pin-markers"), { committed: true })).map((r) => r.value)).toEqual(["m"]);
    expect(await ensureTransactionClosed(settings(), stored, { [broker.name("pin-markers")]: [0, 1] }, true)).toEqual([]);
    await transaction.commit();
    await producer.close();
    expect(await ensureTransactionClosed(settings(), stored, { [broker.name("pin-markers")]: [0, 1] }, true)).toEqual([]);
    expect((await readTopic(broker.bootstrap, broker.name("pin-markers"), { committed: true })).map((r) => r.value)).toEqual(["m"]);
  });
});
