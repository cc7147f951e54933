/**
 * Test fixtures for the storage tests: a completed checkpoint built from
 * handles, and storing one with the cleanup it starts.
 */
import type { CheckpointStorage } from "./checkpoint-storage.ts";
import type { CompletedCheckpoint, OperatorSubtaskState, SharedStateRef, StateHandle } from "../types.ts";

/** A completed checkpoint `id` of job "job" holding the given operator subtask states. */
export function completedCheckpoint(
  id: number,
  states: readonly { uid: string; subtask: number; handle: StateHandle; shared?: readonly SharedStateRef[] }[],
): CompletedCheckpoint {
  return {
    version: 1,
    jobName: "job",
    checkpointId: id,
    timestamp: 1000 + id,
    completedAt: 2000 + id,
    savepoint: false,
    graphFingerprint: "fp-1",
    states: states.map(
      (s): OperatorSubtaskState => ({
        operatorUid: s.uid,
        subtaskIndex: s.subtask,
        parallelism: 2,
        maxParallelism: 128,
        keyGroupRange: s.subtask === 0 ? [0, 63] : [64, 127],
        handle: s.handle,
        ...(s.shared ? { shared: s.shared } : {}),
      }),
    ),
  };
}

/** `storage.addCompleted(checkpoint)`, then waits for the retention it started in the background (`settled`). */
export async function storeCompleted(storage: CheckpointStorage, checkpoint: CompletedCheckpoint): Promise<CompletedCheckpoint> {
  const stored = await storage.addCompleted(checkpoint);
  await storage.settled();
  return stored;
}
