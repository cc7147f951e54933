/**
 * Fault injection for crash tests of transactional sinks, enabled only by the
 * `WEIR_FAULT` environment variable (never set in production).
 */

/** The environment variable that enables a fault. */
export const FAULT_ENV_VAR = "WEIR_FAULT";

/** Faults a transactional sink can inject. */
export type SinkFault = "kill-before-commit";

/**
 * True when `env` asks for `fault` (`WEIR_FAULT=kill-before-commit`).
 *
 * @example
 * ```ts
 * faultRequested("kill-before-commit", { WEIR_FAULT: "kill-before-commit" }); // true
 * ```
 */
export function faultRequested(fault: SinkFault, env: NodeJS.ProcessEnv = process.env): boolean {
  return env[FAULT_ENV_VAR] === fault;
}

/** Ends the whole process at once with SIGKILL: no `close`, no `finally`, no exit handlers. */
export function killProcess(): never {
  process.kill(process.pid, "SIGKILL");
  throw new Error("SIGKILL did not end the process");
}
