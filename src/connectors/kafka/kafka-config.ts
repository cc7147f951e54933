/**
 * The checks of connection settings every Kafka connector shares, and the error of a setting that cannot
 * work (raised when the job is built, before anything runs).
 */

/** A Kafka connector's setting that cannot work (raised when the job is built, before anything runs). */
export class KafkaConfigError extends Error {
  constructor(connector: string, message: string) {
    super(`${connector}: ${message}`);
    this.name = "KafkaConfigError";
  }
}

/**
 * The `host:port` list of a `bootstrap.servers` setting (comma-separated, as in Kafka's clients).
 *
 * @example
 * ```ts
 * parseBootstrapServers("KafkaSource", "127.0.0.1:9092, kafka-2:9092"); // ["127.0.0.1:9092", "kafka-2:9092"]
 * ```
 */
export function parseBootstrapServers(connector: string, servers: string | readonly string[]): string[] {
  const list = (typeof servers === "string" ? servers.split(",") : [...servers]).map((s) => s.trim()).filter((s) => s !== "");
  if (list.length === 0) throw new KafkaConfigError(connector, "bootstrap servers are not set (setBootstrapServers(\"host:port\"))");
  for (const s of list) {
    const m = /^(.+):(\d{1,5})$/.exec(s);
    if (m === null || Number(m[2]) > 65535 || Number(m[2]) === 0) throw new KafkaConfigError(connector, `bootstrap server '${s}' is not host:port`);
  }
  return list;
}
