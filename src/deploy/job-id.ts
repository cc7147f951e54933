/** A new job id: 32 lowercase hex digits, as Flink's JobID (REST paths, `weir cancel <jid>`, `SinkContext.jobId`). */
import { randomBytes } from "node:crypto";

/**
 * @example
 * ```ts
 * newJobId(); // "9f3c1a0e6b2d4f8a7c5e3b1d0f2a4c6e"
 * ```
 */
export function newJobId(): string {
  return randomBytes(16).toString("hex");
}
