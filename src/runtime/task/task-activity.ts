/**
 * What a thread's tasks are doing, shared with the thread that watches it: a
 * heartbeat (the thread's event loop turned) and the task that ran last. A
 * task stuck in user code (an endless loop) blocks its thread's event loop, so
 * it can answer no message; the watching thread still reads this shared memory
 * and can name the task (Flink's task cancellation watchdog).
 *
 * @example
 * ```ts
 * const buffer = new SharedArrayBuffer(TASK_ACTIVITY_BYTES);
 * // in the worker: shareTaskActivity(buffer, epoch); the tasks call markTaskActive(ordinal)
 * readTaskActivity(buffer, epoch); // { lastBeatAt, activeTask }
 * ```
 */

/** Size of the shared memory of one thread's activity. */
export const TASK_ACTIVITY_BYTES = 8;

/** How often a thread's heartbeat is written. */
const BEAT_MS = 100;

/** Cell 0: heartbeat (ms since the watcher's epoch); cell 1: ordinal + 1 of the task that ran last (0: none). */
let cells: Int32Array | null = null;

/** Makes this thread publish its activity in `buffer` (heartbeat in ms since `epochMs`) until the returned function is called. */
export function shareTaskActivity(buffer: SharedArrayBuffer, epochMs: number): () => void {
  const shared = new Int32Array(buffer);
  cells = shared;
  const beat = () => Atomics.store(shared, 0, Date.now() - epochMs);
  beat();
  const timer = setInterval(beat, BEAT_MS).unref();
  return () => {
    clearInterval(timer);
    if (cells === shared) cells = null;
  };
}

/** Records that task `ordinal` (its index in the execution plan) runs now on this thread. */
export function markTaskActive(ordinal: number): void {
  if (cells) Atomics.store(cells, 1, ordinal + 1);
}

/** The activity a thread published in `buffer`: when its event loop last turned, and the task that ran last. */
export function readTaskActivity(buffer: SharedArrayBuffer, epochMs: number): { lastBeatAt: number; activeTask: number | undefined } {
  const shared = new Int32Array(buffer);
  const active = Atomics.load(shared, 1);
  return { lastBeatAt: epochMs + Atomics.load(shared, 0), activeTask: active === 0 ? undefined : active - 1 };
}
