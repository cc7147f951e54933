/**
 * Leader election on a real etcd (docs/high-availability.md): one leader among contenders; a standby takes over
 * with a higher epoch when the leader stops, when its process dies, or when it is cut from etcd — in which case
 * the old leader steps down by its own deadline, without hearing from etcd, before the standby leads. Task
 * managers and clients following the leader key see each leader in turn.
 */
import { spawn } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FencingError, type LeaderInfo } from "../src/cluster/ha/index.ts";
import { ManualClock } from "../src/util/clock.ts";
import { waitFor } from "./support/cli-process.ts";
import { waitForQuery } from "./support/postgres-wait.ts";
import { startEtcd, type EtcdServer } from "./support/etcd-server.ts";
import { contenders, freshClusterId } from "./support/ha-contenders.ts";
import { stopProcess } from "./support/stop-process.ts";
import { startTcpProxy } from "./support/tcp-proxy.ts";

/** Short leases keep the takeovers quick; every wait below is on a condition, with a deadline far above it. */
const TTL = 2_000;

let etcd: EtcdServer;
beforeAll(async () => {
  etcd = await startEtcd();
});
afterAll(() => etcd?.stop());

describe("leader election on etcd", () => {
  it("elects one of two contenders; when it stops, the other leads with a higher epoch and watchers follow", async () => {
    const { contender, violations } = contenders(freshClusterId(), TTL);
    const a = await contender("a", etcd.endpoint);
    const b = await contender("b", etcd.endpoint);
    const seen: (LeaderInfo | null)[] = [];
    const watch = await a.ha.watchLeader("jobmanager", (leader) => seen.push(leader));
    a.election.start();
    b.election.start();
    await waitFor("a leader", () => a.granted.length + b.granted.length === 1);
    const [first, second] = a.granted.length === 1 ? [a, b] : [b, a];
    const epoch = first.last()!.epoch;
    expect(await first.ha.currentLeader("jobmanager")).toEqual({ contenderId: first.name, rpcAddress: `${first.name}:6123`, restAddress: `http://${first.name}:8081`, epoch });
    expect(second.election.leadership).toBeUndefined();

    await first.election.stop(); // revokes its lease: the key goes at once
    await waitFor("the other contender to lead", () => second.granted.length === 1);
    expect(first.lost.map((l) => l.reason)).toEqual(["the contender stopped"]);
    expect(second.last()!.epoch).toBeGreaterThan(epoch);
    await waitFor("the watcher to see the new leader", () => seen.at(-1)?.contenderId === second.name);
    expect(seen.filter((l) => l !== null).map((l) => [l.contenderId, l.epoch])).toEqual([
      [first.name, epoch],
      [second.name, second.last()!.epoch],
    ]);
    await watch.close();
    expect(violations).toEqual([]);
  });

  it("replaces a leader whose process is killed once its lease expires", async () => {
    const clusterId = freshClusterId();
    const child = spawn(process.execPath, ["--import", "tsx", "test/fixtures/ha-contender.ts", etcd.endpoint, clusterId, String(TTL)], { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.stderr.on("data", (d: Buffer) => (out += d.toString()));
    try {
      await waitFor(`the process to lead (output so far: ${out})`, () => out.includes('"granted"'), 60_000);
      const epoch = (JSON.parse(out.split("\n").find((l) => l.includes('"granted"'))!) as { granted: number }).granted;
      const { contender, violations } = contenders(clusterId, TTL);
      const b = await contender("b", etcd.endpoint);
      b.election.start();
      expect((await b.ha.currentLeader("jobmanager"))?.contenderId).toBe(`process-${child.pid}`);
      await stopProcess(child, "SIGKILL");
      await waitFor("the standby to lead after the lease expired", () => b.granted.length === 1, 60_000);
      expect(b.last()!.epoch).toBeGreaterThan(epoch);
      expect((await b.ha.currentLeader("jobmanager"))?.contenderId).toBe("b");
      expect(violations).toEqual([]);
    } finally {
      await stopProcess(child, "SIGKILL");
    }
  });

  it("a leader cut from etcd steps down by its own deadline before a standby leads, and its writes are refused", async () => {
    const proxy = await startTcpProxy(etcd.clientPort);
    try {
      const { contender, violations } = contenders(freshClusterId(), TTL);
      const a = await contender("a", `http://127.0.0.1:${proxy.port}`);
      a.election.start();
      await waitFor("a to lead", () => a.granted.length === 1);
      const b = await contender("b", etcd.endpoint);
      b.election.start();
      const old = a.last()!;

      proxy.cut();
      await waitFor("a to step down while cut off", () => a.lost.length === 1, 60_000);
      expect(a.lost[0]!.reason).toMatch(/no keep-alive of lease \w+ was acknowledged within its TTL of 2 s/);
      await waitFor("b to lead", () => b.granted.length === 1, 60_000);
      expect(a.lost[0]!.at).toBeLessThanOrEqual(b.grantedAt[0]!);
      expect(b.last()!.epoch).toBeGreaterThan(old.epoch);

      proxy.heal();
      const store = a.ha.completedCheckpointStore("0123456789abcdef0123456789abcdef", old, 1);
      await expect(store.add({ checkpointId: 1, pointer: "/ckpt/chk-1", completedAt: 1 })).rejects.toBeInstanceOf(FencingError);
      expect(await b.ha.completedCheckpointStore("0123456789abcdef0123456789abcdef", b.last()!, 1).list()).toEqual([]);
      expect(violations).toEqual([]);
    } finally {
      await proxy.close();
    }
  });

  it("a leader stays leader across a restart of etcd shorter than its lease", async () => {
    const { contender, violations } = contenders(freshClusterId(), 20_000);
    const a = await contender("a", etcd.endpoint);
    const b = await contender("b", etcd.endpoint);
    a.election.start();
    await waitFor("a to lead", () => a.granted.length === 1);
    b.election.start();
    const leadership = a.last()!;
    const counter = a.ha.checkpointIdCounter("0123456789abcdef0123456789abcdef", leadership);
    expect(await counter.getAndIncrement()).toBe(1);
    await etcd.halt();
    await etcd.start(); // etcd keeps the lease (and renews every lease when it starts)
    await waitForQuery("a fenced write to go through again", () => counter.getAndIncrement().then(() => true, () => false), 60_000);
    expect(leadership.active).toBe(true);
    expect(a.lost).toEqual([]);
    expect(b.granted).toEqual([]);
    expect(violations).toEqual([]);
  });

  it("a standby stops at once while etcd does not answer", async () => {
    const { contender } = contenders(freshClusterId(), TTL);
    const a = await contender("a", etcd.endpoint);
    const b = await contender("b", etcd.endpoint);
    a.election.start();
    await waitFor("a to lead", () => a.granted.length === 1);
    const watchers = async () => Number((await (await fetch(`${etcd.endpoint}/metrics`)).text()).match(/^etcd_debugging_mvcc_watcher_total (\d+)/m)?.[1]);
    const before = await watchers();
    b.election.start();
    await waitForQuery("b to watch the leader key", async () => (await watchers()) > before);
    etcd.pause();
    try {
      await b.election.stop(); // would hang on etcd if a wait of the contender did not end on stop
    } finally {
      etcd.resume();
    }
    expect(b.granted).toEqual([]);
  });

  it("steps down at the injected clock's deadline when etcd does not answer", async () => {
    const clock = new ManualClock(0);
    const { contender } = contenders(freshClusterId(), TTL);
    const a = await contender("a", etcd.endpoint, clock);
    a.election.start();
    await waitFor("a to lead", () => a.granted.length === 1);
    etcd.pause();
    try {
      clock.advance(TTL - 1); // keep-alives go out at a third and two thirds of the TTL and hang
      expect(a.last()!.active).toBe(true);
      clock.advance(1);
      expect(a.last()!.active).toBe(false);
      expect(a.last()!.lostReason).toMatch(/no keep-alive of lease \w+ was acknowledged within its TTL of 2 s/);
    } finally {
      etcd.resume();
    }
    await waitFor("onLeadershipLost", () => a.lost.length === 1);
  });
});
