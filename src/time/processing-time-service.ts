/**
 * Processing time as operators see it: the injected clock's time, and
 * callbacks scheduled at a time, run in the task's mailbox (never concurrently
 * with the operator).
 */
export interface ProcessingTimeService {
  /** Current processing time (ms). */
  now(): number;
  /** Runs `callback` in the task's mailbox once processing time reached `timestamp`. */
  scheduleAt(timestamp: number, callback: () => void): void;
}
