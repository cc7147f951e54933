/**
 * Whether a topic exists, asked once per topic and process before a sink's first send to it. A producer
 * retries a send to a missing topic until `delivery.timeout.ms`, and checkpoints cannot complete meanwhile;
 * this check answers in seconds (the client's metadata retries) so the job fails with a clear error.
 */
import { kafkaModule } from "./kafka-client.ts";
import { clientOptions, type KafkaConnectionSettings } from "./kafka-sink-settings.ts";

/** Topics seen to exist, by bootstrap servers and name (a topic is not expected to vanish under a running sink). */
const existing = new Set<string>();

/**
 * Resolves true when the brokers know `topic`, false when they answer that they do not; rejects for
 * other failures (brokers unreachable).
 *
 * @example
 * ```ts
 * if (!(await topicExists(settings, "orders"))) throw new Error("create the topic first");
 * ```
 */
export async function topicExists(settings: KafkaConnectionSettings, topic: string): Promise<boolean> {
  const key = `${settings.bootstrapServers.join(",")}\n${topic}`;
  if (existing.has(key)) return true;
  const { Admin } = await kafkaModule();
  const admin = new Admin({ ...clientOptions(settings, `${settings.clientId}-topic-check`), retries: 3 });
  try {
    await admin.metadata({ topics: [topic] });
    existing.add(key);
    return true;
  } catch (e) {
    if (e instanceof Error && /^Unknown topic /.test(e.message)) return false;
    throw e;
  } finally {
    await admin.close().catch(() => undefined);
  }
}
