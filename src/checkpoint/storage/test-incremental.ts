/**
 * Test fixtures for shared (incremental) state: a subtask that snapshots like
 * an incremental backend (a chain that grows by one delta per snapshot or
 * restarts from a new base), and a job directory holding several completed
 * incremental checkpoints, an aborted one and one in flight, with the next
 * checkpoint ready to complete — the scene of the cleanup crash tests.
 */
import { expect } from "vitest";
import type { CompletedCheckpoint, OperatorSubtaskState, SharedStateRef } from "../types.ts";
import { joinLocation } from "./checkpoint-location.ts";
import type { CheckpointStorage } from "./checkpoint-storage.ts";
import { fileSystemsFor } from "./file-systems.ts";
import { FileSystemCheckpointStorage } from "./filesystem-storage.ts";
import { checkpointStateProblem, sharedStatePath } from "./state-verification.ts";
import type { FileSystems } from "./storage-file-system.ts";
import { completedCheckpoint } from "./test-checkpoints.ts";

const LOCAL = fileSystemsFor();

/** One operator subtask whose keyed state is a chain of shared files. */
export class IncrementalSubtask {
  chain: SharedStateRef[] = [];

  constructor(
    readonly uid: string,
    readonly subtask: number,
    private readonly random: () => number,
  ) {}

  /** Writes a base (`rebase` or an empty chain) or a delta for checkpoint `id`, and the private state file; returns what the subtask acknowledges. */
  async snapshot(storage: CheckpointStorage, id: number, rebase = false): Promise<{ uid: string; subtask: number; handle: OperatorSubtaskState["handle"]; shared: SharedStateRef[] }> {
    const base = rebase || this.chain.length === 0;
    const bytes = Uint8Array.from({ length: (base ? 200 : 20) + Math.floor(this.random() * 50) }, () => Math.floor(this.random() * 256));
    const ref = await storage.writeSharedState(id, this.uid, this.subtask, bytes);
    this.chain = base ? [ref] : [...this.chain, ref];
    const handle = await storage.writeState(id, this.uid, this.subtask, new TextEncoder().encode(`operator state ${this.uid}/${this.subtask} @${id}`));
    return { uid: this.uid, subtask: this.subtask, handle, shared: [...this.chain] };
  }

  /** Continues from the chain of a restored checkpoint, as a backend does after restore. */
  restore(checkpoint: CompletedCheckpoint): void {
    const state = checkpoint.states.find((s) => s.operatorUid === this.uid && s.subtaskIndex === this.subtask);
    this.chain = [...(state?.shared ?? [])];
  }
}

/** A storage instance of a task (writes only). */
export const taskStorage = (directory: string, fileSystems: FileSystems = LOCAL): FileSystemCheckpointStorage =>
  new FileSystemCheckpointStorage({ directory, retained: 1, log: () => {}, fileSystems });

/** The coordinator's storage instance (retained 2), with a crash hook and a log if given. */
export const coordinatorStorage = (
  directory: string,
  fileSystems: FileSystems = LOCAL,
  crashPoint?: (step: string) => void,
  log: (warning: string) => void = () => {},
): FileSystemCheckpointStorage => new FileSystemCheckpointStorage({ directory, retained: 2, log, fileSystems, ...(crashPoint ? { crashPoint } : {}) });

/**
 * Builds, in `directory` (retained 2):
 * - checkpoints 1, 2, 3 complete; subtask 1 rebases at 3, so its files of 1 and 2 become garbage;
 * - checkpoint 4 aborted after both subtasks wrote their deltas (which stay in their chains);
 * - an orphan shared file of checkpoint 2 that nothing references (a dead run's leftover);
 * - checkpoint 5 acknowledged (its metadata returned, not yet stored);
 * - checkpoint 6 in flight: its deltas are written.
 * Storing checkpoint 5 then deletes chk-2 (chk-1 went when 3 completed, chk-4 when it was aborted) and three shared files (subtask 1's old base and delta, the orphan).
 */
export async function buildIncrementalScene(
  directory: string,
  random: () => number,
  fileSystems: FileSystems = LOCAL,
): Promise<{ checkpoint5: CompletedCheckpoint; subtasks: IncrementalSubtask[] }> {
  const subtasks = [new IncrementalSubtask("counts", 0, random), new IncrementalSubtask("counts", 1, random)];
  const coordinator = coordinatorStorage(directory, fileSystems);
  const run = async (id: number, rebase: readonly number[] = []) =>
    completedCheckpoint(id, await Promise.all(subtasks.map((s) => s.snapshot(taskStorage(directory, fileSystems), id, rebase.includes(s.subtask)))));
  await coordinator.addCompleted(await run(1));
  await coordinator.addCompleted(await run(2));
  await coordinator.addCompleted(await run(3, [1]));
  await coordinator.settled(); // retention of 1–3 done before the orphan below is written
  await run(4);
  await coordinator.discardAborted(4);
  await taskStorage(directory, fileSystems).writeSharedState(2, "counts", 1, new Uint8Array([9, 9, 9]));
  const checkpoint5 = await run(5);
  await run(6);
  return { checkpoint5, subtasks };
}

/** Absolute paths of every shared file the checkpoints in `storage` reference. */
export async function referencedSharedFiles(storage: CheckpointStorage): Promise<Set<string>> {
  const paths = new Set<string>();
  for (const checkpoint of await storage.listCompleted()) {
    for (const { shared = [] } of checkpoint.states) {
      for (const ref of shared) {
        const located = sharedStatePath(checkpoint, ref);
        if ("problem" in located) throw new Error(located.problem);
        paths.add(located.path);
      }
    }
  }
  return paths;
}

/** Absolute paths of every file in `<directory>/shared/`. */
export async function sharedFilesOnDisk(directory: string, fileSystems: FileSystems = LOCAL): Promise<Set<string>> {
  const dir = joinLocation(directory, "shared");
  return new Set((await fileSystems(dir).list(dir)).files.map((name) => joinLocation(dir, name)));
}

/** The steps of storing checkpoint 5 in the scene, in order, from a run without a crash. */
export async function stepsOfStoringCheckpoint5(directory: string, random: () => number, fileSystems: FileSystems = LOCAL): Promise<string[]> {
  const { checkpoint5 } = await buildIncrementalScene(directory, random, fileSystems);
  const steps: string[] = [];
  const coordinator = coordinatorStorage(directory, fileSystems, (s) => steps.push(s));
  await coordinator.addCompleted(checkpoint5);
  await coordinator.settled();
  return steps;
}

/**
 * After a crash at `step` of storing checkpoint 5 in the scene at `dir`: a
 * new run on the same directory restores the latest checkpoint, continues
 * its chains, has checkpoint 8 in flight and completes checkpoint 7; then
 * checks that (a) every file a retained checkpoint references reads back
 * with its CRC, (b) nothing else is left but the in-flight checkpoint's
 * files, (c) the newest is latest and verifies. `context` prefixes messages.
 */
export async function recoverAndCheck(
  dir: string,
  step: number,
  context: string,
  subtasks: readonly IncrementalSubtask[],
  fileSystems: FileSystems = LOCAL,
): Promise<void> {
  const coordinator = coordinatorStorage(dir, fileSystems);
  for (const checkpoint of await coordinator.listCompleted()) {
    expect(await checkpointStateProblem(checkpoint, undefined, fileSystems), `${context}: checkpoint ${checkpoint.checkpointId} right after the crash`).toBeNull();
  }
  const latest = await coordinator.latestCompleted();
  expect(latest.damaged, context).toEqual([]);
  expect(latest.checkpoint?.checkpointId, context).toBe(step === 0 ? 3 : 5);
  for (const s of subtasks) s.restore(latest.checkpoint!);
  expect(await coordinator.highestCheckpointId(), context).toBe(6);

  const acks = await Promise.all(subtasks.map((s) => s.snapshot(taskStorage(dir, fileSystems), 7)));
  const inFlight = await Promise.all(subtasks.map((s) => s.snapshot(taskStorage(dir, fileSystems), 8)));
  await coordinator.addCompleted(completedCheckpoint(7, acks));
  await coordinator.settled();

  // (c) the newest is latest, and verifies
  const after = await coordinatorStorage(dir, fileSystems).latestCompleted();
  expect(after.checkpoint?.checkpointId, context).toBe(7);
  expect(after.damaged, context).toEqual([]);
  // (a) every file a retained checkpoint references reads back with its CRC
  const retained = await coordinator.listCompleted();
  expect(retained.map((c) => c.checkpointId), context).toEqual([latest.checkpoint!.checkpointId, 7]);
  for (const checkpoint of retained) {
    for (const state of checkpoint.states) {
      for (const ref of state.shared ?? []) await expect(coordinator.readSharedState(checkpoint, ref), context).resolves.toHaveLength(ref.size);
    }
  }
  // (b) nothing else is left but the in-flight checkpoint 8's files
  const expected = await referencedSharedFiles(coordinator);
  for (const { shared } of inFlight) expected.add(joinLocation(dir, "shared", shared.at(-1)!.path.split("/").at(-1)!));
  expect([...(await sharedFilesOnDisk(dir, fileSystems))].sort(), context).toEqual([...expected].sort());
  const { directories } = await fileSystems(dir).list(dir);
  expect([...directories].sort(), context).toEqual([`chk-${latest.checkpoint!.checkpointId}`, "chk-7", "chk-8", "shared"]);
}
