/**
 * Ends a server a test started (a Kafka broker, a PostgreSQL server): sends `signal`, and SIGKILL when the
 * process is still there 15 s later; resolves once it exited. Nothing for a process that already ended.
 */
import type { ChildProcess } from "node:child_process";

/**
 * Stops `proc` with `signal` (SIGKILL after 15 s) and waits for its exit.
 *
 * @example
 * ```ts
 * await stopProcess(broker, "SIGTERM");
 * ```
 */
export async function stopProcess(proc: ChildProcess | undefined, signal: NodeJS.Signals): Promise<void> {
  if (proc === undefined || proc.exitCode !== null || proc.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => proc.once("exit", () => resolve()));
  proc.kill(signal);
  const timer = setTimeout(() => proc.kill("SIGKILL"), 15_000);
  await exited;
  clearTimeout(timer);
}
