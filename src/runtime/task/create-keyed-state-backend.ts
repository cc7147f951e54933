/**
 * The keyed state backend of one operator subtask, as the job's state
 * backend settings say.
 */
import { randomUUID } from "node:crypto";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { safeUid } from "../../checkpoint/storage/checkpoint-paths.ts";
import { DiskKeyedStateBackend, HeapKeyedStateBackend, type KeyedStateBackend } from "../../state/index.ts";
import type { StateBackendSettings } from "../../state/state-backend-settings.ts";
import type { Clock } from "../../util/clock.ts";

/** What a task knows about one keyed operator subtask. */
export interface KeyedBackendPlace {
  readonly operatorUid: string;
  readonly subtaskIndex: number;
  readonly maxParallelism: number;
  readonly keyGroupRange: readonly [number, number];
  /** Note writes for delta snapshots (incremental checkpoints). */
  readonly trackChanges: boolean;
  /** Processing time of state TTL. */
  readonly clock: Clock;
}

/**
 * A heap backend, or a disk backend whose store is
 * `<localDirectory>/<uid>-<subtask>` (kept after the task for local
 * recovery), or without a local directory a temporary one removed with the task.
 *
 * @example
 * ```ts
 * const backend = createKeyedStateBackend({ type: "disk", incremental: true, localDirectory: ".weir/checkpoints/job.local" },
 *   { operatorUid: "count", subtaskIndex: 0, maxParallelism: 128, keyGroupRange: [0, 127], trackChanges: true, clock: systemClock });
 * ```
 */
export function createKeyedStateBackend(settings: StateBackendSettings, place: KeyedBackendPlace): KeyedStateBackend {
  const { operatorUid, subtaskIndex, maxParallelism, keyGroupRange, trackChanges, clock } = place;
  if (settings.type === "heap") return new HeapKeyedStateBackend({ operatorUid, maxParallelism, keyGroupRange, trackChanges, clock });
  const keepLocal = settings.localDirectory !== undefined;
  const localDirectory = keepLocal
    ? join(settings.localDirectory!, `${safeUid(operatorUid)}-${subtaskIndex}`)
    : join(tmpdir(), `weir-state-${randomUUID()}`);
  return new DiskKeyedStateBackend({
    operatorUid,
    maxParallelism,
    keyGroupRange,
    trackChanges,
    clock,
    localDirectory,
    keepLocal,
    cacheEntries: settings.cacheEntries,
  });
}
