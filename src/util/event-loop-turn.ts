/**
 * One turn of the event loop, for work that runs in slices beside the
 * processing (snapshots serializing, a checkpoint's flush): timers, I/O and
 * messages from other threads run before it resumes.
 *
 * @example
 * ```ts
 * for (const slice of slices) {
 *   encode(slice);
 *   await yieldToEventLoop();
 * }
 * ```
 */
export const yieldToEventLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
