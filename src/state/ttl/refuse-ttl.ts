/**
 * TTL is for keyed state only (as in Flink): operator and broadcast state
 * refuse a descriptor with TTL instead of ignoring it.
 */

import type { StateTtlConfig } from "./state-ttl-config.ts";

/**
 * Throws when `d` has TTL; `what` names the state, e.g. `operator list state 'offsets' in operator 'src'`.
 *
 * @example
 * ```ts
 * refuseTtl(d, `operator list state '${d.name}' in operator '${uid}'`);
 * ```
 */
export function refuseTtl(d: { readonly ttlConfig: StateTtlConfig | undefined }, what: string): void {
  if (d.ttlConfig !== undefined) {
    throw new TypeError(`${what} cannot have a time to live: TTL (enableTimeToLive) applies to keyed state only`);
  }
}
