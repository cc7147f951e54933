/**
 * Counts the requests to stop a run that arrive as signals (Ctrl-C, SIGTERM):
 * the first asks for a stop with a savepoint, a later one for a cancel. A
 * signal that repeats within a short window is one request delivered twice,
 * not a second request: a wrapper that signals its child and then the whole
 * process group (coreutils `timeout`, `npm exec` forwarding the terminal's
 * Ctrl-C that the child already got) delivers the same signal twice within
 * milliseconds.
 *
 * @example
 * ```ts
 * const requests = new StopRequests(systemClock);
 * process.on("SIGTERM", () => {
 *   const r = requests.receive("SIGTERM");
 *   if (r === "stop") startSavepoint(); else if (r === "cancel") cancel();
 * });
 * ```
 */
import type { Clock } from "../util/clock.ts";

/** How close together two deliveries of the same signal count as one request. */
export const DUPLICATE_SIGNAL_WINDOW_MS = 500;

/** What a received signal asks for: the first stop, a cancel, or nothing (a duplicate). */
export type StopRequest = "stop" | "cancel" | "duplicate";

export class StopRequests {
  private last: { signal: string; at: number } | undefined;
  /** The signal of the first request (the stop), and whether a repeat of it after the end was let pass. */
  private stopSignal: string | undefined;
  private repeatAfterEnd = false;

  constructor(
    private readonly clock: Clock,
    private readonly windowMs = DUPLICATE_SIGNAL_WINDOW_MS,
  ) {}

  /** Classifies a delivery of `signal`. */
  receive(signal: string): StopRequest {
    const now = this.clock.now();
    const previous = this.last;
    if (previous && previous.signal === signal && now - previous.at < this.windowMs) return "duplicate";
    this.last = { signal, at: now };
    if (previous) return "cancel";
    this.stopSignal = signal;
    return "stop";
  }

  /**
   * Classifies a delivery of `signal` once the run ended, while the process exits with the run's code:
   * "ignore" for a duplicate (as {@link receive}) and for the first repeat of the stop's signal however
   * late (a wrapper that signals the process and then its group may do so after a slow stop: the request
   * is done, and a cancel has nothing left to cancel); "end" for anything else, which should end the
   * process as the signal would.
   *
   * @example
   * ```ts
   * requests.receive("SIGTERM");         // "stop"; the job stops with a savepoint and ends
   * requests.receiveAfterEnd("SIGTERM"); // "ignore": the same stop, delivered again
   * requests.receiveAfterEnd("SIGTERM"); // "end" (after the window): asked again, it ends the process
   * ```
   */
  receiveAfterEnd(signal: string): "ignore" | "end" {
    const request = this.receive(signal);
    if (request === "duplicate") return "ignore";
    if (request === "stop" || signal !== this.stopSignal || this.repeatAfterEnd) return "end"; // "stop": the run ended without one
    this.repeatAfterEnd = true;
    return "ignore";
  }
}
