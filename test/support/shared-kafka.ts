/**
 * The run's shared Kafka broker for a test file (see shared-servers.ts). Files keep apart by names: `name(x)`
 * puts the file's own prefix before a topic, transactional id prefix or consumer group (`f<6 hex>-x`), so that
 * files running at the same time, or one that crashed, neither read each other's records nor fence each other's
 * producers. A prefix in front keeps what a name says of another: `name("job-a")` is still a prefix of
 * `name("job-a-1")`. A file that restarts or kills the broker starts a private one (startKafkaBroker()).
 */
import { randomBytes } from "node:crypto";
import { inject } from "vitest";
import { sharedServerAddress } from "./shared-servers.ts";

/** The shared broker as one file sees it. */
export interface SharedKafkaBroker {
  /** `127.0.0.1:<port>` of its PLAINTEXT listener. */
  readonly bootstrap: string;
  readonly port: number;
  /** The file's prefix (`f` and 6 hex digits, then `-`). */
  readonly prefix: string;
  /** `name` with the file's prefix: for topics, transactional id prefixes, consumer groups. */
  name(name: string): string;
}

/**
 * The shared broker (started on the first call of the run) with a new name prefix.
 *
 * @example
 * ```ts
 * let broker: SharedKafkaBroker;
 * beforeAll(async () => void (broker = await sharedKafkaBroker()), 90_000);
 * await createTopic(broker.bootstrap, broker.name("orders"), 4);
 * ```
 */
export async function sharedKafkaBroker(): Promise<SharedKafkaBroker> {
  const { port } = await sharedServerAddress(inject("weirSharedServers"), "kafka");
  const prefix = `f${randomBytes(3).toString("hex")}-`;
  return { bootstrap: `127.0.0.1:${port}`, port, prefix, name: (name) => `${prefix}${name}` };
}
