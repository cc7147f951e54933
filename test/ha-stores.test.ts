/**
 * The fenced stores of high availability on a real etcd (docs/high-availability.md): a deposed leader that still
 * believes it leads (its clock stood still: a long pause) has every write refused by etcd; checkpoint ids only
 * grow, across leaders and under concurrent increments; the completed checkpoint store keeps the newest N handles;
 * submitted jobs outlive the leader that stored them.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FencingError, Leadership } from "../src/cluster/ha/index.ts";
import { ManualClock } from "../src/util/clock.ts";
import { waitFor } from "./support/cli-process.ts";
import { startEtcd, type EtcdServer } from "./support/etcd-server.ts";
import { contenders, freshClusterId, leading } from "./support/ha-contenders.ts";

const TTL = 2_000;
const JOB = "0123456789abcdef0123456789abcdef";

let etcd: EtcdServer;
beforeAll(async () => {
  etcd = await startEtcd();
});
afterAll(() => etcd?.stop());

describe("fenced stores on etcd", () => {
  it("refuses every write of a deposed leader that still believes it leads, and keeps the new leader's", async () => {
    const { contender } = contenders(freshClusterId(), TTL);
    // a's clock never moves: it sends no keep-alive and never reaches its own deadline, as in a long GC pause
    const a = await contender("a", etcd.endpoint, new ManualClock(0));
    const old = await leading(a);
    const counter = a.ha.checkpointIdCounter(JOB, old);
    expect(await counter.getAndIncrement()).toBe(1);
    await a.ha.completedCheckpointStore(JOB, old, 1).add({ checkpointId: 1, pointer: "/ckpt/a/chk-1", completedAt: 1 });

    const b = await contender("b", etcd.endpoint);
    const now = await leading(b); // after a's lease expired in etcd
    expect(now.epoch).toBeGreaterThan(old.epoch);
    expect(old.active).toBe(true);

    // Each write carries a's epoch, as parts of a's process that have not yet heard of a refusal would.
    const stale = () => new Leadership(a.ha.client, "jobmanager", a.ha.keys.leader("jobmanager"), old.epoch, "a");
    const writes = [
      () => counter.getAndIncrement(),
      () => a.ha.completedCheckpointStore(JOB, stale(), 1).add({ checkpointId: 2, pointer: "/ckpt/a/chk-2", completedAt: 2 }),
      () => a.ha.checkpointIdCounter(JOB, stale()).advanceTo(100),
      () => a.ha.jobGraphStore(stale()).put({ jobId: JOB, jarId: "ab.mjs", programArgs: [], configuration: {}, submittedAt: 1 }),
      () => a.ha.jobGraphStore(stale()).remove(JOB),
    ];
    for (const write of writes) {
      const error = await write().then(() => undefined, (e: unknown) => e);
      expect(error).toBeInstanceOf(FencingError);
      expect((error as FencingError).currentEpoch).toBe(now.epoch); // refused by etcd, not by a's own knowledge
      expect((error as FencingError).message).toMatch(new RegExp(`the jobmanager leadership of epoch ${old.epoch} is over \\(the leader now has epoch ${now.epoch}\\)`));
    }
    expect(old.active).toBe(false); // the refusal ended a's leadership
    await expect(counter.getAndIncrement()).rejects.toThrow(/this contender has stepped down/);
    await waitFor("a's onLeadershipLost", () => a.lost.length === 1);

    const store = b.ha.completedCheckpointStore(JOB, now, 1);
    expect(await store.list()).toEqual([{ checkpointId: 1, pointer: "/ckpt/a/chk-1", completedAt: 1 }]);
    expect(await b.ha.checkpointIdCounter(JOB, now).getAndIncrement()).toBe(2);
    expect(await b.ha.jobGraphStore(now).list()).toEqual([]);
  });

  it("never hands out a checkpoint id twice: concurrent increments, raises, and a new leader", async () => {
    const { contender } = contenders(freshClusterId(), TTL);
    const a = await contender("a", etcd.endpoint);
    const first = await leading(a);
    const counter = a.ha.checkpointIdCounter(JOB, first);
    expect(await counter.get()).toBe(1);
    const ids = await Promise.all(Array.from({ length: 20 }, () => counter.getAndIncrement()));
    expect([...ids].sort((x, y) => x - y)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(await counter.advanceTo(50)).toBe(50);
    expect(await counter.advanceTo(30)).toBe(50); // never lowers
    expect(await counter.getAndIncrement()).toBe(50);

    const b = await contender("b", etcd.endpoint);
    b.election.start();
    await a.election.stop();
    await waitFor("b to lead", () => b.last()?.active === true);
    expect(await b.ha.checkpointIdCounter(JOB, b.last()!).getAndIncrement()).toBe(51);
    await expect(counter.getAndIncrement()).rejects.toBeInstanceOf(FencingError);

    await b.ha.checkpointIdCounter(JOB, b.last()!).remove();
    expect(await b.ha.checkpointIdCounter(JOB, b.last()!).get()).toBe(1);
  });

  it("keeps the newest N completed checkpoints, returns the subsumed ones, and hands them to the next leader", async () => {
    const { contender } = contenders(freshClusterId(), TTL);
    const a = await contender("a", etcd.endpoint);
    const store = a.ha.completedCheckpointStore(JOB, await leading(a), 2);
    const handle = (id: number) => ({ checkpointId: id, pointer: `/ckpt/job/chk-${id}`, completedAt: 1_000 + id });
    expect(await store.latest()).toBeNull();
    expect(await store.add(handle(1))).toEqual([]);
    expect(await store.add(handle(2))).toEqual([]);
    expect(await store.add(handle(3))).toEqual([handle(1)]);
    expect(await store.add(handle(10))).toEqual([handle(2)]); // ids sort numerically, not as text
    expect(await store.list()).toEqual([handle(3), handle(10)]);
    expect(await store.latest()).toEqual(handle(10));
    await expect(store.add(handle(10))).rejects.toThrow("checkpoint 10 of job 0123456789abcdef0123456789abcdef is not newer than its completed checkpoint 10");
    await expect(store.add(handle(4))).rejects.toThrow(/not newer/);

    const b = await contender("b", etcd.endpoint);
    b.election.start();
    await a.election.stop();
    await waitFor("b to lead", () => b.last()?.active === true);
    const next = b.ha.completedCheckpointStore(JOB, b.last()!, 2);
    expect(await next.latest()).toEqual(handle(10));
    await next.remove(10);
    expect(await next.list()).toEqual([handle(3)]);
    expect(await next.add(handle(11))).toEqual([]);
    expect(await next.removeAll()).toEqual([handle(3), handle(11)]);
    expect(await next.list()).toEqual([]);
  });

  it("keeps submitted jobs for the next leader until they are removed", async () => {
    const { contender } = contenders(freshClusterId(), TTL);
    const a = await contender("a", etcd.endpoint);
    const jobs = a.ha.jobGraphStore(await leading(a));
    const job = (n: number) => ({
      jobId: `${n}`.repeat(32),
      jarId: `${"f".repeat(64)}.mjs`,
      programArgs: ["--rate", String(n)],
      configuration: { "parallelism.default": String(n), "execution.checkpointing.interval": "1 s" },
      submittedAt: 100 + n,
    });
    await jobs.put(job(2));
    await jobs.put(job(1));
    expect(await jobs.list()).toEqual([job(1), job(2)]);

    const b = await contender("b", etcd.endpoint);
    b.election.start();
    await a.election.stop();
    await waitFor("b to lead", () => b.last()?.active === true);
    const recovered = b.ha.jobGraphStore(b.last()!);
    expect(await recovered.list()).toEqual([job(1), job(2)]);
    expect(await recovered.get(job(2).jobId)).toEqual(job(2));
    await recovered.remove(job(1).jobId);
    expect(await recovered.list()).toEqual([job(2)]);
    expect(await recovered.get(job(1).jobId)).toBeNull();
    await expect(jobs.remove(job(2).jobId)).rejects.toBeInstanceOf(FencingError);
  });
});
