/**
 * A record that cannot leave its task as it is: records that go from one task
 * to another (keyBy, rebalance, broadcast, a change of parallelism) are plain
 * data, checked the same way whether the next task runs in the same thread or
 * in another worker thread, so results never depend on `--workers`.
 */
import { ASYNC_IO_HINT } from "../core/async-function.ts";
import type { PlainDataError } from "../state/plain-copy.ts";

/** What records sent between tasks may be made of. */
export const ALLOWED_RECORDS =
  "records sent between tasks (keyBy, rebalance, broadcast, a change of parallelism) must be plain data: " +
  "null, undefined, booleans, numbers, strings, bigints, arrays, plain objects, Map, Set, Date, Uint8Array " +
  "(nested, without cycles); turn class instances into plain objects before such an edge";

/** Thrown by the task that emitted a record which is not plain data. */
export class RecordNotPlainDataError extends Error {
  /**
   * @param producer - the emitting operator, e.g. `operator 'Map' (uid 'parse')`
   * @param cause - where the record stops being plain data
   */
  constructor(
    readonly producer: string,
    override readonly cause: PlainDataError,
  ) {
    const promise = cause.violation.what === "an instance of class Promise";
    super(`${producer} emitted a record that ${cause.message}; ${promise ? `a function returned a Promise: ${ASYNC_IO_HINT}` : ALLOWED_RECORDS}`);
    this.name = "RecordNotPlainDataError";
  }
}
