/**
 * The 32-hex id of an operator, as Flink's OperatorID: derived from its uid,
 * so it is the same in every run, every worker and after a restore (metric
 * labels and REST answers use it).
 */
import { createHash } from "node:crypto";

/**
 * @example
 * ```ts
 * operatorHexId("parse"); // "3f2a…" (32 hex)
 * ```
 */
export function operatorHexId(uid: string): string {
  return createHash("sha256").update(`weir-operator:${uid}`).digest("hex").slice(0, 32);
}
