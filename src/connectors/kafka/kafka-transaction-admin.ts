/**
 * What the exactly-once Kafka sink asks of transaction coordinators directly, with the client's public
 * low-level protocol APIs (Flink's way, which works on any broker ≥ 0.11):
 * - commit a pre-committed transaction of a crashed run by its stored transactional id, producer id and
 *   epoch, with `EndTxn(commit)` and WITHOUT `InitProducerId` (which would bump the epoch and abort it);
 * - abort a lingering transaction by `InitProducerId` on its transactional id (fences and aborts it);
 * - list the open transactions of every broker (each coordinates a part of them) with `ListTransactions`.
 * Retriable errors (coordinator moving or loading, broker unreachable) are retried until `delivery.timeout.ms`.
 */
import type { Connection } from "@platformatic/kafka";
import { KafkaConfigError } from "./kafka-config.ts";
import { kafkaModule } from "./kafka-client.ts";
import { CONNECTOR, type KafkaConnectionSettings } from "./kafka-sink-settings.ts";

/** FindCoordinator's key type of a transaction coordinator. */
const TRANSACTION_KEY_TYPE = 1;

/** Broker answers after which an EndTxn(commit) of a stored transaction cannot succeed any more. */
const GONE = ["INVALID_PRODUCER_EPOCH", "PRODUCER_FENCED", "INVALID_TXN_STATE", "INVALID_PRODUCER_ID_MAPPING", "TRANSACTIONAL_ID_NOT_FOUND"] as const;

type Settings = KafkaConnectionSettings;

/** The broker error name (`INVALID_TXN_STATE`, …) inside a client error, if any. */
export function brokerErrorId(e: unknown, ids: readonly string[]): string | undefined {
  const find = (e as { findBy?: (p: string, v: unknown) => unknown } | null)?.findBy;
  if (typeof find !== "function") return undefined;
  return ids.find((id) => find.call(e, "apiId", id) != null);
}

/** True for a client error worth retrying (network, timeout, or one the broker marks retriable). */
export function retriable(e: unknown): boolean {
  const err = e as { findBy?: (p: string, v: unknown) => unknown; code?: string } | null;
  if (err === null || typeof err !== "object") return false;
  if (err.code === "PLT_KFK_NETWORK" || err.code === "PLT_KFK_TIMEOUT" || err.code === "ECONNREFUSED" || err.code === "ECONNRESET") return true;
  return typeof err.findBy === "function" && (err.findBy("canRetry", true) != null || err.findBy("code", "PLT_KFK_NETWORK") != null);
}

/** Runs `fn` until it succeeds, retrying retriable errors every `retry.backoff.ms` until `delivery.timeout.ms`. */
export async function retrying<R>(s: Settings, fn: () => Promise<R>): Promise<R> {
  const deadline = Date.now() + s.deliveryTimeoutMs;
  for (;;) {
    try {
      return await fn();
    } catch (e) {
      if (!retriable(e) || Date.now() + s.retryBackoffMs > deadline) throw e;
      await new Promise((r) => setTimeout(r, s.retryBackoffMs));
    }
  }
}

/** Runs `fn` on a fresh connection to `host:port`, closed afterwards. */
export async function withConnection<R>(s: Settings, host: string, port: number, fn: (c: Connection) => Promise<R>): Promise<R> {
  const { Connection } = await kafkaModule();
  const c = new Connection(s.clientId, { connectTimeout: Math.min(5000, s.requestTimeoutMs), requestTimeout: s.requestTimeoutMs });
  // A socket error (the broker going away) is also emitted as an event, which unheard would crash the
  // process; the request in flight fails with it anyway (and is retried).
  c.on("error", () => undefined);
  try {
    await c.connect(host, port);
    return await fn(c);
  } finally {
    await c.close().catch(() => undefined);
  }
}

function hostPort(server: string): [string, number] {
  const i = server.lastIndexOf(":");
  return [server.slice(0, i), Number(server.slice(i + 1))];
}

/** Asks the bootstrap servers in turn (the first that answers). */
export async function onBootstrap<R>(s: Settings, fn: (c: Connection) => Promise<R>): Promise<R> {
  let last: unknown;
  for (const server of s.bootstrapServers) {
    try {
      return await withConnection(s, ...hostPort(server), fn);
    } catch (e) {
      last = e;
      if (!retriable(e)) throw e;
    }
  }
  throw last;
}

/** Runs `fn` on a connection to the coordinator of `transactionalId`. */
export async function onCoordinator<R>(s: Settings, transactionalId: string, fn: (c: Connection) => Promise<R>): Promise<R> {
  const { findCoordinatorV6 } = await kafkaModule();
  const found = await onBootstrap(s, (c) => findCoordinatorV6.api.async(c, TRANSACTION_KEY_TYPE, [transactionalId]));
  const coordinator = found.coordinators[0]!;
  return withConnection(s, coordinator.host, coordinator.port, fn);
}

/** A stored transaction as the protocol names it. */
export interface StoredTransaction {
  readonly transactionalId: string;
  readonly producerId: bigint;
  readonly epoch: number;
}

/**
 * Commits a stored pre-committed transaction: "committed" (also when it was committed before: a repeated
 * EndTxn(commit) succeeds), or the broker's error name when it cannot be committed any more (committed and
 * followed by newer epochs, or aborted by the broker after its timeout).
 */
export async function commitStoredTransaction(s: Settings, txn: StoredTransaction): Promise<"committed" | { readonly refused: string }> {
  const { endTxnV4 } = await kafkaModule();
  try {
    await retrying(s, () => onCoordinator(s, txn.transactionalId, (c) => endTxnV4.api.async(c, txn.transactionalId, txn.producerId, txn.epoch, true)));
    return "committed";
  } catch (e) {
    const gone = brokerErrorId(e, GONE);
    if (gone !== undefined) return { refused: gone };
    throw e;
  }
}

/** The broker refused `transaction.timeout.ms`. */
export function timeoutRefused(s: Settings): KafkaConfigError {
  return new KafkaConfigError(
    CONNECTOR,
    `the broker refused transaction.timeout.ms = ${s.transactionTimeoutMs} (INVALID_TRANSACTION_TIMEOUT): it is above the broker's ` +
      "transaction.max.timeout.ms (default 900000 = 15 min); lower the sink's 'transaction.timeout.ms' property or raise the broker's transaction.max.timeout.ms",
  );
}

/** Aborts whatever transaction `transactionalId` has open, by fencing it with a new producer epoch. */
export async function abortTransactionById(s: Settings, transactionalId: string): Promise<void> {
  const { initProducerIdV5 } = await kafkaModule();
  try {
    await retrying(s, () => onCoordinator(s, transactionalId, (c) => initProducerIdV5.api.async(c, transactionalId, s.transactionTimeoutMs, -1n, -1)));
  } catch (e) {
    if (brokerErrorId(e, ["INVALID_TRANSACTION_TIMEOUT"]) !== undefined) throw timeoutRefused(s);
    throw e;
  }
}

/** The transactional ids of the transactions open (state Ongoing) on any broker of the cluster. */
export async function listOngoingTransactions(s: Settings): Promise<string[]> {
  const { Admin, listTransactionsV1 } = await kafkaModule();
  const admin = new Admin({ clientId: s.clientId, bootstrapBrokers: [...s.bootstrapServers], retries: 0, requestTimeout: s.requestTimeoutMs });
  let brokers;
  try {
    brokers = [...(await retrying(s, () => admin.metadata({ topics: [] }))).brokers.values()];
  } finally {
    await admin.close().catch(() => undefined);
  }
  const ids: string[] = [];
  for (const b of brokers) {
    const r = await retrying(s, () => withConnection(s, b.host, b.port, (c) => listTransactionsV1.api.async(c, [], [], -1n, null)));
    for (const t of r.transactionStates) if (t.transactionState.toLowerCase() === "ongoing") ids.push(t.transactionalId);
  }
  return ids;
}
