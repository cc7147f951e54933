/**
 * A real Apache Kafka broker for a test (KRaft, one node acting as broker and controller, on 127.0.0.1 and
 * free ports, in a temporary folder), started from the broker's own jars (scripts/kafka-jars.mjs) with the
 * machine's Java 17. `stop()` ends it and deletes its data; `restart()` stops and starts it on the same ports
 * and data (a broker restart mid-job); `kill()` SIGKILLs it.
 */
import { spawn, execFile, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
// @ts-expect-error: a JavaScript module without types
import { kafkaJars } from "../../scripts/kafka-jars.mjs";
import { stopProcess } from "./stop-process.ts";

/** A running broker. */
export interface KafkaBroker {
  /** `127.0.0.1:<port>` of its PLAINTEXT listener. */
  readonly bootstrap: string;
  readonly port: number;
  /** Stops it (SIGTERM, then SIGKILL after 15 s) and starts it again on the same ports and data. */
  restart(): Promise<void>;
  /** SIGKILLs it (data kept: `start()` again with `restart`). */
  kill(): Promise<void>;
  /** Stops it and deletes its folder. */
  stop(): Promise<void>;
  /** The broker's log so far (for a failing test's message). */
  log(): string;
  /** SIGKILLs it now, synchronously (a vitest process exiting without its teardown); its folder stays. */
  killNow(): void;
}

/** A port nobody listens on now (the OS's pick). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

function properties(dir: string, port: number, controllerPort: number, extra: Record<string, string>): string {
  const settings: Record<string, string> = {
    "process.roles": "broker,controller",
    "node.id": "1",
    "controller.quorum.bootstrap.servers": `127.0.0.1:${controllerPort}`,
    listeners: `PLAINTEXT://127.0.0.1:${port},CONTROLLER://127.0.0.1:${controllerPort}`,
    "advertised.listeners": `PLAINTEXT://127.0.0.1:${port}`,
    "controller.listener.names": "CONTROLLER",
    "listener.security.protocol.map": "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT",
    "inter.broker.listener.name": "PLAINTEXT",
    "log.dirs": join(dir, "data"),
    "num.partitions": "1",
    "offsets.topic.replication.factor": "1",
    "offsets.topic.num.partitions": "4",
    "transaction.state.log.replication.factor": "1",
    "transaction.state.log.min.isr": "1",
    "transaction.state.log.num.partitions": "4",
    "group.initial.rebalance.delay.ms": "0",
    "auto.create.topics.enable": "false",
    // the suites write records with timestamps of 1970 (1000 + n): under the default 7 days of retention the
    // broker's retention check, five minutes after it starts, would delete them while a suite still reads them
    "log.retention.ms": "-1",
    ...extra,
  };
  return Object.entries(settings).map(([k, v]) => `${k}=${v}`).join("\n") + "\n";
}

const LOG4J = `rootLogger.level = WARN
rootLogger.appenderRef.out.ref = out
appender.out.type = Console
appender.out.name = out
appender.out.layout.type = PatternLayout
appender.out.layout.pattern = [%d] %p %m (%c)%n
logger.markers.name = kafka.coordinator.transaction.TransactionMarkerChannelManager
logger.markers.level = INFO
`;

/**
 * JVM flags: a small heap and the quick JIT (tests, not throughput); log4j keeps logging while the broker
 * shuts down (by default its shutdown hook stops it first, hiding what the broker does then).
 */
const JVM = ["-Xms64m", "-Xmx512m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xshare:auto", "-Dlog4j2.shutdownHookEnabled=false"];

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new Socket();
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
    socket.connect(port, "127.0.0.1");
  });
}

/**
 * Starts a broker; `settings` are added to (or replace) its server.properties (e.g. `transaction.max.timeout.ms`).
 *
 * @example
 * ```ts
 * const broker = await startKafkaBroker();
 * afterAll(() => broker.stop());
 * ```
 */
export async function startKafkaBroker(settings: Record<string, string> = {}): Promise<KafkaBroker> {
  const lib: string = kafkaJars();
  const dir = mkdtempSync(join(tmpdir(), "weir-kafka-"));
  const port = await freePort();
  const controllerPort = await freePort();
  const config = join(dir, "server.properties");
  writeFileSync(config, properties(dir, port, controllerPort, settings));
  writeFileSync(join(dir, "log4j2.properties"), LOG4J);
  const logFile = join(dir, "broker.log");
  const classpath = join(lib, "*");
  const log4j = `-Dlog4j2.configurationFile=${join(dir, "log4j2.properties")}`;
  // As Kafka's own Uuid.randomUuid: never one starting with "-", which the storage tool takes for an option.
  let clusterId = randomBytes(16).toString("base64url");
  while (clusterId.startsWith("-")) clusterId = randomBytes(16).toString("base64url");
  // Not execFileSync: the shared broker starts in vitest's own process, which must keep answering its workers.
  await promisify(execFile)("java", [...JVM, log4j, "-cp", classpath, "kafka.tools.StorageTool", "format", "--standalone", "-t", clusterId, "-c", config]);
  let child: ChildProcess | undefined;
  let output = "";
  const log = (): string => {
    try {
      return output + readFileSync(logFile, "utf8");
    } catch {
      return output;
    }
  };

  const start = async (): Promise<void> => {
    const proc = spawn("java", [...JVM, log4j, "-cp", classpath, "kafka.Kafka", config], { stdio: ["ignore", "pipe", "pipe"] });
    child = proc;
    proc.stdout!.on("data", (d: Buffer) => (output = (output + d.toString()).slice(-20_000)));
    proc.stderr!.on("data", (d: Buffer) => (output = (output + d.toString()).slice(-20_000)));
    const deadline = Date.now() + 60_000;
    while (!(await accepts(port))) {
      if (proc.exitCode !== null || proc.signalCode !== null) throw new Error(`the Kafka broker exited at start (${proc.exitCode ?? proc.signalCode}):\n${log().slice(-4000)}`);
      if (Date.now() > deadline) throw new Error(`the Kafka broker did not listen on ${port} within 60 s:\n${log().slice(-4000)}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };

  const end = async (signal: NodeJS.Signals): Promise<void> => {
    const proc = child;
    child = undefined;
    await stopProcess(proc, signal);
  };

  await start();
  return {
    bootstrap: `127.0.0.1:${port}`,
    port,
    restart: async () => {
      await end("SIGTERM");
      await start();
    },
    kill: () => end("SIGKILL"),
    stop: async () => {
      await end("SIGTERM");
      rmSync(dir, { recursive: true, force: true });
    },
    log,
    killNow: () => void child?.kill("SIGKILL"),
  };
}
