/**
 * MurmurHash3 (x86, 32-bit) over the UTF-8 bytes of a string, and Flink's
 * `MathUtils.murmurHash(int)` finaliser used to spread a hash over key groups.
 * Pure integer arithmetic: identical in every thread and process.
 */

const C1 = 0xcc9e2d51;
const C2 = 0x1b873593;
const utf8 = new TextEncoder();

function mixK(k: number): number {
  k = Math.imul(k, C1);
  k = (k << 15) | (k >>> 17);
  return Math.imul(k, C2);
}

function mixH(h: number, k: number): number {
  h ^= mixK(k);
  h = (h << 13) | (h >>> 19);
  return (Math.imul(h, 5) + 0xe6546b64) | 0;
}

function fmix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return h ^ (h >>> 16);
}

function murmur3Bytes(b: Uint8Array): number {
  const n = b.length;
  const blocks = n & ~3;
  let h = 0;
  for (let i = 0; i < blocks; i += 4) {
    h = mixH(h, b[i]! | (b[i + 1]! << 8) | (b[i + 2]! << 16) | (b[i + 3]! << 24));
  }
  const rem = n & 3;
  if (rem > 0) {
    let k = b[blocks]!;
    if (rem > 1) k |= b[blocks + 1]! << 8;
    if (rem > 2) k |= b[blocks + 2]! << 16;
    h ^= mixK(k);
  }
  return fmix(h ^ n) >>> 0;
}

/**
 * MurmurHash3_x86_32 with seed 0 over the UTF-8 encoding of `s` (lone
 * surrogates encode as U+FFFD, as `TextEncoder` does). Returns an unsigned
 * 32-bit integer. ASCII strings are hashed in one pass without allocating.
 *
 * @example
 * ```ts
 * murmur3String("hello"); // 0x248bfa47
 * ```
 */
export function murmur3String(s: string): number {
  const n = s.length;
  const blocks = n & ~3;
  let h = 0;
  for (let i = 0; i < blocks; i += 4) {
    const a = s.charCodeAt(i);
    const b = s.charCodeAt(i + 1);
    const c = s.charCodeAt(i + 2);
    const d = s.charCodeAt(i + 3);
    if ((a | b | c | d) > 0x7f) return murmur3Bytes(utf8.encode(s));
    h = mixH(h, a | (b << 8) | (c << 16) | (d << 24));
  }
  const rem = n & 3;
  if (rem > 0) {
    const a = s.charCodeAt(blocks);
    const b = rem > 1 ? s.charCodeAt(blocks + 1) : 0;
    const c = rem > 2 ? s.charCodeAt(blocks + 2) : 0;
    if ((a | b | c) > 0x7f) return murmur3Bytes(utf8.encode(s));
    h ^= mixK(a | (b << 8) | (c << 16));
  }
  return fmix(h ^ n) >>> 0;
}

/**
 * Flink's `MathUtils.murmurHash(int code)`: one murmur round on a 32-bit hash
 * code, made non-negative. The result is in `[0, 2^31 - 1]`.
 */
export function flinkMurmurHash(code: number): number {
  let h = mixH(0, code | 0);
  h = fmix(h ^ 4) | 0;
  if (h >= 0) return h;
  if (h !== -2147483648) return -h;
  return 0;
}
