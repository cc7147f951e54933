/**
 * `keyBy(selector)` wraps the user's key selector so that a record whose key
 * is null or undefined fails with an error that names the `keyBy` call (its
 * file:line:column, taken when the dataflow was built), the selector and the
 * record, instead of a bare "unsupported key: got undefined" from deep in a task.
 */
import { fileURLToPath } from "node:url";
import { inspect } from "node:util";
import type { KeySelector } from "../graph/stream-graph.ts";
import { ALLOWED_KEYS } from "../state/errors.ts";
import { callSite } from "../util/call-site.ts";
import { OWN_ROOT } from "../util/own-files.ts";

/** Weir's own source (or dist) folder: frames in it are not the user's call. */
const WEIR_DIR = fileURLToPath(OWN_ROOT);

/** A key selector returned null or undefined for a record. */
export class NullKeyError extends Error {
  override readonly name = "NullKeyError";

  constructor(
    /** The selector's source, shortened (`(o) => o.user`). */
    readonly selector: string,
    /** `file:line:column` of the `keyBy` call, when known. */
    readonly callSite: string | undefined,
    /** What the selector returned. */
    readonly key: null | undefined,
    /** The record, shortened for the message. */
    readonly record: string,
  ) {
    super(`keyBy(${selector})${callSite ? ` at ${callSite}` : ""} returned ${key} for the record ${record}; ${ALLOWED_KEYS}`);
  }
}

/**
 * `key`, checking that its result is neither null nor undefined (other bad
 * keys are refused by the key-group hashing).
 *
 * @example
 * ```ts
 * const byUser = checkedKeySelector((o: { user?: string }) => o.user);
 * byUser({}); // throws NullKeyError: keyBy((o) => o.user) at job.ts:7:12 returned undefined for the record {}; …
 * ```
 */
export function checkedKeySelector<T, K>(key: KeySelector<T, K>): KeySelector<T, K> {
  const site = callSite(WEIR_DIR);
  return (value: T) => {
    const k = key(value);
    if (k === null || k === undefined) throw new NullKeyError(shorten(String(key), 60), site, k as null | undefined, shorten(inspect(value, { depth: 2, breakLength: Infinity }), 120));
    return k;
  };
}

function shorten(text: string, max: number): string {
  const one = text.replace(/\s+/g, " ");
  return one.length <= max ? one : `${one.slice(0, max - 1)}…`;
}
