/**
 * Test fixtures for shared (incremental) state: a subtask that snapshots like
 * an incremental backend (a chain that grows by one delta per snapshot or
 * restarts from a new base), and a job directory holding several completed
 * incremental checkpoints, an aborted one and one in flight, with the next
 * checkpoint ready to complete — the scene of the cleanup crash tests.
 */
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import type { CompletedCheckpoint, OperatorSubtaskState, SharedStateRef } from "../types.ts";
import type { CheckpointStorage } from "./checkpoint-storage.ts";
import { FileSystemCheckpointStorage } from "./filesystem-storage.ts";
import { sharedStatePath } from "./state-verification.ts";
import { completedCheckpoint } from "./test-checkpoints.ts";

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
export const taskStorage = (directory: string): FileSystemCheckpointStorage =>
  new FileSystemCheckpointStorage({ directory, retained: 1, log: () => {} });

/**
 * Builds, in `directory` (retained 2):
 * - checkpoints 1, 2, 3 complete; subtask 1 rebases at 3, so its files of 1 and 2 become garbage;
 * - checkpoint 4 aborted after both subtasks wrote their deltas (which stay in their chains);
 * - an orphan shared file of checkpoint 2 that nothing references (a dead run's leftover);
 * - checkpoint 5 acknowledged (its metadata returned, not yet stored);
 * - checkpoint 6 in flight: its deltas are written.
 * Storing checkpoint 5 then deletes chk-2 (chk-1 went when 3 completed, chk-4 when it was aborted) and three shared files (subtask 1's old base and delta, the orphan).
 */
export async function buildIncrementalScene(directory: string, random: () => number): Promise<{ checkpoint5: CompletedCheckpoint; subtasks: IncrementalSubtask[] }> {
  const subtasks = [new IncrementalSubtask("counts", 0, random), new IncrementalSubtask("counts", 1, random)];
  const coordinator = new FileSystemCheckpointStorage({ directory, retained: 2, log: () => {} });
  const run = async (id: number, rebase: readonly number[] = []) =>
    completedCheckpoint(id, await Promise.all(subtasks.map((s) => s.snapshot(taskStorage(directory), id, rebase.includes(s.subtask)))));
  await coordinator.addCompleted(await run(1));
  await coordinator.addCompleted(await run(2));
  await coordinator.addCompleted(await run(3, [1]));
  await run(4);
  await coordinator.discardAborted(4);
  await taskStorage(directory).writeSharedState(2, "counts", 1, new Uint8Array([9, 9, 9]));
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
export async function sharedFilesOnDisk(directory: string): Promise<Set<string>> {
  const dir = join(directory, "shared");
  return new Set((await readdir(dir)).map((name) => join(dir, name)));
}
