/**
 * A private etcd for a test: Debian's `etcd` (package `etcd-server`, binary /usr/bin/etcd) as a one-member
 * cluster on 127.0.0.1 (or another address of this machine) with free client and peer ports and a temporary data directory, started and awaited
 * until `/health` answers. For partition-like tests it can be paused (SIGSTOP: the server neither answers nor
 * expires leases until resumed) or stopped and started again on the same ports and data.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "./kafka-broker.ts";
import { stopProcess } from "./stop-process.ts";

/** The binary of Debian's etcd-server package. */
export const ETCD_BINARY = process.env.WEIR_ETCD ?? "/usr/bin/etcd";

/** A running private etcd. */
export interface EtcdServer {
  /** `http://<host>:<client port>`: the value of `high-availability.etcd.endpoints`. */
  readonly endpoint: string;
  readonly clientPort: number;
  /** SIGSTOP: the server stops answering (connections stay open, calls hang) and its lease clock stops. */
  pause(): void;
  /** SIGCONT after {@link EtcdServer.pause}. */
  resume(): void;
  /** Stops the server (SIGTERM), keeping its data; `start()` brings it back on the same ports. */
  halt(): Promise<void>;
  /** Starts a halted server again and waits until it is healthy. */
  start(): Promise<void>;
  /** Stops it and deletes its data directory. */
  stop(): Promise<void>;
  /** The server's output so far (for a failing test's message). */
  log(): string;
}

/**
 * Starts a private etcd on `host` (an address of this machine; default 127.0.0.1) and waits (up to 60 s) until it reports healthy.
 *
 * @example
 * ```ts
 * const etcd = await startEtcd();
 * afterAll(() => etcd.stop());
 * const conf = new Configuration().setString("high-availability.etcd.endpoints", etcd.endpoint);
 * ```
 */
export async function startEtcd(host = "127.0.0.1"): Promise<EtcdServer> {
  if (!existsSync(ETCD_BINARY)) throw new Error(`no etcd at ${ETCD_BINARY}: apt-get install -y etcd-server (or set WEIR_ETCD)`);
  const dir = mkdtempSync(join(tmpdir(), "weir-etcd-"));
  const clientPort = await freePort();
  const peerPort = await freePort();
  const client = `http://${host}:${clientPort}`;
  const peer = `http://${host}:${peerPort}`;
  const args = [
    "--name=weir-test",
    `--data-dir=${join(dir, "data")}`,
    `--listen-client-urls=${client}`,
    `--advertise-client-urls=${client}`,
    `--listen-peer-urls=${peer}`,
    `--initial-advertise-peer-urls=${peer}`,
    `--initial-cluster=weir-test=${peer}`,
    "--initial-cluster-state=new",
    "--logger=zap",
    "--log-level=warn",
  ];
  let child: ChildProcess | undefined;
  let output = "";

  const healthy = async (): Promise<boolean> => {
    try {
      const res = await fetch(`${client}/health`, { signal: AbortSignal.timeout(2_000) });
      return res.ok && ((await res.json()) as { health?: string }).health === "true";
    } catch {
      return false;
    }
  };

  const start = async (): Promise<void> => {
    const proc = spawn(ETCD_BINARY, args, { stdio: ["ignore", "pipe", "pipe"] });
    child = proc;
    const keep = (d: Buffer) => (output = (output + d.toString()).slice(-20_000));
    proc.stdout!.on("data", keep);
    proc.stderr!.on("data", keep);
    const deadline = Date.now() + 60_000;
    while (!(await healthy())) {
      if (proc.exitCode !== null || proc.signalCode !== null) throw new Error(`etcd exited at start (${proc.exitCode ?? proc.signalCode}):\n${output.slice(-4000)}`);
      if (Date.now() > deadline) throw new Error(`etcd was not healthy on ${client} within 60 s:\n${output.slice(-4000)}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };

  const halt = async (): Promise<void> => {
    const proc = child;
    child = undefined;
    proc?.kill("SIGCONT"); // a paused server would not act on SIGTERM
    await stopProcess(proc, "SIGTERM");
  };

  await start();
  return {
    endpoint: client,
    clientPort,
    pause: () => void child?.kill("SIGSTOP"),
    resume: () => void child?.kill("SIGCONT"),
    halt,
    start,
    stop: async () => {
      await halt();
      rmSync(dir, { recursive: true, force: true });
    },
    log: () => output,
  };
}
