/**
 * A cluster on this machine for the cluster suites: a job manager and task
 * managers as child processes of the shipped command (bin/weir.mjs on the
 * built dist/) on free ports of 127.0.0.1 (or on a host of a test network,
 * test/support/network-hosts.ts), each in a directory of its own
 * whose node_modules/weirjs is this repository (so an uploaded bundle imports
 * "weirjs" as a user's does); and job submission by plain HTTP calls.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeAll } from "vitest";
import { ROOT, startCli, waitFor, type RunningCli } from "./cli-process.ts";
import type { NetworkHost } from "./network-hosts.ts";

/**
 * The hooks of a cluster suite: builds dist/ first (the processes run the shipped command; a no-op when it is
 * newer than src/), and after each test SIGKILLs every process put in the returned list that still runs
 * (a frozen one is continued first, so that it can die).
 */
export function clusterSuite(): RunningCli[] {
  const started: RunningCli[] = [];
  beforeAll(() => {
    execFileSync(process.execPath, ["scripts/build.mjs"], { cwd: ROOT, stdio: "ignore" });
  }, 300_000);
  afterEach(() => {
    for (const cli of started.splice(0)) {
      if (cli.child.exitCode !== null) continue;
      cli.child.kill("SIGCONT");
      cli.child.kill("SIGKILL");
    }
  });
  return started;
}

/** Heartbeats of the suites: a lost task manager is noticed within seconds (not so soon that a loaded machine fakes a loss). */
export const FAST_HEARTBEATS = ["-D", "heartbeat.interval=200 ms", "-D", "heartbeat.timeout=5 s"];

/** A directory with package.json and node_modules/weirjs → this repository, under `parent`. */
export function processDir(parent: string, name: string): string {
  const dir = join(parent, name);
  mkdirSync(join(dir, "node_modules"), { recursive: true });
  writeFileSync(join(dir, "package.json"), JSON.stringify({ type: "module", private: true }));
  symlinkSync(ROOT, join(dir, "node_modules", "weirjs"), "dir");
  return dir;
}

/** A started job manager: its process, REST address and RPC port. */
export interface StartedJobManager {
  readonly cli: RunningCli;
  readonly url: string;
  readonly rpcPort: number;
}

/** The tokens of the job managers whose REST API asks for one (those on a network host), by origin: {@link jobManagerFetch} sends them. */
const tokens = new Map<string, string>();
/** The REST token of the job managers on network hosts: one for all, as a standby forwards calls with the caller's token to the leader. */
const HOSTS_REST_TOKEN = randomBytes(12).toString("hex");

/**
 * Starts `weir jobmanager` in `dir` on free ports; resolves once both its endpoints are up. On `host`, it binds
 * the host's address with the REST token of the job managers on hosts (a non-loopback REST API asks for one),
 * which the calls of this file send.
 */
export async function startJobManager(dir: string, flags: readonly string[] = [], host?: NetworkHost): Promise<StartedJobManager> {
  const token = host ? HOSTS_REST_TOKEN : undefined;
  const onHost = host ? ["-D", `jobmanager.rpc.address=${host.ip}`, "-D", `rest.address=${host.ip}`, "-D", `rest.token=${token}`] : [];
  const args = ["jobmanager", "-D", "rest.port=0", "-D", "jobmanager.rpc.port=0", ...FAST_HEARTBEATS, ...onHost, ...flags];
  const cli = startCli(args, {}, { cwd: dir, shipped: true, launcher: host?.launcher });
  const rpc = () => /job manager RPC at [^:]+:(\d+)/.exec(cli.stderr())?.[1];
  const rest = () => /REST API and dashboard at (http:\/\/\S+)/.exec(cli.stderr())?.[1];
  await waitFor(`the job manager's endpoints\n${cli.stderr()}`, () => (rpc() !== undefined && rest() !== undefined) || cli.child.exitCode !== null, 60_000);
  if (cli.child.exitCode !== null) throw new Error(`the job manager ended: ${cli.stderr()}`);
  if (token !== undefined) tokens.set(new URL(rest()!).origin, token);
  return { cli, url: rest()!, rpcPort: Number(rpc()) };
}

/** A started task manager: its process and resource id. */
export interface StartedTaskManager {
  readonly cli: RunningCli;
  readonly id: string;
}

/** Starts `weir taskmanager` with `slots` slots in `dir` (on `host`: at its address); resolves once it registered. */
export async function startTaskManager(dir: string, rpcPort: number, slots: number, flags: readonly string[] = [], host?: NetworkHost): Promise<StartedTaskManager> {
  const onHost = host ? ["-D", `taskmanager.host=${host.ip}`] : [];
  const args = ["taskmanager", "-D", `jobmanager.rpc.port=${rpcPort}`, "-D", `taskmanager.numberOfTaskSlots=${slots}`, ...FAST_HEARTBEATS, ...onHost, ...flags];
  const cli = startCli(args, {}, { cwd: dir, shipped: true, launcher: host?.launcher });
  const id = () => /registered with the job manager at \S+ as ([0-9a-f]{32})/.exec(cli.stderr())?.[1];
  await waitFor(`the task manager's registration`, () => id() !== undefined || cli.child.exitCode !== null, 60_000);
  if (cli.child.exitCode !== null) throw new Error(`the task manager ended: ${cli.stderr()}`);
  return { cli, id: id()! };
}

/** A job manager and `taskManagers` task managers of one slot each, in folders of `dir`; every process goes into `started` (stopped after the test). */
export async function startCluster(dir: string, started: RunningCli[], taskManagers = 2): Promise<StartedJobManager> {
  const jm = await startJobManager(processDir(dir, "jm"));
  started.push(jm.cli);
  for (let i = 1; i <= taskManagers; i++) started.push((await startTaskManager(processDir(dir, `tm-${i}`), jm.rpcPort, 1)).cli);
  return jm;
}

/** `fetch` of a job manager's REST API, with its token when it asks for one (see {@link startJobManager}). */
export function jobManagerFetch(url: string, init: RequestInit = {}): Promise<Response> {
  const token = tokens.get(new URL(url).origin);
  if (token === undefined) return fetch(url, init);
  const headers = new Headers(init.headers);
  headers.set("authorization", `Bearer ${token}`);
  return fetch(url, { ...init, headers });
}

/** A REST call (with the job manager's token, if any); rejects on a status other than 200 with the answer's errors. */
export async function rest<T = Record<string, unknown>>(url: string, init: RequestInit = {}): Promise<T> {
  const res = await jobManagerFetch(url, init);
  const body = (await res.json()) as T & { errors?: string[] };
  if (res.status !== 200) throw new Error(`${init.method ?? "GET"} ${url}: ${res.status} ${JSON.stringify(body)}`);
  return body;
}

/** Uploads `file` as a job bundle named `name`; resolves with its jar id. */
export async function uploadJar(url: string, file: string, name: string): Promise<string> {
  const r = await rest<{ filename: string; status: string }>(`${url}/jars/upload`, {
    method: "POST",
    headers: { "content-type": "application/octet-stream", "x-weir-filename": name },
    body: readFileSync(file),
  });
  return r.filename;
}

/** Runs jar `jarId` with Flink's run request `body`; resolves with the job id. */
export async function runJar(url: string, jarId: string, body: object): Promise<string> {
  const r = await rest<{ jobid: string }>(`${url}/jars/${jarId}/run`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  return r.jobid;
}

/** The job's status (Flink's `state`) and the rest of `/jobs/:jid`. */
export async function jobDetails(url: string, jobId: string): Promise<{ state: string } & Record<string, unknown>> {
  return rest(`${url}/jobs/${jobId}`);
}

/** Polls until the job is in one of `states` (and `also` holds for its details; deadline `timeoutMs`); resolves with its details. */
export async function waitForJobState(
  url: string,
  jobId: string,
  states: readonly string[],
  also: (details: Record<string, unknown>) => boolean = () => true,
  timeoutMs = 90_000,
): Promise<{ state: string } & Record<string, unknown>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const d = await jobDetails(url, jobId);
    if (states.includes(d.state) && also(d)) return d;
    if (Date.now() > deadline) throw new Error(`job ${jobId} is ${d.state}, not ${states.join(" or ")}, after ${timeoutMs} ms: ${JSON.stringify(d)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The lines of the committed part files under `dir` (hidden, in-progress files skipped), sorted. */
export function committedLines(dir: string): string[] {
  const files = readdirSync(dir, { recursive: true })
    .map(String)
    .filter((f) => !f.split("/").some((p) => p.startsWith(".")) && statSync(join(dir, f)).isFile());
  return files.flatMap((f) => readFileSync(join(dir, f), "utf8").split("\n").filter((l) => l !== "")).sort();
}

/** What the keyed count job (test/fixtures/cluster-keyed-count-job.mjs) writes for `count` numbers over `keys` keys, sorted. */
export function expectedKeyedCounts(count: number, keys: number): string[] {
  const seen = new Map<number, number>();
  const out: string[] = [];
  for (let n = 1; n <= count; n++) {
    const c = (seen.get(n % keys) ?? 0) + 1;
    seen.set(n % keys, c);
    out.push(`${n % keys}:${c}`);
  }
  return out.sort();
}

/** The `high-availability.*` flags of every process of a cluster on the etcd at `endpoint` (a lease of 3 s). */
export function haFlags(endpoint: string, storageDir: string, clusterId: string): string[] {
  return [
    ...["-D", "high-availability.type=etcd", "-D", `high-availability.etcd.endpoints=${endpoint}`, "-D", `high-availability.storageDir=${storageDir}`],
    ...["-D", "high-availability.etcd.lease-ttl=3 s", "-D", `high-availability.cluster-id=${clusterId}`],
  ];
}

/** Completed checkpoints of the job (`/jobs/:jid/checkpoints`). */
export async function completedCheckpoints(url: string, jobId: string): Promise<number> {
  return (await rest<{ counts: { completed: number } }>(`${url}/jobs/${jobId}/checkpoints`)).counts.completed;
}

/** Polls until the job manager at `url` knows job `jobId` (a new leader lists a recovered job once it started it). */
export async function untilJobKnown(url: string, jobId: string, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while ((await jobManagerFetch(`${url}/jobs/${jobId}`)).status !== 200) {
    if (Date.now() > deadline) throw new Error(`job ${jobId} unknown at ${url} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const KEYED_COUNT_JOB = fileURLToPath(new URL("../fixtures/cluster-keyed-count-job.mjs", import.meta.url));

/**
 * Submits the keyed count job (test/fixtures/cluster-keyed-count-job.mjs: 3000 numbers over 4 keys, gated after
 * 1500, parallelism 2, checkpoints every 200 ms into `<dir>/out/checkpoints`) to the job manager at `url`;
 * resolves with its id and output directory once its source waits at the gate (`<out>/gate` opens it) and two
 * checkpoints completed there, so a restart restores state rather than starting empty.
 */
export async function submitGatedJob(url: string, dir: string): Promise<{ jobId: string; out: string }> {
  const out = join(dir, "out");
  mkdirSync(out, { recursive: true });
  const jar = await uploadJar(url, KEYED_COUNT_JOB, "keyed-count.mjs");
  const jobId = await runJar(url, jar, {
    programArgsList: [join(out, "lines"), "3000", "1500", join(out, "gate"), join(out, "reached"), "4"],
    parallelism: 2,
    flinkConfiguration: { "execution.checkpointing.interval": "200 ms", "state.checkpoints.dir": join(out, "checkpoints") },
  });
  await waitFor("the job's source at its gate", () => existsSync(join(out, "reached")), 90_000);
  const before = await completedCheckpoints(url, jobId);
  for (let c = before; c < before + 2; c = await completedCheckpoints(url, jobId)) await new Promise((r) => setTimeout(r, 100));
  return { jobId, out };
}
