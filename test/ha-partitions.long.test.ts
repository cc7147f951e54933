/**
 * Partitions of a highly available cluster whose processes run on hosts of a private network
 * (test/support/network-hosts.ts: network namespaces on a bridge, which need root; skipped otherwise): job
 * manager 1 on host a, job manager 2 on host b, the task managers on hosts c, d, e; etcd and the test in the root.
 * A partition drops packets silently, as a cut cable does. The job has an exactly-once FileSink, checkpoints every
 * 200 ms and is gated mid-input; its output is checked line by line (0 lost, 0 duplicated: a commit by a
 * deposed leader, or by a task manager it no longer hears, would show).
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { waitFor } from "./support/cli-process.ts";
import {
  clusterSuite,
  committedLines,
  expectedKeyedCounts,
  jobManagerFetch,
  haFlags,
  processDir,
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

const tempDir = tempDirs("weir-ha-partitions-");
const DEADLINE_MS = 240_000;
const started = clusterSuite();
const noHosts = networkHostsUnavailable();
if (noHosts !== undefined) console.warn(`skipping ha-partitions: ${noHosts}`);
let net: HostNetwork;
let etcd: EtcdServer;
let hosts: Record<string, NetworkHost>;

beforeAll(async () => {
  if (noHosts !== undefined) return;
  net = makeHostNetwork(["a", "b", "c", "d", "e"]);
  hosts = net.hosts as Record<string, NetworkHost>;
  etcd = await startEtcd(net.root.ip);
}, 300_000);

afterAll(async () => {
  await etcd?.stop();
  net?.close();
});

const LEADS = /leads 'jobmanager' with epoch (\d+)/g;

/** The epochs a job manager's log says it led with, in order. */
function epochs(log: string): number[] {
  return [...log.matchAll(LEADS)].map((m) => Number(m[1]));
}

describe.skipIf(noHosts !== undefined)("partitions of a highly available cluster on network hosts", () => {
  it("the leader's host cut from everything: it steps down, the standby recovers the job, the task managers follow it, exact output; healed, the old leader is a standby that takes over when the new one stops", async () => {
    const dir = tempDir();
    const ha = haFlags(etcd.endpoint, join(dir, "ha"), "cut-leader");
    const first = await startJobManager(processDir(dir, "jm-1"), ha, hosts.a);
    started.push(first.cli);
    await waitFor("the first job manager leads", () => epochs(first.cli.stderr()).length === 1, 60_000);
    const second = await startJobManager(processDir(dir, "jm-2"), ha, hosts.b);
    started.push(second.cli);
    const tms = [await startTaskManager(processDir(dir, "tm-1"), 1, 1, ha, hosts.c), await startTaskManager(processDir(dir, "tm-2"), 1, 1, ha, hosts.d)];
    started.push(...tms.map((tm) => tm.cli));
    const { jobId, out } = await submitGatedJob(first.url, dir);
    net.partition(hosts.a!);
    await waitFor("the old leader steps down", () => /no longer leads 'jobmanager'/.test(first.cli.stderr()), 60_000);
    // the next line of its log (it may come in a later chunk of its output)
    await waitFor("the old leader suspends its job", () => /job 'cluster-keyed-count' \([0-9a-f]{32}\) suspended/.test(first.cli.stderr()), 60_000);
    await waitFor("the standby leads", () => epochs(second.cli.stderr()).length === 1, 60_000);
    await untilJobKnown(second.url, jobId);
    for (const tm of tms) await waitFor(`task manager ${tm.id} registers with the new leader`, () => second.cli.stderr().includes(`task manager ${tm.id} registered`), 60_000);
    await waitForJobState(second.url, jobId, ["RUNNING"], () => true, 120_000);
    net.heal(hosts.a!);
    writeFileSync(join(out, "gate"), "");
    const done = await waitForJobState(second.url, jobId, ["FINISHED", "FAILED", "CANCELED"], () => true, 120_000);
    expect(done.state, second.cli.stderr()).toBe("FINISHED");
    expect(second.cli.stderr()).toMatch(/restored from checkpoint \d+/);
    expect(committedLines(join(out, "lines"))).toEqual(expectedKeyedCounts(3000, 4));
    for (const tm of tms) expect(tm.cli.stderr()).toContain(`registered with the job manager at ${hosts.b!.ip}:`);
    // healed, the old leader led once only and runs the job no longer (its REST API answers through the new
    // leader, its own /metrics has none of the job); etcd names the new leader
    expect(await (await jobManagerFetch(`${first.url}/metrics`)).text()).not.toContain(jobId);
    expect(epochs(first.cli.stderr())).toHaveLength(1);
    expect((await leaderInEtcd(etcd.endpoint, "cut-leader"))?.restAddress).toBe(second.url);
    // … and it is a live standby again (back in touch with etcd): when the new leader stops, it leads
    second.cli.child.kill("SIGTERM");
    await waitFor(`the old leader leads again\n${first.cli.stderr()}`, () => epochs(first.cli.stderr()).length === 2, 60_000);
    expect(epochs(first.cli.stderr())[1]).toBeGreaterThan(epochs(second.cli.stderr())[0]!);
  }, DEADLINE_MS);

  it("a task manager's host cut from the job manager's: it is lost after heartbeat.timeout, the job restarts on the others from its latest checkpoint, exact output; it tries the unreachable leader again and again, healed, it registers again", async () => {
    const dir = tempDir();
    const ha = haFlags(etcd.endpoint, join(dir, "ha"), "cut-task-manager");
    const jm = await startJobManager(processDir(dir, "jm"), ha, hosts.a);
    started.push(jm.cli);
    await waitFor("the job manager leads", () => epochs(jm.cli.stderr()).length === 1, 60_000);
    const tms = [];
    for (const [i, host] of [hosts.c!, hosts.d!, hosts.e!].entries()) tms.push({ host, ...(await startTaskManager(processDir(dir, `tm-${i + 1}`), 1, 1, ha, host)) });
    started.push(...tms.map((tm) => tm.cli));
    const { jobId, out } = await submitGatedJob(jm.url, dir);
    // the task manager of the job's source (workers 0) loses the job manager, not etcd nor the other task managers
    const placed = /workers 0 on task manager ([0-9a-f]{32})/.exec(jm.cli.stderr())?.[1];
    const cut = tms.find((tm) => tm.id === placed)!;
    net.partition(cut.host, hosts.a);
    // the rest of the input flows while the job manager has not noticed: what the cut-off workers do may not count
    writeFileSync(join(out, "gate"), "");
    await waitFor("the job manager loses the task manager", () => new RegExp(`task manager ${cut.id} lost: no heartbeat`).test(jm.cli.stderr()), 60_000);
    // … and the task manager the job manager: its workers stop (no more output from them), it looks for the leader again
    await waitFor(`the task manager stops its workers\n${cut.cli.stderr()}`, () => /no heartbeat from the job manager for \d+ ms .*: stopping this task manager's workers/.test(cut.cli.stderr()), 60_000);
    const done = await waitForJobState(jm.url, jobId, ["FINISHED", "FAILED", "CANCELED"], () => true, 120_000);
    expect(done.state, jm.cli.stderr()).toBe("FINISHED");
    expect(jm.cli.stderr()).toMatch(/restarting \(attempt 1\) .* from checkpoint \d+/);
    expect(committedLines(join(out, "lines"))).toEqual(expectedKeyedCounts(3000, 4));
    // the leader etcd names is still the job manager it cannot reach: it gives up connecting after heartbeat.timeout
    // (not after the kernel's minutes of SYN retries) and looks for the leader again, until healed
    const unanswered = new RegExp(`cannot reach the job manager at ${hosts.a!.ip.replaceAll(".", "\\.")}:\\d+: no answer within 5000 ms`);
    await waitFor(`the task manager gives up an unanswered connection\n${cut.cli.stderr()}`, () => unanswered.test(cut.cli.stderr()), 60_000);
    net.heal(cut.host);
    await waitFor(`the cut-off task manager registers again\n${cut.cli.stderr()}`, () => (cut.cli.stderr().match(/registered with the job manager at/g) ?? []).length === 2, 120_000);
  }, DEADLINE_MS);
});
