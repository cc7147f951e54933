/**
 * The pure decision whether a checkpoint may be triggered now (Flink's
 * `CheckpointRequestDecider`, simplified): no I/O, no clock, only the facts.
 */
import type { CheckpointTriggerRejection } from "./errors.ts";

/** The facts the trigger decision depends on. */
export interface TriggerFacts {
  /** Current coordinator time, ms. */
  readonly now: number;
  /** True for the periodic trigger, false for a requested one (savepoint, final checkpoint of a bounded job, manual). */
  readonly periodic: boolean;
  /** Checkpoints triggered and not yet completed or aborted. */
  readonly inFlight: number;
  readonly maxConcurrent: number;
  /** Coordinator time at which the last checkpoint ended (completed or aborted), or undefined if none ended yet. */
  readonly lastEndedAt: number | undefined;
  readonly minPauseMs: number;
  /** True once any task has finished. */
  readonly someTaskFinished: boolean;
  readonly shutDown: boolean;
}

/**
 * What to do with a trigger request:
 * - `trigger`: go ahead now;
 * - `wait-pause`: the min pause since the end of the last checkpoint has not passed; try again in `delayMs`;
 * - `wait-slot`: `maxConcurrent` checkpoints are in flight; try again when one ends;
 * - `reject`: refuse.
 */
export type TriggerDecision =
  | { readonly kind: "trigger" }
  | { readonly kind: "wait-pause"; readonly delayMs: number }
  | { readonly kind: "wait-slot" }
  | { readonly kind: "reject"; readonly reason: CheckpointTriggerRejection };

/**
 * Decides whether a checkpoint may be triggered now. Only the periodic trigger
 * waits: for a free slot (`maxConcurrent`), then for the min pause after the end
 * of the last checkpoint. A requested checkpoint (savepoint, final checkpoint,
 * manual) goes at once, like Flink's forced checkpoints, so that periodic
 * checkpoints slower than the interval can never starve it.
 *
 * @example
 * ```ts
 * decideTrigger({ now: 100, periodic: true, inFlight: 0, maxConcurrent: 1,
 *   lastEndedAt: 80, minPauseMs: 50, someTaskFinished: false, shutDown: false });
 * // → { kind: "wait-pause", delayMs: 30 }
 * ```
 */
export function decideTrigger(facts: TriggerFacts): TriggerDecision {
  if (facts.shutDown) return { kind: "reject", reason: "shutdown" };
  if (facts.someTaskFinished) return { kind: "reject", reason: "finished-tasks" };
  if (!facts.periodic) return { kind: "trigger" };
  if (facts.inFlight >= Math.max(1, facts.maxConcurrent)) return { kind: "wait-slot" };
  if (facts.lastEndedAt !== undefined) {
    const earliest = facts.lastEndedAt + facts.minPauseMs;
    if (facts.now < earliest) return { kind: "wait-pause", delayMs: earliest - facts.now };
  }
  return { kind: "trigger" };
}
