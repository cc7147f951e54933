/**
 * vitest's global setup: builds the test bundle (dist-dev/, scripts/dev-bundle.mjs) once per run, so that the
 * `weir` child processes of the suites (bin/weir-dev.mjs) start from it instead of compiling src/ through tsx;
 * and fetches the Kafka broker's jars once (scripts/kafka-jars.mjs) before test files start brokers in parallel.
 */
// @ts-expect-error: a JavaScript module without types
import { buildDevBundle } from "../../scripts/dev-bundle.mjs";
// @ts-expect-error: a JavaScript module without types
import { kafkaJars } from "../../scripts/kafka-jars.mjs";

export default async function setup(): Promise<void> {
  kafkaJars();
  await buildDevBundle();
}
