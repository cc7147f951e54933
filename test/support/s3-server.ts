/**
 * A real S3-compatible server for a test: S3Proxy (scripts/s3proxy-jar.mjs) with jclouds' file-system
 * backend in a temporary folder, on 127.0.0.1 and a free port, with fixed credentials (AWS signature v2/v4),
 * started with the machine's Java 17 (about 1 s). `stop()` ends it and deletes its data.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CreateBucketCommand, S3Client } from "@aws-sdk/client-s3";
// @ts-expect-error: a JavaScript module without types
import { s3ProxyJar } from "../../scripts/s3proxy-jar.mjs";
import type { FileSystems } from "../../src/checkpoint/storage/storage-file-system.ts";
import type { S3Settings } from "../../src/checkpoint/types.ts";
import { freePort } from "./kafka-broker.ts";
import { stopProcess } from "./stop-process.ts";

/** A running S3 server. */
export interface S3Server {
  /** `http://127.0.0.1:<port>`. */
  readonly endpoint: string;
  /** What a job needs to reach it (endpoint, path-style access, the credentials). */
  readonly settings: S3Settings;
  /** The same as `-D` flags of `weir run` (`s3.endpoint=…`, …). */
  readonly flags: readonly string[];
  /** A client of it for the test's own requests (create buckets, read or damage objects). */
  readonly client: S3Client;
  /** Creates a bucket. */
  createBucket(name: string): Promise<void>;
  /** Stops it (SIGTERM) and deletes its folder. */
  stop(): Promise<void>;
  /** The server's output so far (for a failing test's message). */
  log(): string;
}

const ACCESS_KEY = "weir-test";
const SECRET_KEY = "weir-test-secret";
/** A small heap and the quick JIT: a test server, not throughput. */
const JVM = ["-Xms32m", "-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xshare:auto"];

/**
 * Starts S3Proxy with `buckets` created.
 *
 * @example
 * ```ts
 * const s3 = await startS3Server(["checkpoints"]);
 * afterAll(() => s3.stop());
 * env.configure({ "state.checkpoints.dir": "s3://checkpoints/job", "s3.endpoint": s3.endpoint, ... });
 * ```
 */
export async function startS3Server(buckets: readonly string[] = []): Promise<S3Server> {
  const jar: string = s3ProxyJar();
  const dir = mkdtempSync(join(tmpdir(), "weir-s3-"));
  mkdirSync(join(dir, "data"));
  const port = await freePort();
  const endpoint = `http://127.0.0.1:${port}`;
  writeFileSync(
    join(dir, "s3proxy.conf"),
    [
      `s3proxy.endpoint=${endpoint}`,
      "s3proxy.authorization=aws-v2-or-v4",
      `s3proxy.identity=${ACCESS_KEY}`,
      `s3proxy.credential=${SECRET_KEY}`,
      "jclouds.provider=filesystem",
      `jclouds.filesystem.basedir=${join(dir, "data")}`,
      "",
    ].join("\n"),
  );
  let output = "";
  const proc: ChildProcess = spawn("java", [...JVM, "-jar", jar, "--properties", join(dir, "s3proxy.conf")], { stdio: ["ignore", "pipe", "pipe"] });
  proc.stdout!.on("data", (d: Buffer) => (output = (output + d.toString()).slice(-20_000)));
  proc.stderr!.on("data", (d: Buffer) => (output = (output + d.toString()).slice(-20_000)));
  const settings: S3Settings = { endpoint, pathStyleAccess: true, accessKey: ACCESS_KEY, secretKey: SECRET_KEY, region: "us-east-1" };
  const client = new S3Client({ endpoint, forcePathStyle: true, region: "us-east-1", credentials: { accessKeyId: ACCESS_KEY, secretAccessKey: SECRET_KEY } });
  const stop = async (): Promise<void> => {
    client.destroy();
    await stopProcess(proc, "SIGTERM");
    rmSync(dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (proc.exitCode !== null || proc.signalCode !== null) throw new Error(`S3Proxy exited at start (${proc.exitCode ?? proc.signalCode}):\n${output.slice(-4000)}`);
    const answered = await fetch(endpoint).then(() => true, () => false);
    if (answered) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`S3Proxy did not answer on ${endpoint} within 60 s:\n${output.slice(-4000)}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  const createBucket = async (name: string): Promise<void> => void (await client.send(new CreateBucketCommand({ Bucket: name })));
  for (const b of buckets) await createBucket(b);
  return {
    endpoint,
    settings,
    flags: [`s3.endpoint=${endpoint}`, "s3.path.style.access=true", `s3.access-key=${ACCESS_KEY}`, `s3.secret-key=${SECRET_KEY}`, "s3.region=us-east-1"],
    client,
    createBucket,
    stop,
    log: () => output,
  };
}

/** `server`'s `-D` flags for `weir run`, with `endpoint` instead of the server's own when given (a proxy, a dead port). */
export function s3RunFlags(server: S3Server, endpoint = server.endpoint): string[] {
  return server.flags.flatMap((f) => ["-D", f.startsWith("s3.endpoint=") ? `s3.endpoint=${endpoint}` : f]);
}

/** Ids of the checkpoints under `dir` (an s3:// URI) that have their `_metadata`, ascending. */
export async function completedS3CheckpointIds(fileSystems: FileSystems, dir: string): Promise<number[]> {
  const fs = fileSystems(dir);
  const ids: number[] = [];
  for (const name of (await fs.list(dir)).directories) {
    if (/^chk-\d+$/.test(name) && (await fs.size(`${dir}/${name}/_metadata`)) !== null) ids.push(Number(name.slice(4)));
  }
  return ids.sort((a, b) => a - b);
}
