/**
 * TTL is for keyed state only (as in Flink): operator and broadcast state
 * refuse a descriptor with TTL instead of ignoring it.
 */

import type { AnyStateDescriptor } from "../descriptors.ts";

/**
 * Throws when `d` has TTL; `what` names the state, e.g. `operator list state 'offsets' in operator 'src'`.
 *
 * @example
 * ```ts
 * refuseTtl(d, `operator list state '${d.name}' in operator '${uid}'`);
 * ```
 */
export function refuseTtl(d: AnyStateDescriptor, what: string): void {
  if (d.ttlConfig !== undefined) {
    throw new TypeError(`${what} cannot have a time to live: TTL (enableTimeToLive) applies to keyed state only`);
  }
}
