/**
 * Records of many shapes for the object-semantics suites: field sets, field
 * orders and value types (nested objects and arrays, Map, Set, Date, bigint,
 * bytes, undefined, null) chosen from the record's number, so a job's output
 * can be computed from its definition. `canon` renders any of them as one
 * string (msgpack-faithful: a Map stays a Map, undefined stays undefined).
 */

/** A record: a key, a number, and shape-dependent fields. */
export type ShapedRecord = { k: number; n: number } & Record<string, unknown>;

/** Number of distinct shapes {@link shapeOf} makes. */
export const SHAPES = 9;

/** The record of number `n` (key `n % keys`), of one of {@link SHAPES} shapes. */
export function shapeOf(n: number, keys: number, seed: number): ShapedRecord {
  const k = n % keys;
  const h = (Math.imul(n ^ seed, 2654435761) >>> 0) % SHAPES;
  switch (h) {
    case 0:
      return { k, n, name: `é-${n}` };
    case 1:
      return { n, k, tags: ["a", n], nested: { x: n, y: [n, { z: n }] } };
    case 2:
      return { k, big: BigInt(n) * 1_000_000_007n, n, when: new Date(n) };
    case 3:
      return { k, n, maybe: undefined, nul: null, flag: n % 2 === 0 };
    case 4:
      return { k, n, m: new Map<string, unknown>([["a", n], ["b", [n]]]), s: new Set([n, "x"]) };
    case 5:
      return { k, n, bytes: Uint8Array.of(n & 255, (n >> 8) & 255) };
    case 6:
      return { k, n, deep: { a: { b: { c: { d: [n, { e: n }] } } } } };
    case 7:
      return Object.assign({ k, n }, Object.fromEntries(Array.from({ length: n % 7 }, (_, i) => [`f${i}`, i * n])));
    default:
      return { n, arr: [[n], [], [[n, "s"]]], k, neg: -n, frac: n / 7 };
  }
}

/** One string for any plain value, with types kept apart (`1n` vs `1`, Map vs object). */
export function canon(v: unknown): string {
  if (v === undefined) return "undefined";
  if (typeof v === "bigint") return `${v}n`;
  if (typeof v !== "object" || v === null) return JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map(canon).join(",")}]`;
  if (v instanceof Map) return `Map{${[...v].map(([a, b]) => `${canon(a)}=>${canon(b)}`).join(",")}}`;
  if (v instanceof Set) return `Set{${[...v].map(canon).join(",")}}`;
  if (v instanceof Date) return `Date(${v.getTime()})`;
  if (v instanceof Uint8Array) return `Bytes(${[...v].join(",")})`;
  return `{${Object.keys(v).sort().map((k) => `${k}:${canon((v as Record<string, unknown>)[k])}`).join(",")}}`;
}
