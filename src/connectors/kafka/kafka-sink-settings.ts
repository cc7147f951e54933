/**
 * The Kafka sink's settings: what the builder collects, checked and resolved once when the sink is built
 * (Kafka's producer property names, their defaults, and the client options they become).
 */
import { KafkaConfigError, parseBootstrapServers } from "./kafka-config.ts";
import { DeliveryGuarantee } from "./delivery-guarantee.ts";
import type { KafkaRecordSerializationSchema } from "./kafka-record-serialization-schema.ts";

export const CONNECTOR = "KafkaSink";

/**
 * Default `transaction.timeout.ms`: 15 minutes, the broker's default `transaction.max.timeout.ms` (the
 * largest timeout a default broker accepts). Longer is safer: a pre-committed transaction must outlive
 * a crash and restart, or the broker aborts it and its checkpoint's records are lost. Flink sets one
 * hour, which a default broker refuses.
 */
export const DEFAULT_TRANSACTION_TIMEOUT_MS = 900_000;

/** The producer properties the sink understands (Kafka's names) and their defaults. */
const PROPERTIES = {
  "bootstrap.servers": undefined,
  "transaction.timeout.ms": String(DEFAULT_TRANSACTION_TIMEOUT_MS),
  acks: "all",
  "enable.idempotence": undefined,
  "buffer.memory": String(32 << 20),
  "max.request.size": String(1 << 20),
  "delivery.timeout.ms": "120000",
  "retry.backoff.ms": "250",
  "request.timeout.ms": "30000",
  "client.id": "weir-kafka-sink",
  "transactional.id.prefix": undefined,
} as const satisfies Record<string, string | undefined>;

/** The resolved settings of a Kafka sink. */
export interface KafkaSinkSettings<T> {
  readonly bootstrapServers: readonly string[];
  readonly serializer: KafkaRecordSerializationSchema<T>;
  readonly deliveryGuarantee: DeliveryGuarantee;
  /** Required for EXACTLY_ONCE. */
  readonly transactionalIdPrefix: string | undefined;
  readonly transactionTimeoutMs: number;
  /** -1 (all), 0 or 1. */
  readonly acks: -1 | 0 | 1;
  /** The producer of NONE / AT_LEAST_ONCE is idempotent: a send retried after a slow answer is stored once. */
  readonly idempotence: boolean;
  readonly bufferMemory: number;
  readonly maxRequestSize: number;
  /** How long a send or commit is retried before it fails (then the job restores). */
  readonly deliveryTimeoutMs: number;
  readonly retryBackoffMs: number;
  readonly requestTimeoutMs: number;
  readonly clientId: string;
}

/** The settings of connections and transactions (everything but the serializer). */
export type KafkaConnectionSettings = Omit<KafkaSinkSettings<unknown>, "serializer">;

/** What the builder collected. */
export interface KafkaSinkBuilderState<T> {
  bootstrapServers?: string;
  serializer?: KafkaRecordSerializationSchema<T>;
  deliveryGuarantee: DeliveryGuarantee;
  transactionalIdPrefix?: string;
  properties: Record<string, string>;
}

function positive(name: string, value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new KafkaConfigError(CONNECTOR, `property '${name}' must be a positive integer, got '${value}'`);
  return n;
}

/** Checks and resolves what the builder collected (every error names the setting). */
export function resolveKafkaSinkSettings<T>(b: KafkaSinkBuilderState<T>): KafkaSinkSettings<T> {
  for (const key of Object.keys(b.properties))
    if (!(key in PROPERTIES))
      throw new KafkaConfigError(CONNECTOR, `unknown property '${key}' (supported: ${Object.keys(PROPERTIES).join(", ")})`);
  const prop = (k: keyof typeof PROPERTIES): string | undefined => b.properties[k] ?? PROPERTIES[k];
  const servers = b.bootstrapServers ?? b.properties["bootstrap.servers"];
  if (servers === undefined) throw new KafkaConfigError(CONNECTOR, "bootstrap servers are not set (setBootstrapServers(\"host:port\"))");
  const bootstrapServers = parseBootstrapServers(CONNECTOR, servers);
  if (b.serializer === undefined) throw new KafkaConfigError(CONNECTOR, "no record serializer: call setRecordSerializer(KafkaRecordSerializationSchema.builder()…build())");
  const guarantees = Object.values(DeliveryGuarantee) as string[];
  if (!guarantees.includes(b.deliveryGuarantee))
    throw new KafkaConfigError(CONNECTOR, `unknown delivery guarantee '${b.deliveryGuarantee}' (one of ${guarantees.join(", ")})`);
  const prefix = b.transactionalIdPrefix ?? b.properties["transactional.id.prefix"];
  if (prefix !== undefined && !/^[A-Za-z0-9._-]+$/.test(prefix))
    throw new KafkaConfigError(CONNECTOR, `transactional id prefix '${prefix}' may only hold letters, digits, '.', '_' and '-'`);
  if (b.deliveryGuarantee === DeliveryGuarantee.EXACTLY_ONCE && prefix === undefined)
    throw new KafkaConfigError(
      CONNECTOR,
      "EXACTLY_ONCE needs a transactional id prefix unique to this job (setTransactionalIdPrefix(\"my-job\")): transactions of jobs that share one fence and abort each other",
    );
  const acks = prop("acks")!;
  const acksValue = ({ all: -1, "-1": -1, "0": 0, "1": 1 } as const)[acks as "all"];
  if (acksValue === undefined) throw new KafkaConfigError(CONNECTOR, `property 'acks' must be all, -1, 0 or 1, got '${acks}'`);
  if (b.deliveryGuarantee !== DeliveryGuarantee.NONE && acksValue !== -1)
    throw new KafkaConfigError(CONNECTOR, `property 'acks'=${acks} cannot give ${b.deliveryGuarantee}: it needs acks=all`);
  const idempotenceProp = b.properties["enable.idempotence"];
  if (idempotenceProp !== undefined && idempotenceProp !== "true" && idempotenceProp !== "false")
    throw new KafkaConfigError(CONNECTOR, `property 'enable.idempotence' must be true or false, got '${idempotenceProp}'`);
  if (idempotenceProp === "true" && acksValue !== -1) throw new KafkaConfigError(CONNECTOR, `property 'enable.idempotence'=true needs acks=all, got acks=${acks}`);
  return {
    bootstrapServers,
    // As Kafka's producer since 3.0: idempotent unless turned off or acks is lowered.
    idempotence: idempotenceProp === undefined ? acksValue === -1 : idempotenceProp === "true",
    serializer: b.serializer,
    deliveryGuarantee: b.deliveryGuarantee,
    transactionalIdPrefix: prefix,
    transactionTimeoutMs: positive("transaction.timeout.ms", prop("transaction.timeout.ms")!),
    acks: acksValue,
    bufferMemory: positive("buffer.memory", prop("buffer.memory")!),
    maxRequestSize: positive("max.request.size", prop("max.request.size")!),
    deliveryTimeoutMs: positive("delivery.timeout.ms", prop("delivery.timeout.ms")!),
    retryBackoffMs: positive("retry.backoff.ms", prop("retry.backoff.ms")!),
    requestTimeoutMs: positive("request.timeout.ms", prop("request.timeout.ms")!),
    clientId: prop("client.id")!,
  };
}

/** The client options every producer of the sink shares (retries cover `delivery.timeout.ms`). */
export function clientOptions(s: KafkaConnectionSettings, clientId: string): {
  clientId: string;
  bootstrapBrokers: string[];
  retries: number;
  retryDelay: number;
  requestTimeout: number;
  connectTimeout: number;
} {
  return {
    clientId,
    bootstrapBrokers: [...s.bootstrapServers],
    retries: Math.max(1, Math.ceil(s.deliveryTimeoutMs / s.retryBackoffMs)),
    retryDelay: s.retryBackoffMs,
    requestTimeout: s.requestTimeoutMs,
    connectTimeout: Math.min(5000, s.requestTimeoutMs),
  };
}
