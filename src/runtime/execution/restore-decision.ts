/**
 * Which state a run starts from and what each failover restores: pure
 * decisions over what the checkpoint storage found (DESIGN.md "Failover
 * origin").
 *
 * A run has an origin: empty state (`--fresh`, or no checkpoint yet), the
 * savepoint it was started from, or the checkpoint it resumed. Until the run
 * has completed a checkpoint of its own, a failover goes back to that origin;
 * afterwards to its newest intact own checkpoint. A damaged checkpoint with
 * nothing older to fall back on is a refusal, never an empty start.
 */
import type { DamagedCheckpoint, LatestCompleted } from "../../checkpoint/storage/index.ts";
import type { CompletedCheckpoint } from "../../checkpoint/types.ts";
import { DamagedCheckpointError } from "./job-errors.ts";

/** Where a run started: what its failovers go back to before it has a checkpoint of its own. */
export type RunOrigin =
  | { readonly kind: "empty"; readonly fresh: boolean }
  | { readonly kind: "savepoint" | "checkpoint"; readonly checkpoint: CompletedCheckpoint };

/** How a run was asked to start. */
export type StartRequest =
  | { readonly kind: "fresh" }
  | { readonly kind: "savepoint"; readonly savepoint: CompletedCheckpoint }
  /** Resume: `stored` is what the checkpoint directory holds. */
  | { readonly kind: "resume"; readonly stored: LatestCompleted };

/** A decision with the lines to log about damaged checkpoints skipped on the way. */
export interface Decided<T> {
  readonly value: T;
  readonly warnings: readonly string[];
}

/**
 * The origin of a run. A resumed run takes the newest intact checkpoint
 * (warning about newer damaged ones), or empty state if the directory holds
 * no completed checkpoint at all.
 *
 * @throws DamagedCheckpointError if every completed checkpoint is damaged
 * @example
 * ```ts
 * runOrigin({ kind: "resume", stored: await storage.latestCompleted() }).value; // { kind: "checkpoint", checkpoint }
 * ```
 */
export function runOrigin(request: StartRequest): Decided<RunOrigin> {
  switch (request.kind) {
    case "fresh":
      return { value: { kind: "empty", fresh: true }, warnings: [] };
    case "savepoint":
      return { value: { kind: "savepoint", checkpoint: request.savepoint }, warnings: [] };
    case "resume": {
      const { checkpoint, damaged } = request.stored;
      if (checkpoint) return { value: { kind: "checkpoint", checkpoint }, warnings: fallbackWarnings(damaged, checkpoint) };
      if (damaged.length > 0) throw new DamagedCheckpointError(damaged[0]!, "start");
      return { value: { kind: "empty", fresh: false }, warnings: [] };
    }
  }
}

/**
 * What a failover restores: the newest intact checkpoint of this run (`own`:
 * what storage holds from the run's first checkpoint id on), else the run's
 * origin (null: empty state).
 *
 * @throws DamagedCheckpointError if the run completed checkpoints but all are damaged:
 *   going back to the origin would rewind past output they committed
 * @example
 * ```ts
 * failoverRestore({ kind: "empty", fresh: true }, { checkpoint: null, damaged: [] }).value; // null: start over empty
 * ```
 */
export function failoverRestore(origin: RunOrigin, own: LatestCompleted): Decided<CompletedCheckpoint | null> {
  if (own.checkpoint) return { value: own.checkpoint, warnings: fallbackWarnings(own.damaged, own.checkpoint) };
  if (own.damaged.length > 0) throw new DamagedCheckpointError(own.damaged[0]!, "failover");
  return { value: origin.kind === "empty" ? null : origin.checkpoint, warnings: [] };
}

/**
 * The first checkpoint id of an attempt: above every id in storage (in any
 * form), every id this process already used (a cancelled attempt may still be
 * writing state for it), and the restored checkpoint's. So ids never repeat in
 * a checkpoint directory, and a late write of an old attempt never lands in a
 * newer checkpoint.
 *
 * @example
 * ```ts
 * nextCheckpointId(5, 7, 3); // 8
 * ```
 */
export function nextCheckpointId(highestStored: number, highestUsed: number, restoredId: number | undefined): number {
  return Math.max(highestStored, highestUsed, restoredId ?? 0) + 1;
}

/**
 * What a restart restores, in words for the log: "checkpoint 7", "savepoint 3
 * (…), where this run started", "empty state, where this --fresh run started".
 */
export function describeRestore(restore: CompletedCheckpoint | null, origin: RunOrigin): string {
  const before = "(it has no checkpoint of its own yet)";
  if (restore === null) {
    return origin.kind === "empty" && origin.fresh ? `empty state, where this --fresh run started ${before}` : "empty state (no checkpoint yet)";
  }
  if (origin.kind !== "empty" && restore === origin.checkpoint) {
    return `${origin.kind} ${restore.checkpointId}${restore.directory ? ` (${restore.directory})` : ""}, where this run started ${before}`;
  }
  return `checkpoint ${restore.checkpointId}`;
}

function fallbackWarnings(damaged: readonly DamagedCheckpoint[], fallback: CompletedCheckpoint): string[] {
  return damaged.map(
    (d) => `skipping checkpoint ${d.checkpointId} at ${d.location}, falling back to checkpoint ${fallback.checkpointId}: ${d.error.message}`,
  );
}
