/**
 * vitest's global setup: builds the test bundle (dist-dev/, scripts/dev-bundle.mjs) once per run, so that the
 * `weir` child processes of the suites (bin/weir-dev.mjs) start from it instead of compiling src/ through tsx;
 * fetches the Kafka broker's jars (scripts/kafka-jars.mjs) and S3Proxy's (scripts/s3proxy-jar.mjs) once before
 * test files start servers in parallel; and
 * serves the run's shared PostgreSQL server and Kafka broker (shared-servers.ts: each started when a file first
 * asks for it, stopped by the teardown). The `weir` processes of the run register their jobs in a registry of
 * the run's own (`WEIR_HOME`), not in the user's.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
// @ts-expect-error: a JavaScript module without types
import { buildDevBundle } from "../../scripts/dev-bundle.mjs";
// @ts-expect-error: a JavaScript module without types
import { kafkaJars } from "../../scripts/kafka-jars.mjs";
// @ts-expect-error: a JavaScript module without types
import { s3ProxyJar } from "../../scripts/s3proxy-jar.mjs";
import { serveSharedServers } from "./shared-servers.ts";

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  kafkaJars();
  s3ProxyJar();
  await buildDevBundle();
  const home = (process.env.WEIR_HOME = mkdtempSync(join(tmpdir(), "weir-home-")));
  const shared = await serveSharedServers();
  project.provide("weirSharedServers", shared.url);
  return async () => {
    await shared.close();
    rmSync(home, { recursive: true, force: true });
  };
}
