/**
 * The savepoints and stops triggered through the API, by request id (Flink's
 * trigger id: 32 hex digits). A trigger returns at once; its status is read
 * later at `/jobs/:jid/savepoints/:rid`: in progress, or completed with the
 * savepoint's location or the cause of its failure.
 */
import { randomBytes } from "node:crypto";
import type { JobClient } from "../deploy/job-client.ts";

/** Where an operation is. */
export type OperationState =
  | { readonly kind: "in-progress" }
  | { readonly kind: "completed"; readonly location: string }
  | { readonly kind: "failed"; readonly error: Error };

/** Operations kept per server; the oldest finished ones go first. */
const KEPT = 1000;

interface Operation {
  readonly jobId: string;
  state: OperationState;
  /** A client read the final state. */
  told: boolean;
}

/**
 * @example
 * ```ts
 * const operations = new SavepointOperations();
 * const id = operations.start(job, () => job.triggerSavepoint("savepoints/"));
 * operations.state(job.getJobId(), id); // { kind: "in-progress" }
 * ```
 */
export class SavepointOperations {
  private readonly operations = new Map<string, Operation>();

  /** Starts `run` (which resolves with the savepoint's path) for `job`; returns the request id. */
  start(job: JobClient, run: () => Promise<string>): string {
    const id = randomBytes(16).toString("hex");
    const operation: Operation = { jobId: job.getJobId(), state: { kind: "in-progress" }, told: false };
    this.operations.set(id, operation);
    this.prune();
    let promise: Promise<string>;
    try {
      promise = run();
    } catch (e) {
      promise = Promise.reject(e);
    }
    promise.then(
      (location) => (operation.state = { kind: "completed", location }),
      (e: unknown) => (operation.state = { kind: "failed", error: e instanceof Error ? e : new Error(String(e)) }),
    );
    return id;
  }

  /** The state of operation `id` of job `jobId`, or undefined when there is none. */
  state(jobId: string, id: string): OperationState | undefined {
    const operation = this.operations.get(id);
    if (operation?.jobId !== jobId) return undefined;
    if (operation.state.kind !== "in-progress") operation.told = true;
    return operation.state;
  }

  /** True while an operation is in progress, or ended without a client reading how. */
  untold(): boolean {
    for (const o of this.operations.values()) if (!o.told) return true;
    return false;
  }

  private prune(): void {
    for (const [id, operation] of this.operations) {
      if (this.operations.size <= KEPT) return;
      if (operation.state.kind !== "in-progress") this.operations.delete(id);
    }
  }
}
