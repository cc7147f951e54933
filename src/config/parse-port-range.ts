/**
 * A port or a range of ports as Flink's Prometheus reporter takes them
 * (`9249`, `9250-9260`): the reporter binds the first free one.
 */

/** The first and last port of a range (equal for one port). */
export interface PortRange {
  readonly first: number;
  readonly last: number;
}

/**
 * Reads `9249` or `9250-9260` (ports 0 to 65535, first ≤ last); `undefined` when the text is neither.
 *
 * @example
 * ```ts
 * parsePortRange("9250-9260"); // { first: 9250, last: 9260 }
 * parsePortRange("9249");      // { first: 9249, last: 9249 }
 * parsePortRange("x");         // undefined
 * ```
 */
export function parsePortRange(text: string): PortRange | undefined {
  const m = /^\s*(\d{1,5})\s*(?:-\s*(\d{1,5})\s*)?$/.exec(text);
  if (!m) return undefined;
  const first = Number(m[1]);
  const last = m[2] === undefined ? first : Number(m[2]);
  return first <= last && last <= 65_535 ? { first, last } : undefined;
}
