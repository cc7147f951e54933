/**
 * The pure decision whether a checkpoint may be triggered now (Flink's
 * `CheckpointRequestDecider`, simplified): no I/O, no clock, only the facts.
 */
import type { CheckpointTriggerRejection } from "./errors.ts";

/** The facts the trigger decision depends on. */
export interface TriggerFacts {
  /** Current coordinator time, ms. */
  readonly now: number;
  /** True for the periodic trigger, false for a manual one (test, savepoint). */
  readonly periodic: boolean;
  /** Checkpoints triggered and not yet completed or aborted. */
  readonly inFlight: number;
  readonly maxConcurrent: number;
  /** Coordinator time of the last completion, or undefined if none completed yet. */
  readonly lastCompletedAt: number | undefined;
  readonly minPauseMs: number;
  /** True once any task has finished. */
  readonly someTaskFinished: boolean;
  readonly shutDown: boolean;
}

/**
 * What to do with a trigger request:
 * - `trigger`: go ahead now;
 * - `wait-pause`: the min pause since the last completion has not passed; try again in `delayMs`;
 * - `wait-slot`: `maxConcurrent` checkpoints are in flight; try again when one completes or aborts;
 * - `reject`: refuse (manual requests never wait).
 */
export type TriggerDecision =
  | { readonly kind: "trigger" }
  | { readonly kind: "wait-pause"; readonly delayMs: number }
  | { readonly kind: "wait-slot" }
  | { readonly kind: "reject"; readonly reason: CheckpointTriggerRejection };

/**
 * Decides whether a checkpoint may be triggered now. Manual requests are refused
 * when a periodic one would wait for a slot, and ignore the min pause (like
 * Flink's savepoints).
 *
 * @example
 * ```ts
 * decideTrigger({ now: 100, periodic: true, inFlight: 0, maxConcurrent: 1,
 *   lastCompletedAt: 80, minPauseMs: 50, someTaskFinished: false, shutDown: false });
 * // → { kind: "wait-pause", delayMs: 30 }
 * ```
 */
export function decideTrigger(facts: TriggerFacts): TriggerDecision {
  if (facts.shutDown) return { kind: "reject", reason: "shutdown" };
  if (facts.someTaskFinished) return { kind: "reject", reason: "finished-tasks" };
  if (facts.inFlight >= Math.max(1, facts.maxConcurrent)) {
    return facts.periodic ? { kind: "wait-slot" } : { kind: "reject", reason: "too-many-concurrent" };
  }
  if (facts.periodic && facts.lastCompletedAt !== undefined) {
    const earliest = facts.lastCompletedAt + facts.minPauseMs;
    if (facts.now < earliest) return { kind: "wait-pause", delayMs: earliest - facts.now };
  }
  return { kind: "trigger" };
}
