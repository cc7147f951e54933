/**
 * The properties a Kafka source understands (Kafka's consumer names and Flink's source names), their
 * defaults, and their checks. An unknown property is refused when the source is built: this client does
 * not speak every Kafka option (no SASL or TLS yet), and a setting silently ignored is worse than an error.
 */
import { didYouMean } from "../../util/did-you-mean.ts";
import { KafkaConfigError } from "./kafka-config.ts";
import type { OffsetResetStrategy } from "./offsets-initializer.ts";

const SOURCE = "KafkaSource";

/** The checked settings a reader uses. */
export interface KafkaSourceSettings {
  readonly isolationLevel: 0 | 1;
  /** Undefined: discovery disabled after the first. */
  readonly discoveryIntervalMs: number | undefined;
  readonly commitOffsetsOnCheckpoint: boolean;
  /** Undefined: derived from the starting offsets (as Flink). */
  readonly autoOffsetReset: OffsetResetStrategy | undefined;
  readonly connectTimeoutMs: number;
  readonly requestTimeoutMs: number;
  /** How long a reader that never reached a broker keeps trying before it fails. */
  readonly apiTimeoutMs: number;
  readonly fetchMaxWaitMs: number;
  readonly fetchMinBytes: number;
  readonly fetchMaxBytes: number;
  readonly partitionMaxBytes: number;
  readonly retryBackoffMs: number;
  readonly reconnectBackoffMaxMs: number;
}

type Parser = (key: string, value: string) => unknown;

function integer(min: number): Parser {
  return (key, value) => {
    const n = Number(value.trim());
    if (value.trim() === "" || !Number.isSafeInteger(n) || n < min) throw new KafkaConfigError(SOURCE, `property '${key}' must be an integer >= ${min}, got '${value}'`);
    return n;
  };
}

function oneOf(...allowed: string[]): Parser {
  return (key, value) => {
    if (!allowed.includes(value)) throw new KafkaConfigError(SOURCE, `property '${key}' must be one of ${allowed.join(", ")}, got '${value}'`);
    return value;
  };
}

const text: Parser = (_key, value) => value;

/** Every property: its parser and default (undefined: none). */
export const KAFKA_SOURCE_PROPERTIES: Readonly<Record<string, { parse: Parser; default?: string; doc: string }>> = {
  "bootstrap.servers": { parse: text, doc: "host:port list (same as setBootstrapServers)" },
  "group.id": { parse: text, doc: "group the offsets are committed to (same as setGroupId)" },
  "client.id.prefix": { parse: text, doc: "prefix of the client ids (same as setClientIdPrefix)" },
  "isolation.level": { parse: oneOf("read_committed", "read_uncommitted"), default: "read_committed", doc: "read_committed skips aborted and open transactions" },
  "partition.discovery.interval.ms": { parse: integer(-1), default: "300000", doc: "interval of partition discovery; -1 or 0 disables it" },
  "commit.offsets.on.checkpoint": { parse: oneOf("true", "false"), default: "true", doc: "commit the offsets of a completed checkpoint to the group" },
  "auto.offset.reset": { parse: oneOf("earliest", "latest", "none"), doc: "where an out-of-range offset resets to (default from the starting offsets)" },
  "socket.connection.setup.timeout.ms": { parse: integer(1), default: "10000", doc: "timeout of one connection attempt" },
  "request.timeout.ms": { parse: integer(1), default: "30000", doc: "timeout of one request" },
  "default.api.timeout.ms": { parse: integer(1), default: "60000", doc: "how long a reader that never reached a broker tries before failing" },
  "fetch.max.wait.ms": { parse: integer(0), default: "500", doc: "how long the broker may hold a fetch without data" },
  "fetch.min.bytes": { parse: integer(0), default: "1", doc: "bytes a fetch waits for" },
  "fetch.max.bytes": { parse: integer(1), default: "52428800", doc: "bytes per fetch response" },
  "max.partition.fetch.bytes": { parse: integer(1), default: "1048576", doc: "bytes per partition in a fetch response" },
  "retry.backoff.ms": { parse: integer(0), default: "100", doc: "first wait before retrying after a broker error" },
  "reconnect.backoff.max.ms": { parse: integer(0), default: "1000", doc: "longest wait between retries" },
};

/** Checks a property as it is set (name and value). */
export function checkProperty(key: string, value: string): void {
  const p = KAFKA_SOURCE_PROPERTIES[key];
  if (p === undefined) {
    const hint = didYouMean(key, Object.keys(KAFKA_SOURCE_PROPERTIES));
    throw new KafkaConfigError(SOURCE, `unknown property '${key}'${hint ? ` (did you mean '${hint}'?)` : ""}; supported: ${Object.keys(KAFKA_SOURCE_PROPERTIES).join(", ")}`);
  }
  if (typeof value !== "string") throw new KafkaConfigError(SOURCE, `property '${key}' must be a string, got ${typeof value}`);
  p.parse(key, value);
}

/**
 * The settings of a reader from the properties (checked already).
 *
 * @example
 * ```ts
 * kafkaSourceSettings(new Map([["isolation.level", "read_uncommitted"]]), "continuous").isolationLevel; // 0
 * ```
 */
export function kafkaSourceSettings(properties: ReadonlyMap<string, string>, bounded: boolean): KafkaSourceSettings {
  const get = <T>(key: string): T => {
    const p = KAFKA_SOURCE_PROPERTIES[key]!;
    const value = properties.get(key) ?? p.default;
    return (value === undefined ? undefined : p.parse(key, value)) as T;
  };
  const interval = get<number>("partition.discovery.interval.ms");
  return {
    isolationLevel: get<string>("isolation.level") === "read_committed" ? 1 : 0,
    discoveryIntervalMs: bounded || interval <= 0 ? undefined : interval,
    commitOffsetsOnCheckpoint: get<string>("commit.offsets.on.checkpoint") === "true",
    autoOffsetReset: get<OffsetResetStrategy | undefined>("auto.offset.reset"),
    connectTimeoutMs: get("socket.connection.setup.timeout.ms"),
    requestTimeoutMs: get("request.timeout.ms"),
    apiTimeoutMs: get("default.api.timeout.ms"),
    fetchMaxWaitMs: get("fetch.max.wait.ms"),
    fetchMinBytes: get("fetch.min.bytes"),
    fetchMaxBytes: get("fetch.max.bytes"),
    partitionMaxBytes: get("max.partition.fetch.bytes"),
    retryBackoffMs: get("retry.backoff.ms"),
    reconnectBackoffMaxMs: get("reconnect.backoff.max.ms"),
  };
}
