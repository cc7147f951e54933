/**
 * A job's checkpoints under high availability, on a real etcd and a real local checkpoint directory
 * (docs/high-availability.md, "Checkpoint ids" and "Cleaning up checkpoints"):
 * - every id is reserved in etcd's counter before it is used, ids only grow, a new leader never uses an id the
 *   deposed one used, and a fenced reservation is refused;
 * - after each commit in etcd, what etcd no longer holds below it is deleted — subsumed checkpoints, orphans whose
 *   commit was refused, the shared files nothing references — and checkpoints in flight above it stay; a refused
 *   commit deletes nothing.
 */
import { readdirSync } from "node:fs";
import { basename, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ReservedCheckpointIds } from "../src/checkpoint/coordinator/index.ts";
import { FileSystemCheckpointStorage } from "../src/checkpoint/storage/index.ts";
import { completedCheckpoint } from "../src/checkpoint/storage/test-checkpoints.ts";
import { IncrementalSubtask, referencedSharedFiles, sharedFilesOnDisk, taskStorage } from "../src/checkpoint/storage/test-incremental.ts";
import type { CompletedCheckpoint } from "../src/checkpoint/types.ts";
import { etcdJobHa } from "../src/cluster/etcd-job-ha.ts";
import { FencingError, Leadership } from "../src/cluster/ha/index.ts";
import { CheckpointCommitter } from "../src/runtime/execution/checkpoint-committer.ts";
import { nextCheckpointId } from "../src/runtime/execution/restore-decision.ts";
import { seededRandom } from "../src/util/seeded-random.ts";
import { waitFor } from "./support/cli-process.ts";
import { startEtcd, type EtcdServer } from "./support/etcd-server.ts";
import { type Contender, contenders, freshClusterId, leading } from "./support/ha-contenders.ts";
import { tempDirs } from "./support/temp-dirs.ts";

const TTL = 2_000;
const JOB = "0123456789abcdef0123456789abcdef";
const tempDir = tempDirs("weir-ha-checkpoints-");

let etcd: EtcdServer;
beforeAll(async () => {
  etcd = await startEtcd();
});
afterAll(() => etcd?.stop());

/** The next id of `ids`, waiting for a reservation when none is at hand. */
async function takeId(ids: ReservedCheckpointIds): Promise<number> {
  for (;;) {
    const id = ids.take();
    if (id !== undefined) return id;
    await ids.whenAvailable();
  }
}

/** The ids of the `chk-<id>` directories in `dir`, ascending. */
function checkpointDirs(dir: string): number[] {
  return readdirSync(dir)
    .flatMap((name) => /^chk-(\d+)$/.exec(name)?.[1] ?? [])
    .map(Number)
    .sort((a, b) => a - b);
}

/** Every file under `dir`, relative, sorted. */
function filesUnder(dir: string): string[] {
  return (readdirSync(dir, { recursive: true, withFileTypes: true }) as import("node:fs").Dirent[])
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name).slice(dir.length + 1))
    .sort();
}

/** A job's checkpoints as a leading job master runs them: ids reserved in etcd, storage without its own retention, commits through the committer. */
async function jobOf(c: Contender, leadership: Leadership, dir: string, retained: number, from: number, seed: number) {
  const jobHa = etcdJobHa(c.ha, leadership, JOB, retained);
  const warnings: string[] = [];
  const ids = await ReservedCheckpointIds.start({ from, blockSize: 4, reserve: (first, count) => jobHa.reserve(first, count), onReserveFailed: () => {} });
  const storage = new FileSystemCheckpointStorage({ directory: dir, retained: null, log: (w) => warnings.push(w) });
  const committer = new CheckpointCommitter(jobHa, storage, (w) => warnings.push(w));
  const random = seededRandom(seed);
  const subtasks = [new IncrementalSubtask("counts", 0, random), new IncrementalSubtask("counts", 1, random)];
  /** The acknowledgements of checkpoint `id`: subtask 1 writes a new base when `rebase`, so its old chain becomes garbage. */
  const snapshot = (id: number, rebase = false) => Promise.all(subtasks.map((s) => s.snapshot(taskStorage(dir), id, rebase && s.subtask === 1)));
  /** Takes an id, snapshots, writes the metadata: the checkpoint as the coordinator hands it to the commit. */
  const written = async (rebase = false): Promise<CompletedCheckpoint> => {
    const id = await takeId(ids);
    return storage.addCompleted(completedCheckpoint(id, await snapshot(id, rebase)));
  };
  return { jobHa, ids, storage, committer, subtasks, snapshot, written, warnings };
}

describe("checkpoint ids reserved in etcd", () => {
  it("are reserved before use and only grow; a new leader never uses one the deposed leader used; a fenced reservation is refused", async () => {
    const { contender } = contenders(freshClusterId(), TTL);
    const a = await contender("a", etcd.endpoint);
    const first = await leading(a);
    const counter = a.ha.checkpointIdCounter(JOB, first);
    const failures: unknown[] = [];
    const aHa = etcdJobHa(a.ha, first, JOB, 1);
    const ids = await ReservedCheckpointIds.start({ from: 3, blockSize: 4, reserve: (from, count) => aHa.reserve(from, count), onReserveFailed: (e) => failures.push(e) });
    const used: number[] = [];
    while (used.length < 30) {
      const id = await takeId(ids);
      expect(id).toBeGreaterThan(used.at(-1) ?? 2);
      expect(id).toBeLessThan(await counter.get()); // etcd's counter is past it before it is used
      used.push(id);
    }
    expect(used[0]).toBe(3);

    const b = await contender("b", etcd.endpoint);
    b.election.start();
    await a.election.stop();
    await waitFor("b to lead", () => b.last()?.active === true);
    // a uses up what it reserved; its next reservation is refused (it stepped down)
    const fenced = await (async () => {
      for (;;) {
        const id = ids.take();
        if (id !== undefined) used.push(id);
        else await ids.whenAvailable();
      }
    })().catch((e: unknown) => e);
    expect(fenced).toBeInstanceOf(FencingError);
    expect(failures.at(-1)).toBe(fenced); // told (a reservation ahead of use may have been refused before it)
    expect(failures.every((e) => e instanceof FencingError)).toBe(true);
    // a reservation that still carries a's epoch, as from a deposed leader that has not heard yet: refused by etcd
    const stale = new Leadership(a.ha.client, "jobmanager", a.ha.keys.leader("jobmanager"), first.epoch, "a");
    const refused = await etcdJobHa(a.ha, stale, JOB, 1).reserve(1, 4).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(FencingError);
    expect((refused as FencingError).currentEpoch).toBe(b.last()!.epoch);

    const bHa = etcdJobHa(b.ha, b.last()!, JOB, 1);
    const bIds = await ReservedCheckpointIds.start({ from: 1, blockSize: 4, reserve: (from, count) => bHa.reserve(from, count), onReserveFailed: () => {} });
    const bCounter = b.ha.checkpointIdCounter(JOB, b.last()!);
    for (let n = 0; n < 10; n++) {
      const id = await takeId(bIds);
      expect(id).toBeGreaterThan(Math.max(...used));
      expect(id).toBeLessThan(await bCounter.get());
    }
  });
});

describe("checkpoint data under high availability", () => {
  for (const retained of [1, 2]) {
    it(`keeps only what etcd holds (${retained} retained), the shared files it references and what is in flight`, async () => {
      const dir = tempDir();
      const { contender } = contenders(freshClusterId(), TTL);
      const a = await contender("a", etcd.endpoint);
      const job = await jobOf(a, await leading(a), dir, retained, 1, 7 + retained);
      const committed: number[] = [];
      for (let n = 1; n <= 10; n++) {
        const checkpoint = await job.written(n % 4 === 0);
        await job.committer.commit(checkpoint);
        committed.push(checkpoint.checkpointId);
      }
      // the last one is committed while the next is in flight (its files written, no metadata yet)
      const lastId = await takeId(job.ids);
      const lastAcks = await job.snapshot(lastId);
      const inFlight = await takeId(job.ids);
      const inFlightAcks = await job.snapshot(inFlight);
      await job.committer.commit(await job.storage.addCompleted(completedCheckpoint(lastId, lastAcks)));
      committed.push(lastId);
      await job.committer.settled();

      const kept = committed.slice(-retained);
      expect(await job.jobHa.committedIds()).toEqual(kept);
      expect(checkpointDirs(dir)).toEqual([...kept, inFlight]);
      const expected = await referencedSharedFiles(job.storage);
      for (const { shared } of inFlightAcks) expected.add(join(dir, "shared", basename(shared.at(-1)!.path)));
      expect([...(await sharedFilesOnDisk(dir))].sort()).toEqual([...expected].sort());
      const latest = await job.storage.latestCompleted();
      expect(latest.checkpoint?.checkpointId).toBe(lastId);
      expect(latest.damaged).toEqual([]);
      expect(job.warnings).toEqual([]);
    });
  }

  it("a refused commit deletes nothing; the next leader's first commit deletes the orphan and what it subsumed", async () => {
    const dir = tempDir();
    const { contender } = contenders(freshClusterId(), TTL);
    const a = await contender("a", etcd.endpoint);
    const first = await leading(a);
    const job = await jobOf(a, first, dir, 1, 1, 3);
    for (let n = 1; n <= 3; n++) await job.committer.commit(await job.written(n === 3));
    await job.committer.settled();
    expect(checkpointDirs(dir)).toEqual([3]);
    const orphan = await job.written(); // its metadata is written; its commit will be refused
    expect(orphan.checkpointId).toBe(4);

    const b = await contender("b", etcd.endpoint);
    b.election.start();
    await a.election.stop();
    await waitFor("b to lead", () => b.last()?.active === true);
    const before = filesUnder(dir);
    // refused by etcd (a's epoch, as from a deposed leader that has not heard yet), and by a itself (it stepped down)
    const stale = new Leadership(a.ha.client, "jobmanager", a.ha.keys.leader("jobmanager"), first.epoch, "a");
    const staleCommitter = new CheckpointCommitter(etcdJobHa(a.ha, stale, JOB, 1), job.storage, () => {});
    await expect(staleCommitter.commit(orphan)).rejects.toMatchObject({ name: "FencingError", currentEpoch: b.last()!.epoch });
    await expect(job.committer.commit(orphan)).rejects.toBeInstanceOf(FencingError);
    await staleCommitter.settled();
    await job.committer.settled();
    expect(filesUnder(dir)).toEqual(before);
    expect(checkpointDirs(dir)).toEqual([3, 4]);

    // b restores what etcd holds and numbers above every id a reserved
    const restored = (await etcdJobHa(b.ha, b.last()!, JOB, 1).latest())!;
    expect(restored.checkpointId).toBe(3);
    const next = await jobOf(b, b.last()!, dir, 1, nextCheckpointId(await job.storage.highestCheckpointId(), 0, restored.checkpointId), 5);
    for (const s of next.subtasks) s.restore(restored);
    const checkpoint = await next.written();
    const id = checkpoint.checkpointId;
    expect(id).toBe(9); // a reserved 1 … 8 (two blocks of 4)
    await next.committer.commit(checkpoint);
    await next.committer.settled();
    expect(checkpointDirs(dir)).toEqual([id]);
    expect([...(await sharedFilesOnDisk(dir))].sort()).toEqual([...(await referencedSharedFiles(next.storage))].sort());
    expect((await next.storage.latestCompleted()).checkpoint?.checkpointId).toBe(id);
  });
});
