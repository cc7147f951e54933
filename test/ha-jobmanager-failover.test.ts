/**
 * A highly available cluster (`high-availability.type: etcd`) of real processes on a private etcd: two job
 * managers contend for the leadership, two task managers find the leader in etcd. A job with an exactly-once
 * FileSink is submitted to the leader and gated mid-input, a `weir run -m` client follows it; the leading job
 * manager is SIGKILLed. The standby takes over (after the lease TTL), recovers the job from the job graph store,
 * restores its latest checkpoint committed in etcd, the task managers re-register with it, and the client follows
 * the job to the new leader: the output is exact (0 lost, 0 duplicated) and the client exits 0. A standby answers
 * through the leader: a job submitted, listed and cancelled with `weir run/list/cancel -m <standby>` runs on the
 * leader.
 *
 * The partition test runs the processes on hosts of a private network (test/support/network-hosts.ts: network
 * namespaces, which need root; skipped otherwise) and cuts the leader's host from etcd's.
 */
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli, startCli, waitFor } from "./support/cli-process.ts";
import {
  clusterSuite,
  committedLines,
  expectedKeyedCounts,
  jobManagerFetch,
  completedCheckpoints,
  haFlags,
  processDir,
  rest,
  startJobManager,
  startTaskManager,
  submitGatedJob,
  untilJobKnown,
  waitForJobState,
} from "./support/cluster-processes.ts";
import { startEtcd, type EtcdServer } from "./support/etcd-server.ts";
import { leaderInEtcd } from "./support/ha-contenders.ts";
import { makeHostNetwork, networkHostsUnavailable, type HostNetwork, type NetworkHost } from "./support/network-hosts.ts";
import { tempDirs } from "./support/temp-dirs.ts";

const JOB = fileURLToPath(new URL("./fixtures/cluster-keyed-count-job.mjs", import.meta.url));
const UNTIL_STOPPED_JOB = fileURLToPath(new URL("./fixtures/until-stopped-job.ts", import.meta.url));
const tempDir = tempDirs("weir-ha-jobmanager-");
const DEADLINE_MS = 240_000;
const CLUSTER_ID = "failover";
const started = clusterSuite();
const noHosts = networkHostsUnavailable();
if (noHosts !== undefined) console.warn(`skipping the partition test of ha-jobmanager-failover: ${noHosts}`);
let net: HostNetwork | undefined;
let etcd: EtcdServer;

beforeAll(async () => {
  // etcd listens where the hosts reach it: the root's address on their network
  if (noHosts === undefined) net = makeHostNetwork(["a", "b", "c"]);
  etcd = await startEtcd(net?.root.ip);
}, 300_000);

afterAll(async () => {
  await etcd?.stop();
  net?.close();
});

/** The `chk-<id>` directories under `dir` (at any depth). */
function checkpointDirs(dir: string): string[] {
  return (readdirSync(dir, { recursive: true }) as string[]).filter((path) => /(^|\/)chk-\d+$/.test(path));
}

/**
 * With job `jobId` running on the leader at `leaderUrl`: the standby at `standbyUrl` answers as the leader does
 * (the job's configuration, the bundles), and `weir run/list/cancel -m` given the standby (without the
 * high-availability keys) submit, list and cancel a job on the leader.
 */
async function standbyAnswersThroughLeader(dir: string, leaderUrl: string, standbyUrl: string, jobId: string): Promise<void> {
  // only the leader knows the job
  for (const path of [`/jobs/${jobId}/config`, `/jobs/${jobId}/checkpoints/config`, "/jars"]) expect(await rest(`${standbyUrl}${path}`), path).toEqual(await rest(`${leaderUrl}${path}`));
  const client = join(dir, "client");
  mkdirSync(client, { recursive: true });
  const weir = (args: string[]) => runCli(args, DEADLINE_MS, {}, { cwd: client, shipped: true });
  const submit = await weir(["run", "-m", standbyUrl, "--detached", UNTIL_STOPPED_JOB, "--checkpoint-dir", join(dir, "until-stopped")]);
  expect(submit.code, submit.stderr).toBe(0);
  const other = submit.stdout.trim();
  await waitForJobState(leaderUrl, other, ["RUNNING"]);
  const list = await weir(["list", "-m", standbyUrl]);
  expect(list.code, list.stderr).toBe(0);
  expect(list.stdout).toMatch(new RegExp(`^${other}\\s+until-stopped\\s+RUNNING\\s`, "m"));
  expect(list.stdout).toMatch(new RegExp(`^${jobId}\\s+cluster-keyed-count\\s+RUNNING\\s`, "m"));
  const cancel = await weir(["cancel", "-m", standbyUrl, other]);
  expect([cancel.code, cancel.stdout], cancel.stderr).toEqual([0, `Cancelled job ${other}.\n`]);
  expect((await waitForJobState(standbyUrl, other, ["CANCELED"])).state).toBe("CANCELED");
}

describe("a highly available job manager", () => {
  it("SIGKILLed as leader: the standby recovers the job from its latest committed checkpoint, exact output, the attached client follows", async () => {
    const dir = tempDir();
    const ha = haFlags(etcd.endpoint, join(dir, "ha"), CLUSTER_ID);
    const first = await startJobManager(processDir(dir, "jm-1"), ha);
    started.push(first.cli);
    await waitFor("the first job manager leads", () => /leads 'jobmanager' with epoch/.test(first.cli.stderr()), 60_000);
    const second = await startJobManager(processDir(dir, "jm-2"), ha);
    started.push(second.cli);
    // 2 slots each: the job of the standby checks runs beside the failover job
    for (const name of ["tm-1", "tm-2"]) started.push((await startTaskManager(processDir(dir, name), 1, 2, ha)).cli);
    const out = join(dir, "out");
    mkdirSync(out, { recursive: true });
    // attached: the client follows the job, finding the leader in etcd with the same high-availability keys
    const args = [join(out, "lines"), "3000", "1500", join(out, "gate"), join(out, "reached"), "4"];
    const flags = ["-p", "2", "-D", "execution.checkpointing.interval=200 ms", "--checkpoint-dir", join(out, "checkpoints"), ...ha];
    const client = startCli(["run", "-m", first.url, JOB, ...flags, "--", ...args], {}, { cwd: processDir(dir, "client"), shipped: true });
    started.push(client);
    const submitted = () => /submitted job ([0-9a-f]{32})/.exec(client.stderr())?.[1];
    await waitFor(`the client's submission\n${client.stderr()}`, () => submitted() !== undefined || client.child.exitCode !== null, 90_000);
    const jobId = submitted()!;
    // while the job runs to its gate, the standby answers through the leader
    await Promise.all([standbyAnswersThroughLeader(dir, first.url, second.url, jobId), waitFor("the job's source at its gate", () => existsSync(join(out, "reached")), 90_000)]);
    const before = await completedCheckpoints(first.url, jobId);
    for (let c = before; c < before + 2; c = await completedCheckpoints(first.url, jobId)) await new Promise((r) => setTimeout(r, 100));
    first.cli.child.kill("SIGKILL");
    await waitFor("the standby leads", () => /leads 'jobmanager' with epoch/.test(second.cli.stderr()), 60_000);
    await waitFor("the job recovered on the new leader", () => /recovering 1 job as the new leader/.test(second.cli.stderr()), 60_000);
    await untilJobKnown(second.url, jobId);
    await waitForJobState(second.url, jobId, ["RUNNING"], () => true, 120_000);
    // the new leader deletes what etcd no longer holds: 1 retained, at most 1 in flight and 1 whose cleanup is under way
    for (let c = 0; c < 6; c = await completedCheckpoints(second.url, jobId)) await new Promise((r) => setTimeout(r, 100));
    expect(checkpointDirs(join(out, "checkpoints")).length, checkpointDirs(join(out, "checkpoints")).join(" ")).toBeLessThanOrEqual(3);
    mkdirSync(out, { recursive: true });
    writeFileSync(join(out, "gate"), "");
    const done = await waitForJobState(second.url, jobId, ["FINISHED", "FAILED", "CANCELED"], () => true, 120_000);
    expect(done.state, second.cli.stderr()).toBe("FINISHED");
    expect(second.cli.stderr()).toMatch(/restored from checkpoint \d+/);
    expect(checkpointDirs(join(out, "checkpoints")).length, checkpointDirs(join(out, "checkpoints")).join(" ")).toBeLessThanOrEqual(3);
    expect(committedLines(join(out, "lines"))).toEqual(expectedKeyedCounts(3000, 4));
    const exit = await new Promise<number | null>((resolve) => (client.child.exitCode !== null ? resolve(client.child.exitCode) : client.child.once("exit", resolve)));
    expect(exit, client.stderr()).toBe(0);
    expect(client.stderr()).toMatch(/the leading job manager is at http:\/\/\S+ now .*: following job/);
    expect(client.stderr()).toMatch(/finished/);
    // both task managers registered with the new leader
    expect(second.cli.stderr().match(/task manager [0-9a-f]{32} registered/g)).toHaveLength(2);
  }, DEADLINE_MS);

  it.skipIf(noHosts !== undefined)("cut from etcd as leader: it steps down and commits nothing more, the other leads and recovers the job, exact output; healed, it stays a standby", async () => {
    // job manager 1 on host a, job manager 2 on host b, the task managers on host c; etcd and the test in the root
    const { a, b, c } = net!.hosts as Record<string, NetworkHost>;
    const dir = tempDir();
    const ha = haFlags(etcd.endpoint, join(dir, "ha"), CLUSTER_ID);
    const first = await startJobManager(processDir(dir, "jm-1"), ha, a);
    started.push(first.cli);
    await waitFor("the first job manager leads", () => /leads 'jobmanager' with epoch/.test(first.cli.stderr()), 60_000);
    const second = await startJobManager(processDir(dir, "jm-2"), ha, b);
    started.push(second.cli);
    for (const name of ["tm-1", "tm-2"]) started.push((await startTaskManager(processDir(dir, name), 1, 1, ha, c)).cli);
    const { jobId, out } = await submitGatedJob(first.url, dir);
    // the leader cannot reach etcd, its task managers it still reaches; the rest of the input flows and checkpoints go
    // on every 200 ms: none may complete (no commit in etcd, no sink commit), nor may the job finish there
    net!.partition(a, net!.root);
    writeFileSync(join(out, "gate"), "");
    await waitFor("the old leader steps down", () => /no longer leads 'jobmanager'/.test(first.cli.stderr()), 60_000);
    // the next line of its log (it may come in a later chunk of its output)
    await waitFor("the old leader suspends its job", () => /job 'cluster-keyed-count' \([0-9a-f]{32}\) suspended/.test(first.cli.stderr()), 60_000);
    await waitFor("the other leads", () => /leads 'jobmanager' with epoch/.test(second.cli.stderr()), 60_000);
    await untilJobKnown(second.url, jobId);
    await waitForJobState(second.url, jobId, ["RUNNING"], () => true, 120_000);
    // the old leader, reachable again, stays a standby: the new leader's epoch is higher
    net!.heal(a);
    const done = await waitForJobState(second.url, jobId, ["FINISHED", "FAILED", "CANCELED"], () => true, 120_000);
    expect(done.state, second.cli.stderr()).toBe("FINISHED");
    // each task manager registered once with the new leader
    expect(second.cli.stderr().match(/task manager [0-9a-f]{32} registered/g)).toHaveLength(2);
    expect(committedLines(join(out, "lines"))).toEqual(expectedKeyedCounts(3000, 4));
    // the job ran once more, on the new leader only: the old one has no metrics of it (its REST API answers through the leader now), led once, and etcd names the other
    expect(await (await jobManagerFetch(`${first.url}/metrics`)).text()).not.toContain(jobId);
    expect(first.cli.stderr().match(/leads 'jobmanager' with epoch/g)).toHaveLength(1);
    const epochOf = (log: string) => Number(/leads 'jobmanager' with epoch (\d+)/.exec(log)![1]);
    const leader = await leaderInEtcd(etcd.endpoint, CLUSTER_ID);
    expect(leader?.restAddress).toBe(second.url);
    expect(leader?.epoch).toBe(epochOf(second.cli.stderr()));
    expect(leader!.epoch).toBeGreaterThan(epochOf(first.cli.stderr()));
  }, DEADLINE_MS);
});
