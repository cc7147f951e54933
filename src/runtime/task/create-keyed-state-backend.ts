/**
 * The keyed state backend of one operator subtask, as the job's state
 * backend settings say.
 */
import { HeapKeyedStateBackend, type KeyedStateBackend } from "../../state/index.ts";
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
  readonly clock: Clock;
}

/**
 * @example
 * ```ts
 * const backend = createKeyedStateBackend({ type: "heap", incremental: false },
 *   { operatorUid: "count", subtaskIndex: 0, maxParallelism: 128, keyGroupRange: [0, 127], trackChanges: false, clock: systemClock });
 * ```
 */
export function createKeyedStateBackend(settings: StateBackendSettings, place: KeyedBackendPlace): KeyedStateBackend {
  const { operatorUid, maxParallelism, keyGroupRange, trackChanges, clock } = place;
  switch (settings.type) {
    case "heap":
      return new HeapKeyedStateBackend({ operatorUid, maxParallelism, keyGroupRange, trackChanges, clock });
    default:
      throw new RangeError(`state backend '${settings.type}' is not available in this build`);
  }
}
