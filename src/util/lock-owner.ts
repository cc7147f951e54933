/**
 * The content of a directory lock file: who holds the lock. Plain data,
 * written as JSON; parsing checks every field.
 */
import type { ProcessIdentity } from "./process-liveness.ts";

/** The run that holds a directory lock. */
export interface LockOwner extends ProcessIdentity {
  readonly processStartedAt: number;
  /** When the lock was taken (ISO 8601). */
  readonly startedAt: string;
  /** The command line of the owning process. */
  readonly command: string;
  /** Random id of this acquisition: a release deletes the file only if it still holds its own token. */
  readonly token: string;
}

/**
 * The owner in a lock file's text, or a string saying what is wrong with it.
 *
 * @example
 * ```ts
 * parseLockOwner('{"pid":1,"host":"h","processStartedAt":0,"startedAt":"2026-12-02T07:00:00.000Z","command":"weir run job.ts","token":"ab"}').pid; // 1
 * parseLockOwner("{"); // "not JSON: ..."
 * ```
 */
export function parseLockOwner(text: string): LockOwner | string {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    return `not JSON: ${(e as Error).message}`;
  }
  if (typeof v !== "object" || v === null) return "not a JSON object";
  const o = v as Record<string, unknown>;
  const fields = { pid: "number", host: "string", processStartedAt: "number", startedAt: "string", command: "string", token: "string" } as const;
  for (const [field, type] of Object.entries(fields)) {
    if (typeof o[field] !== type) return `field '${field}' is not a ${type}`;
  }
  return o as unknown as LockOwner;
}
