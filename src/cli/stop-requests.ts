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
    return previous ? "cancel" : "stop";
  }
}
