/**
 * How the disk backend's snapshots share the task thread while they
 * serialize: in slices of encoding time, a turn of the event loop after
 * each (records, timers and the checkpoint flush run between them).
 */

/**
 * Encoding time between two yields to the event loop. A time rather than a
 * count of entries (the heap backend's SLICE_ENTRIES): a turn of the event
 * loop costs the records it processes (a few ms) and, while a flush is in
 * flight, its slices (up to 100 ms, checkpoint-flush.ts). On the keyed count
 * at 1 M keys a delta of 90 000 keys in slices of 8 192 took as long as the
 * flush beside it, and a new base (500 000 entries per subtask, about 2.7 ms
 * of scanning per 8 192) got a third of the thread: 0.8–1.3 s from barrier
 * to file, longer than the checkpoint interval.
 */
export const SNAPSHOT_SLICE_MS = 20;
