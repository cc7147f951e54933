/**
 * Per-task barrier handling (DESIGN.md, checkpoint step 3): aligned for
 * exactly-once, a counting tracker for at-least-once and at-most-once.
 */
export { NO_ACTION, type BarrierAction, type BarrierDecision, type CheckpointBarrierHandler } from "./barrier-handler.ts";
export { createBarrierHandler } from "./create-barrier-handler.ts";
export { BarrierProtocolError } from "./barrier-protocol-error.ts";
export { AbortedAhead } from "./aborted-ahead.ts";
