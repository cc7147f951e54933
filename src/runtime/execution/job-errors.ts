/** How a job ends when it does not finish. */
import type { DamagedCheckpoint } from "../../checkpoint/storage/index.ts";

/** Thrown by `run()` (and the job client's result) when the job failed for good. */
export class JobFailedError extends Error {
  override name = "JobFailedError";
}

/** Thrown by `run()` (and the job client's result) when the job was cancelled. */
export class JobCancelledError extends Error {
  override name = "JobCancelledError";
}

/**
 * The checkpoint a job would restore is damaged and nothing older can stand in
 * for it: at start, no older intact checkpoint exists; on a failover, none of
 * the run's own checkpoints is intact. The job refuses to go on rather than
 * start from empty state (sources would replay everything and sinks write it
 * again) or rewind past output already committed.
 *
 * @example
 * ```ts
 * // checkpoint 12 at .weir/checkpoints/orders/chk-12 is damaged: corrupt checkpoint file …/_metadata: checksum mismatch …
 * err instanceof DamagedCheckpointError && console.error(err.location, err.reason);
 * ```
 */
export class DamagedCheckpointError extends JobFailedError {
  override name = "DamagedCheckpointError";
  /** Id of the damaged checkpoint. */
  readonly checkpointId: number;
  /** Its directory (or "in memory"). */
  readonly location: string;
  /** The damaged file and what is wrong with it. */
  readonly reason: string;

  constructor(damaged: DamagedCheckpoint, when: "start" | "failover") {
    const nothingOlder =
      when === "start"
        ? "no older intact checkpoint exists, and starting from empty state would read all input again and write it to the sinks a second time"
        : "this run has no older intact checkpoint, and going back to where it started would rewind past output its checkpoints committed";
    super(
      `checkpoint ${damaged.checkpointId} at ${damaged.location} is damaged: ${damaged.error.message}; ${nothingOlder}. ` +
        "Refusing to go on: run with --fresh to start over from empty state on purpose, or with --from-savepoint PATH to start from a savepoint",
      { cause: damaged.error },
    );
    this.checkpointId = damaged.checkpointId;
    this.location = damaged.location;
    this.reason = damaged.error.message;
  }
}
