/** Errors of async I/O, each naming the operator (`operator 'Name' (uid 'uid')`). */
import { inspect } from "node:util";
import type { PlainDataError } from "../../state/plain-copy.ts";

/** A short rendering of a record for an error message. */
function preview(value: unknown): string {
  const s = inspect(value, { depth: 2, breakLength: Infinity, maxArrayLength: 5, maxStringLength: 60 });
  return s.length > 120 ? `${s.slice(0, 117)}...` : s;
}

/** The request of an input did not complete within the operator's timeout (all attempts together) and the async function has no `timeout` hook. */
export class AsyncTimeoutError extends Error {
  constructor(
    readonly operator: string,
    readonly timeoutMs: number,
    readonly attempts: number,
    input: unknown,
  ) {
    super(
      `async I/O ${operator}: no result within the timeout of ${timeoutMs} ms (${attempts} attempt${attempts === 1 ? "" : "s"}) ` +
        `for input ${preview(input)}; raise the timeout, or give the async function a timeout(input, resultFuture) hook that completes with a default`,
    );
    this.name = "AsyncTimeoutError";
  }
}

/** The request of an input failed and the retry strategy allowed no further attempt: the job fails with the last error as `cause`. */
export class AsyncFunctionError extends Error {
  constructor(
    readonly operator: string,
    readonly attempts: number,
    override readonly cause: unknown,
  ) {
    super(`async function of ${operator} failed (${attempts} attempt${attempts === 1 ? "" : "s"}): ${cause instanceof Error ? cause.message : String(cause)}`);
    this.name = "AsyncFunctionError";
    // The place to show is where the user's request failed, not where the operator noticed.
    if (cause instanceof Error && cause.stack) this.stack = `${this.name}: ${this.message}\n${cause.stack.split("\n").slice(1).join("\n")}`;
  }
}

/**
 * An input or a result of async I/O that is not plain data. Inputs are kept
 * in checkpoints and sent again after a restore, results wait in the operator
 * until their turn: both are copies, so both must be plain data.
 */
export class AsyncPlainDataError extends Error {
  constructor(
    readonly operator: string,
    readonly what: "input" | "result",
    override readonly cause: PlainDataError,
  ) {
    super(
      what === "input"
        ? `async I/O ${operator} got an input that ${cause.message}; inputs are kept in checkpoints and sent again after a restore, so they must be plain data (turn class instances into plain objects before AsyncDataStream)`
        : `async function of ${operator} completed with a result that ${cause.message}; results must be plain data (turn class instances into plain objects before completing)`,
    );
    this.name = "AsyncPlainDataError";
  }
}
