/**
 * The messages a worker thread gets before its task manager exists (while it imports the job module and
 * builds the job graph), kept in order until it does. A cancellation that arrives meanwhile ends its attempt
 * here: the attempt's deployment and every other message of it are dropped, so a later deployment of the
 * next attempt is the only one that runs. (Replaying a cancelled attempt's deployment ran it beside the next
 * one: two instances of every subtask of the worker, sharing a sink's transactions.)
 */
import type { ToWorker } from "./worker-protocol.ts";

/** The attempt a message to a worker belongs to (undefined for messages of none, e.g. `relink`). */
export function attemptOf(m: ToWorker): number | undefined {
  if (m.type === "deploy") return m.deployment.attempt;
  return "attempt" in m ? m.attempt : undefined;
}

/**
 * @example
 * ```ts
 * const early = new EarlyMessages();
 * early.add({ type: "deploy", deployment });      // attempt 3, while the job module loads
 * early.cancel(3);                                // attempt 3 failed meanwhile: its deployment is dropped
 * for (const m of early.drain()) handle(m, tm);   // once the task manager exists
 * ```
 */
export class EarlyMessages {
  private messages: ToWorker[] = [];

  add(m: ToWorker): void {
    this.messages.push(m);
  }

  /** Attempt `attempt` was cancelled before it could start: none of its messages is handed out. */
  cancel(attempt: number): void {
    this.messages = this.messages.filter((m) => attemptOf(m) !== attempt);
  }

  /** The kept messages in arrival order (and none afterwards). */
  drain(): ToWorker[] {
    return this.messages.splice(0);
  }
}
