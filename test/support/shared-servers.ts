/**
 * One PostgreSQL server and one Kafka broker per vitest run, shared by the test files that neither stop, kill
 * nor restart them (those keep a private one: startPostgres(), startKafkaBroker()). The global setup serves
 * them on a loopback HTTP address handed to the files with vitest's `provide` (`weirSharedServers`), and starts
 * each one the first time a file asks for it (sharedPostgres(), sharedKafkaBroker()): a run of files that need
 * neither starts neither. The teardown stops what was started; should vitest exit without it, the servers are
 * SIGKILLed on the way out. Files keep apart by names: a database suffix, a topic and transactional id prefix.
 */
import { createServer, type Server } from "node:http";
import { startKafkaBroker, type KafkaBroker } from "./kafka-broker.ts";
import { startPostgres, type PostgresServer } from "./postgres-server.ts";

declare module "vitest" {
  interface ProvidedContext {
    /** The base URL of the shared servers' service (`http://127.0.0.1:<port>`). */
    weirSharedServers: string;
  }
}

/** What a file learns of a shared server: where it listens. */
export interface SharedServerAddress {
  readonly port: number;
}

/** The service of the global setup: its URL, and `close()` for the teardown (stops the servers it started). */
export interface SharedServers {
  readonly url: string;
  close(): Promise<void>;
}

/**
 * The shared PostgreSQL server's settings: room for the prepared transactions, replication slots and
 * connections of two files at once (a private server's defaults are for one).
 */
const POSTGRES_SETTINGS = { max_prepared_transactions: "128", max_replication_slots: "64", max_wal_senders: "64", max_connections: "300" };

/**
 * Serves the shared servers, starting none yet.
 *
 * @example
 * ```ts
 * const shared = await serveSharedServers();
 * project.provide("weirSharedServers", shared.url);
 * return () => shared.close();
 * ```
 */
export async function serveSharedServers(): Promise<SharedServers> {
  let postgres: Promise<PostgresServer> | undefined;
  let kafka: Promise<KafkaBroker> | undefined;
  const started = (): Promise<PostgresServer | KafkaBroker>[] => [postgres, kafka].filter((s) => s !== undefined);
  const killAll = (): void => {
    for (const s of started()) void s.then((server) => server.killNow(), () => undefined);
  };
  const address = async (path: string): Promise<SharedServerAddress> => {
    if (path === "/postgres") return { port: (await (postgres ??= startPostgres(POSTGRES_SETTINGS))).port };
    if (path === "/kafka") return { port: (await (kafka ??= startKafkaBroker())).port };
    throw new Error(`no shared server at ${path}: /postgres or /kafka`);
  };
  const http: Server = createServer((request, response) => {
    address(request.url ?? "").then(
      (a) => response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(a)),
      (e: unknown) => response.writeHead(500, { "content-type": "text/plain" }).end(e instanceof Error ? e.message : String(e)),
    );
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const where = http.address();
  const port = typeof where === "object" && where !== null ? where.port : 0;
  process.once("exit", killAll);
  return {
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      await new Promise<void>((resolve) => http.close(() => resolve()));
      const servers = await Promise.allSettled(started());
      await Promise.all(servers.map((s) => (s.status === "fulfilled" ? s.value.stop() : undefined)));
      process.off("exit", killAll);
    },
  };
}

/**
 * The address of the shared server `kind`, started by the global setup's service on the first request.
 *
 * @example
 * ```ts
 * const { port } = await sharedServerAddress(inject("weirSharedServers"), "postgres");
 * ```
 */
export async function sharedServerAddress(url: string, kind: "postgres" | "kafka"): Promise<SharedServerAddress> {
  const response = await fetch(`${url}/${kind}`, { method: "POST" });
  const body = await response.text();
  if (!response.ok) throw new Error(`the shared ${kind} server did not start (global setup, test/support/shared-servers.ts): ${body}`);
  return JSON.parse(body) as SharedServerAddress;
}
