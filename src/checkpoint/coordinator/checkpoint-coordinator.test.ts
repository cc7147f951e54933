import { describe, expect, it } from "vitest";
import type { CheckpointBarrier, CheckpointSettings, CompletedCheckpoint, TaskAcknowledgement } from "../types.ts";
import { ManualClock } from "../../util/clock.ts";
import { createLogger } from "../../util/logger.ts";
import { CheckpointCoordinator } from "./checkpoint-coordinator.ts";
import { checkpointIdsFrom } from "./checkpoint-ids-from.ts";
import type { CheckpointIdSource, CompletedCheckpointStore, CoordinatorGateway } from "./ports.ts";
import { CheckpointAbortedError, CheckpointTriggerError, TolerableCheckpointFailuresExceeded } from "./errors.ts";

/** Records every gateway and store call, in order, in one shared event list. */
class RecordingGateway implements CoordinatorGateway {
  readonly barriers: { taskId: string; barrier: CheckpointBarrier }[] = [];
  constructor(private readonly events: string[]) {}
  triggerSource(taskId: string, barrier: CheckpointBarrier): void {
    this.barriers.push({ taskId, barrier });
    this.events.push(`trigger ${taskId} ${barrier.id}`);
  }
  notifyComplete(taskId: string, checkpointId: number): void {
    this.events.push(`complete ${taskId} ${checkpointId}`);
  }
  notifyAborted(taskId: string, checkpointId: number): void {
    this.events.push(`aborted ${taskId} ${checkpointId}`);
  }
}

/** An in-memory store; `hold()` makes the next addCompleted wait until released, `failNext()` makes it reject. */
class InMemoryStore implements CompletedCheckpointStore {
  readonly stored: CompletedCheckpoint[] = [];
  private held: (() => void)[] = [];
  private holding = false;
  private failures: string[] = [];
  constructor(private readonly events: string[]) {}
  hold(): void {
    this.holding = true;
  }
  release(): void {
    this.holding = false;
    for (const r of this.held.splice(0)) r();
  }
  failNext(message: string): void {
    this.failures.push(message);
  }
  async addCompleted(checkpoint: CompletedCheckpoint): Promise<CompletedCheckpoint> {
    if (this.holding) await new Promise<void>((r) => this.held.push(r));
    const failure = this.failures.shift();
    if (failure !== undefined) throw new Error(failure);
    const result = { ...checkpoint, directory: `/cp/chk-${checkpoint.checkpointId}` };
    this.stored.push(result);
    this.events.push(`stored ${checkpoint.checkpointId}`);
    return result;
  }
  async discardAborted(checkpointId: number): Promise<void> {
    this.events.push(`discard ${checkpointId}`);
  }
}

/** Ids handed out only once given (as reserved ids arrive from etcd): `take` finds none before. */
class GivenIds implements CheckpointIdSource {
  private readonly ids: number[] = [];
  private waiting: (() => void)[] = [];
  give(...ids: number[]): void {
    this.ids.push(...ids);
    for (const w of this.waiting.splice(0)) w();
  }
  take(): number | undefined {
    return this.ids.shift();
  }
  whenAvailable(): Promise<void> {
    return this.ids.length > 0 ? Promise.resolve() : new Promise((r) => this.waiting.push(r));
  }
}

const settings = (over: Partial<CheckpointSettings> = {}): CheckpointSettings => ({
  intervalMs: 1000,
  mode: "exactly-once",
  timeoutMs: 10_000,
  minPauseMs: 0,
  maxConcurrent: 1,
  tolerableFailures: 0,
  retained: 1,
  storage: { type: "jobmanager" },
  ...over,
});

const flush = () => new Promise<void>((r) => setImmediate(r));

function setup(over: Partial<CheckpointSettings> = {}, firstCheckpointId = 1, ids: CheckpointIdSource = checkpointIdsFrom(firstCheckpointId)) {
  const events: string[] = [];
  const clock = new ManualClock(0);
  const gateway = new RecordingGateway(events);
  const store = new InMemoryStore(events);
  const failures: Error[] = [];
  const coordinator = new CheckpointCoordinator({
    jobName: "wc",
    graphFingerprint: "fp1",
    settings: settings(over),
    clock,
    sourceTasks: ["src#0", "src#1"],
    allTasks: ["src#0", "src#1", "sink#0"],
    gateway,
    store,
    ids,
    onFailure: (e) => failures.push(e),
  });
  const ack = (checkpointId: number, taskId: string, size = 10, alignmentMs = 0): void =>
    coordinator.acknowledge(ackOf(checkpointId, taskId, size, alignmentMs));
  const ackAll = (checkpointId: number): void => {
    for (const t of ["src#0", "src#1", "sink#0"]) ack(checkpointId, t);
  };
  return { events, clock, gateway, store, failures, coordinator, ack, ackAll };
}

function ackOf(checkpointId: number, taskId: string, size: number, alignmentMs: number): TaskAcknowledgement {
  const [op, idx] = taskId.split("#");
  return {
    checkpointId,
    taskId,
    states: [
      {
        operatorUid: op!,
        subtaskIndex: Number(idx),
        parallelism: 2,
        maxParallelism: 128,
        handle: { kind: "inline", data: new Uint8Array(size), size, crc: 0 },
      },
    ],
    alignmentMs,
    syncMs: 1,
    asyncMs: 2,
  };
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => expect.fail("expected a rejection"),
    (e: unknown) => e,
  );
}

describe("CheckpointCoordinator", () => {
  it("triggers the sources, collects acks, stores and resolves with the stored checkpoint", async () => {
    const { coordinator, gateway, clock, ack, store } = setup({}, 7);
    clock.set(500);
    const done = coordinator.triggerCheckpoint();
    expect(gateway.barriers).toEqual([
      { taskId: "src#0", barrier: { kind: "barrier", id: 7, timestamp: 500, savepoint: false } },
      { taskId: "src#1", barrier: { kind: "barrier", id: 7, timestamp: 500, savepoint: false } },
    ]);
    ack(7, "src#0", 10);
    ack(7, "src#1", 20);
    clock.set(540);
    await flush();
    expect(store.stored).toEqual([]);
    expect(coordinator.stats().counts.inProgress).toBe(1);
    expect(coordinator.stats().pending).toMatchObject([{ checkpointId: 7, triggeredAt: 500, subtasks: 3, acks: [{ taskId: "src#0", ackedAt: 500, stateSize: 10, checkpointedSize: 10 }, { taskId: "src#1", stateSize: 20, checkpointedSize: 20 }] }]);
    ack(7, "sink#0", 30, 12);
    const completed = await done;
    expect(completed).toMatchObject({
      version: 1,
      jobName: "wc",
      checkpointId: 7,
      timestamp: 500,
      completedAt: 540,
      savepoint: false,
      graphFingerprint: "fp1",
      directory: "/cp/chk-7",
    });
    expect(completed.states.map((s) => s.operatorUid)).toEqual(["src", "src", "sink"]);
    const stats = coordinator.stats();
    expect(stats.counts).toEqual({ triggered: 1, completed: 1, failed: 0, aborted: 0, inProgress: 0 });
    expect(stats.lastCompleted).toMatchObject({ checkpointId: 7, triggeredAt: 500, durationMs: 40, stateSize: 60, checkpointedSize: 60, maxAlignmentMs: 12, subtasks: 3 });
    expect(stats.lastCompleted!.acks.map((a) => [a.taskId, a.ackedAt, a.stateSize, a.alignmentMs])).toEqual([
      ["src#0", 500, 10, 0],
      ["src#1", 500, 20, 0],
      ["sink#0", 540, 30, 12],
    ]);
    expect(stats.pending).toEqual([]);
  });

  it("counts the shared files of incremental chains: all referenced as stateSize, the ones this checkpoint wrote as checkpointedSize", async () => {
    const { coordinator, clock, ack } = setup({}, 9);
    clock.set(100);
    const done = coordinator.triggerCheckpoint();
    const chained = ackOf(9, "src#0", 10, 0);
    const shared = [
      { path: "../shared/base", size: 1_000_000, crc: 0, checkpointId: 5 },
      { path: "../shared/delta-8", size: 2_000, crc: 0, checkpointId: 8 },
      { path: "../shared/delta-9", size: 3_000, crc: 0, checkpointId: 9 },
    ];
    coordinator.acknowledge({ ...chained, states: [{ ...chained.states[0]!, shared }] });
    ack(9, "src#1", 20);
    ack(9, "sink#0", 30);
    await done;
    const last = coordinator.stats().lastCompleted!;
    expect(last).toMatchObject({ stateSize: 10 + 1_002_000 + 3_000 + 20 + 30, checkpointedSize: 10 + 3_000 + 20 + 30 });
    expect(last.acks.map((a) => [a.taskId, a.stateSize, a.checkpointedSize])).toEqual([
      ["src#0", 1_005_010, 3_010],
      ["src#1", 20, 20],
      ["sink#0", 30, 30],
    ]);
  });

  it("notifies every task of completion only after the checkpoint is stored", async () => {
    const { coordinator, events, store, ackAll } = setup();
    store.hold();
    const done = coordinator.triggerCheckpoint();
    ackAll(1);
    await flush();
    expect(events.filter((e) => e.startsWith("complete") || e.startsWith("stored"))).toEqual([]);
    store.release();
    await done;
    expect(events.slice(2)).toEqual(["stored 1", "complete src#0 1", "complete src#1 1", "complete sink#0 1"]);
  });

  it("expires a checkpoint after timeoutMs, notifies the tasks and discards it", async () => {
    const { coordinator, clock, events, ack } = setup({ timeoutMs: 300, tolerableFailures: 5 });
    const done = coordinator.triggerCheckpoint();
    ack(1, "src#0");
    clock.advance(299);
    expect(coordinator.stats().counts.inProgress).toBe(1);
    clock.advance(1);
    const error = await rejection(done);
    expect(error).toBeInstanceOf(CheckpointAbortedError);
    expect(error).toMatchObject({ checkpointId: 1, reason: "expired" });
    expect(events.slice(2)).toEqual(["aborted src#0 1", "aborted src#1 1", "aborted sink#0 1", "discard 1"]);
    expect(coordinator.stats().counts).toMatchObject({ failed: 1, inProgress: 0 });
    ack(1, "src#1");
    expect(coordinator.stats().counts.completed).toBe(0);
  });

  it("aborts a declined checkpoint, with the task and reason in the message", async () => {
    const { coordinator, events } = setup({ tolerableFailures: 1 });
    const done = coordinator.triggerCheckpoint();
    coordinator.decline(1, "sink#0", "state too large");
    const error = (await rejection(done)) as CheckpointAbortedError;
    expect(error.reason).toBe("declined");
    expect(error.message).toBe('Checkpoint 1 of job "wc" declined by task sink#0: state too large');
    expect(events.slice(2)).toEqual(["aborted src#0 1", "aborted src#1 1", "aborted sink#0 1", "discard 1"]);
    expect(coordinator.stats().history.failed).toEqual([
      expect.objectContaining({ checkpointId: 1, reason: "declined", isFailure: true, message: error.message }),
    ]);
  });

  it("triggers a requested checkpoint at once, beyond maxConcurrent", async () => {
    const { coordinator, ackAll, gateway } = setup({ maxConcurrent: 1 });
    const first = coordinator.triggerCheckpoint();
    const second = coordinator.triggerCheckpoint();
    const savepoint = coordinator.triggerSavepoint(async (c) => c);
    expect(gateway.barriers.map((b) => b.barrier.id)).toEqual([1, 1, 2, 2, 3, 3]);
    expect(coordinator.stats().counts.inProgress).toBe(3);
    ackAll(1);
    ackAll(2);
    ackAll(3);
    expect((await Promise.all([first, second, savepoint])).map((c) => c.checkpointId)).toEqual([1, 2, 3]);
  });

  it("once a savepoint's write resolved, its statistics are completed, at the location the write gave, none in progress", async () => {
    const { coordinator, ackAll } = setup();
    const savepoint = coordinator.triggerSavepoint(async (c) => `/savepoints/savepoint-${c.checkpointId}`, { location: (path) => path });
    expect(coordinator.stats().pending.map((p) => [p.checkpointId, p.savepoint])).toEqual([[1, true]]);
    ackAll(1);
    expect(await savepoint).toBe("/savepoints/savepoint-1");
    const stats = coordinator.stats();
    expect(stats.pending).toEqual([]);
    expect(stats.counts.inProgress).toBe(0);
    expect(stats.history.completed.map((c) => [c.checkpointId, c.savepoint, c.location])).toEqual([[1, true, "/savepoints/savepoint-1"]]);
    expect(stats.lastCompleted?.location).toBe("/savepoints/savepoint-1");
  });

  it("a savepoint is not starved by periodic checkpoints slower than the interval", async () => {
    const { coordinator, clock, gateway, ackAll } = setup({ intervalMs: 100 });
    coordinator.startPeriodic();
    clock.advance(250); // checkpoint 1 at 100; the tick at 200 waits for a slot
    const savepoint = coordinator.triggerSavepoint(async (c) => c);
    expect(gateway.barriers.map((b) => [b.barrier.id, b.barrier.timestamp, b.barrier.savepoint])).toEqual([
      [1, 100, false],
      [1, 100, false],
      [2, 250, true],
      [2, 250, true],
    ]);
    ackAll(1);
    await flush();
    // The freed slot does not go to the waiting periodic trigger while the savepoint is in flight.
    expect(coordinator.stats().counts.triggered).toBe(2);
    clock.advance(10);
    ackAll(2);
    expect((await savepoint).checkpointId).toBe(2);
    await flush();
    expect(gateway.barriers.at(-1)!.barrier).toMatchObject({ id: 3, timestamp: 260, savepoint: false });
  });

  it("stores no later checkpoint while a savepoint is being copied, and resolves with what the copy returns", async () => {
    const { coordinator, store, ackAll } = setup({ maxConcurrent: 2 });
    let copied!: () => void;
    const copying = new Promise<void>((r) => (copied = r));
    const savepoint = coordinator.triggerSavepoint(async (c) => {
      await copying;
      return `/savepoints/savepoint-wc-${c.checkpointId}`;
    });
    const later = coordinator.triggerCheckpoint();
    ackAll(1);
    ackAll(2);
    await flush();
    expect(store.stored.map((c) => c.checkpointId)).toEqual([1]);
    copied();
    expect(await savepoint).toBe("/savepoints/savepoint-wc-1");
    expect((await later).checkpointId).toBe(2);
    expect(store.stored.map((c) => c.checkpointId)).toEqual([1, 2]);
  });

  it("rejects a savepoint with the error of its copy; the checkpoint itself completed", async () => {
    const { coordinator, ackAll, events } = setup();
    const savepoint = coordinator.triggerSavepoint(async () => {
      throw new Error("disk full at /savepoints");
    });
    ackAll(1);
    expect(((await rejection(savepoint)) as Error).message).toBe("disk full at /savepoints");
    expect(events).toContain("complete sink#0 1");
    expect(coordinator.stats().counts).toMatchObject({ completed: 1, failed: 0 });
  });

  it("rejects a savepoint once a task finished", async () => {
    const { coordinator } = setup();
    coordinator.taskFinished("src#0");
    const error = await rejection(coordinator.triggerSavepoint(async (c) => c));
    expect(error).toBeInstanceOf(CheckpointTriggerError);
    expect(error).toMatchObject({ reason: "finished-tasks" });
  });

  it("runs periodic checkpoints slower than the interval back to back, minPauseMs apart, one at a time", async () => {
    // Interval 30 ms, every checkpoint takes 80 ms, min pause 20 ms: a trigger 20 ms after each end.
    const { coordinator, clock, gateway, ackAll } = setup({ intervalMs: 30, minPauseMs: 20 });
    coordinator.startPeriodic();
    const seen = new Set<number>();
    for (let t = 0; t < 1000; t++) {
      clock.advance(1);
      for (const { barrier } of gateway.barriers) {
        if (seen.has(barrier.id)) continue;
        seen.add(barrier.id);
        clock.setTimeout(() => ackAll(barrier.id), 80);
      }
      expect(coordinator.stats().counts.inProgress).toBeLessThanOrEqual(1);
      await flush();
    }
    const triggeredAt = [...new Set(gateway.barriers.map((b) => b.barrier.timestamp))];
    expect(triggeredAt).toEqual([30, 130, 230, 330, 430, 530, 630, 730, 830, 930]);
  });

  it("counts the min pause from the end of an aborted checkpoint too", async () => {
    const { coordinator, clock, gateway } = setup({ intervalMs: 10, minPauseMs: 50, timeoutMs: 30, tolerableFailures: 5 });
    coordinator.startPeriodic();
    clock.advance(40); // checkpoint 1 at 10 expires at 40
    expect(coordinator.stats().counts).toMatchObject({ triggered: 1, failed: 1 });
    clock.advance(49);
    expect(coordinator.stats().counts.triggered).toBe(1);
    clock.advance(1);
    expect(gateway.barriers.at(-1)!.barrier).toMatchObject({ id: 2, timestamp: 90 });
  });

  it("discards again what a task wrote for a checkpoint after its abort (late ack or decline)", async () => {
    const { coordinator, clock, events, ack } = setup({ timeoutMs: 100, tolerableFailures: 5 });
    const done = coordinator.triggerCheckpoint();
    ack(1, "src#0");
    clock.advance(100);
    await rejection(done);
    await flush();
    expect(events.filter((e) => e === "discard 1")).toHaveLength(1);
    ack(1, "src#1");
    coordinator.decline(1, "sink#0", "write failed: chk-1 was deleted");
    await coordinator.whenStoresSettled();
    expect(events.filter((e) => e === "discard 1")).toHaveLength(3);
    expect(coordinator.stats().counts).toMatchObject({ completed: 0, failed: 1 });
  });

  it("postpones a periodic trigger until an in-flight checkpoint leaves, then triggers at once", async () => {
    const { coordinator, clock, gateway, ackAll } = setup({ intervalMs: 100 });
    coordinator.startPeriodic();
    clock.advance(99);
    expect(gateway.barriers).toHaveLength(0);
    clock.advance(1);
    expect(gateway.barriers.map((b) => b.barrier.id)).toEqual([1, 1]);
    clock.advance(250);
    expect(gateway.barriers).toHaveLength(2);
    expect(coordinator.stats().counts.inProgress).toBe(1);
    ackAll(1);
    await flush();
    expect(gateway.barriers.map((b) => [b.barrier.id, b.barrier.timestamp])).toEqual([
      [1, 100],
      [1, 100],
      [2, 350],
      [2, 350],
    ]);
    clock.advance(100);
    expect(coordinator.stats().counts.triggered).toBe(2);
  });

  it("delays the next periodic trigger until minPauseMs after the last completion", async () => {
    const { coordinator, clock, gateway, ackAll } = setup({ intervalMs: 100, minPauseMs: 80 });
    coordinator.startPeriodic();
    clock.advance(100);
    clock.advance(90);
    ackAll(1);
    await flush();
    clock.advance(10);
    expect(coordinator.stats().counts.triggered).toBe(1);
    clock.advance(69);
    expect(coordinator.stats().counts.triggered).toBe(1);
    clock.advance(1);
    expect(gateway.barriers.at(-1)!.barrier).toMatchObject({ id: 2, timestamp: 270 });
  });

  it("tolerates tolerableFailures consecutive failures and fails the job on one more", async () => {
    const { coordinator, failures } = setup({ tolerableFailures: 2 });
    for (const id of [1, 2]) {
      const p = coordinator.triggerCheckpoint();
      coordinator.decline(id, "sink#0", `reason ${id}`);
      await rejection(p);
    }
    expect(failures).toEqual([]);
    expect(coordinator.stats().consecutiveFailures).toBe(2);
    const p = coordinator.triggerCheckpoint();
    coordinator.decline(3, "sink#0", 'state "count" of operator "counter" exceeds 5 MiB');
    await rejection(p);
    expect(failures).toHaveLength(1);
    expect(failures[0]).toBeInstanceOf(TolerableCheckpointFailuresExceeded);
    expect(failures[0]!.message).toContain('state "count" of operator "counter" exceeds 5 MiB');
    expect(failures[0]!.message).toContain("3 consecutive");
  });

  it("resets the consecutive failures on a completed checkpoint", async () => {
    const { coordinator, failures, ackAll } = setup({ tolerableFailures: 1 });
    const p1 = coordinator.triggerCheckpoint();
    coordinator.decline(1, "sink#0", "x");
    await rejection(p1);
    const p2 = coordinator.triggerCheckpoint();
    ackAll(2);
    await p2;
    expect(coordinator.stats().consecutiveFailures).toBe(0);
    const p3 = coordinator.triggerCheckpoint();
    coordinator.decline(3, "sink#0", "y");
    await rejection(p3);
    expect(failures).toEqual([]);
    const p4 = coordinator.triggerCheckpoint();
    coordinator.decline(4, "sink#0", "z");
    await rejection(p4);
    expect(failures).toHaveLength(1);
  });

  it("stops periodic triggering once the tolerable failures are exceeded", () => {
    const { coordinator, clock, failures } = setup({ intervalMs: 100, timeoutMs: 50 });
    coordinator.startPeriodic();
    clock.advance(150);
    expect(failures).toHaveLength(1);
    expect(failures[0]!.message).toContain("expired after 50 ms");
    clock.advance(1000);
    expect(coordinator.stats().counts.triggered).toBe(1);
  });

  it("a newer completed checkpoint subsumes an older pending one", async () => {
    const { coordinator, events, ack, ackAll } = setup({ maxConcurrent: 2 });
    const older = coordinator.triggerCheckpoint();
    const newer = coordinator.triggerCheckpoint();
    ack(1, "src#0");
    ackAll(2);
    await newer;
    const error = await rejection(older);
    expect(error).toMatchObject({ checkpointId: 1, reason: "subsumed" });
    await coordinator.whenStoresSettled();
    expect(events.slice(4)).toEqual([
      "stored 2",
      "aborted src#0 1",
      "aborted src#1 1",
      "aborted sink#0 1",
      "complete src#0 2",
      "complete src#1 2",
      "complete sink#0 2",
      "discard 1",
    ]);
    expect(coordinator.stats().counts).toMatchObject({ completed: 1, failed: 0, aborted: 1 });
    expect(coordinator.stats().consecutiveFailures).toBe(0);
  });

  it("a newer completed checkpoint never subsumes a pending savepoint (Flink's savepoints are not subsumable)", async () => {
    const { coordinator, ack, ackAll } = setup({ maxConcurrent: 2 });
    const savepoint = coordinator.triggerSavepoint(async (s) => s.checkpointId);
    const newer = coordinator.triggerCheckpoint();
    ack(1, "src#0");
    ackAll(2);
    await newer;
    ackAll(1);
    await expect(savepoint).resolves.toBe(1);
    expect(coordinator.stats().counts).toMatchObject({ completed: 2, failed: 0 });
  });

  it("stores checkpoints one at a time, in the order they were fully acknowledged", async () => {
    const { coordinator, store, ackAll } = setup({ maxConcurrent: 2 });
    store.hold();
    const first = coordinator.triggerCheckpoint();
    const second = coordinator.triggerCheckpoint();
    ackAll(1);
    ackAll(2);
    await flush();
    store.release();
    await flush();
    store.release();
    expect((await first).checkpointId).toBe(1);
    expect((await second).checkpointId).toBe(2);
    expect(store.stored.map((c) => c.checkpointId)).toEqual([1, 2]);
  });

  it("ignores duplicate, foreign and unknown acks", async () => {
    const logs: string[] = [];
    const events: string[] = [];
    const clock = new ManualClock(0);
    const coordinator = new CheckpointCoordinator({
      jobName: "wc",
      graphFingerprint: "fp1",
      settings: settings(),
      clock,
      sourceTasks: ["a#0"],
      allTasks: ["a#0", "b#0"],
      gateway: new RecordingGateway(events),
      store: new InMemoryStore(events),
      ids: checkpointIdsFrom(1),
      onFailure: () => {},
      logger: createLogger({ level: "debug", destination: (r) => logs.push(r.msg) }),
    });
    const done = coordinator.triggerCheckpoint();
    coordinator.acknowledge(ackOf(1, "a#0", 5, 0));
    coordinator.acknowledge(ackOf(1, "a#0", 5, 0));
    coordinator.acknowledge(ackOf(1, "x#0", 5, 0));
    coordinator.acknowledge(ackOf(9, "b#0", 5, 0));
    await flush();
    expect(coordinator.stats().counts.inProgress).toBe(1);
    coordinator.acknowledge(ackOf(1, "b#0", 5, 0));
    const completed = await done;
    expect(completed.states).toHaveLength(2);
    expect(logs.filter((l) => l.includes("ignoring ack"))).toHaveLength(3);
    expect(events.filter((e) => e.startsWith("complete"))).toEqual(["complete a#0 1", "complete b#0 1"]);
  });

  it("shutdown aborts pending checkpoints without counting failures and stops the timers", async () => {
    const { coordinator, clock, events, failures } = setup({ intervalMs: 100, maxConcurrent: 2 });
    coordinator.startPeriodic();
    clock.advance(100);
    const manual = coordinator.triggerCheckpoint();
    coordinator.shutdown("job failover");
    const error = await rejection(manual);
    expect(error).toMatchObject({ reason: "shutdown" });
    expect((error as Error).message).toContain("job failover");
    expect(events.filter((e) => e.startsWith("aborted"))).toHaveLength(6);
    expect(clock.pendingTimers()).toBe(0);
    expect(failures).toEqual([]);
    expect(coordinator.stats().counts).toMatchObject({ failed: 0, aborted: 2, inProgress: 0 });
    expect(await rejection(coordinator.triggerCheckpoint())).toMatchObject({ reason: "shutdown" });
  });

  it("a checkpoint being stored at shutdown still completes, without notifications", async () => {
    const { coordinator, store, events, ackAll } = setup();
    store.hold();
    const done = coordinator.triggerCheckpoint();
    ackAll(1);
    await flush();
    coordinator.shutdown("job failover");
    let settled = false;
    const settling = coordinator.whenStoresSettled().then(() => (settled = true));
    await flush();
    expect(settled).toBe(false);
    store.release();
    await settling;
    expect(events.slice(2)).toEqual(["stored 1"]);
    expect((await done).checkpointId).toBe(1);
  });

  it("taskFinished aborts checkpoints waiting for the task (not a failure) and stops triggering", async () => {
    const { coordinator, clock, ack, failures } = setup({ intervalMs: 100, maxConcurrent: 2 });
    coordinator.startPeriodic();
    clock.advance(100);
    const acked = coordinator.triggerCheckpoint();
    ack(2, "src#0");
    ack(1, "src#1");
    coordinator.taskFinished("src#0");
    expect(coordinator.stats().counts).toMatchObject({ aborted: 1, inProgress: 1, failed: 0 });
    expect(coordinator.stats().history.failed[0]).toMatchObject({ checkpointId: 1, reason: "finished-tasks", isFailure: false });
    ack(2, "src#1");
    ack(2, "sink#0");
    expect((await acked).checkpointId).toBe(2);
    clock.advance(1000);
    expect(coordinator.stats().counts.triggered).toBe(2);
    const error = await rejection(coordinator.triggerCheckpoint());
    expect(error).toMatchObject({ reason: "finished-tasks" });
    expect((error as Error).message).toContain("src#0");
    expect(failures).toEqual([]);
  });

  it("counts a checkpoint the store could not store as a failure and aborts it", async () => {
    const { coordinator, store, events, failures, ackAll } = setup();
    store.failNext("disk full at /cp/chk-1/_metadata");
    const done = coordinator.triggerCheckpoint();
    ackAll(1);
    const error = (await rejection(done)) as CheckpointAbortedError;
    expect(error.reason).toBe("store-failed");
    expect(error.message).toContain("disk full at /cp/chk-1/_metadata");
    expect(events.filter((e) => e.startsWith("complete"))).toEqual([]);
    expect(events.filter((e) => e.startsWith("aborted"))).toHaveLength(3);
    expect(failures).toHaveLength(1);
    expect(failures[0]!.message).toContain("disk full");
  });

  it("does not count a failed savepoint towards the tolerable failures", async () => {
    const { coordinator, gateway, failures } = setup();
    const done = coordinator.triggerSavepoint(async (c) => c);
    expect(gateway.barriers[0]!.barrier.savepoint).toBe(true);
    coordinator.decline(1, "sink#0", "no");
    expect((await rejection(done)) as Error).toMatchObject({ reason: "declined", message: expect.stringMatching(/^Savepoint 1/) });
    expect(failures).toEqual([]);
    expect(coordinator.stats().counts.failed).toBe(1);
  });

  it("takes every id from its id source: a periodic trigger with none at hand is skipped until the next interval, a requested one waits for one", async () => {
    const ids = new GivenIds();
    const logs: string[] = [];
    const events: string[] = [];
    const clock = new ManualClock(0);
    const coordinator = new CheckpointCoordinator({
      jobName: "wc",
      graphFingerprint: "fp1",
      settings: settings({ intervalMs: 100 }),
      clock,
      sourceTasks: ["a#0"],
      allTasks: ["a#0"],
      gateway: new RecordingGateway(events),
      store: new InMemoryStore(events),
      ids,
      onFailure: () => {},
      logger: createLogger({ level: "debug", destination: (r) => logs.push(r.msg) }),
    });
    coordinator.startPeriodic();
    clock.advance(100);
    expect(events).toEqual([]);
    expect(logs).toContain("skipping this checkpoint: no checkpoint id is reserved yet (trying again at the next interval)");
    ids.give(20, 21);
    clock.advance(99);
    expect(events).toEqual([]); // not before the next interval
    clock.advance(1);
    expect(events).toEqual(["trigger a#0 20"]);
    coordinator.acknowledge(ackOf(20, "a#0", 5, 0));
    await coordinator.whenStoresSettled();
    const requested = coordinator.triggerCheckpoint();
    expect(events.at(-1)).toBe("trigger a#0 21");
    coordinator.acknowledge(ackOf(21, "a#0", 5, 0));
    expect((await requested).checkpointId).toBe(21);
    coordinator.stopPeriodic();

    const waiting = coordinator.triggerSavepoint(async (c) => c);
    await flush();
    expect(events.filter((e) => e.startsWith("trigger"))).toEqual(["trigger a#0 20", "trigger a#0 21"]);
    expect(logs).toContain("no checkpoint id at hand: the requested checkpoint waits for one");
    ids.give(37);
    await flush();
    expect(events.at(-1)).toBe("trigger a#0 37");
    coordinator.acknowledge(ackOf(37, "a#0", 5, 0));
    expect((await waiting).checkpointId).toBe(37);
    coordinator.acknowledge(ackOf(30, "a#0", 5, 0)); // between ids it used: an ack after an abort, its state is discarded
    coordinator.acknowledge(ackOf(38, "a#0", 5, 0)); // above them: not triggered by it
    await coordinator.whenStoresSettled();
    expect(events.slice(-1)).toEqual(["discard 30"]);
    expect(logs).toContain("ignoring ack of a#0 for checkpoint 38: not triggered by this coordinator");
  });
});
