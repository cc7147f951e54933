import { describe, expect, it } from "vitest";
import { flinkMurmurHash, murmur3String } from "./murmur-hash.ts";

describe("murmur3String", () => {
  it("matches the published MurmurHash3_x86_32 (seed 0) vectors", () => {
    expect(murmur3String("")).toBe(0);
    expect(murmur3String("ab")).toBe(0x9bbfd75f);
    expect(murmur3String("abc")).toBe(0xb3dd93fa);
    expect(murmur3String("abcd")).toBe(0x43ed676a);
    expect(murmur3String("hello")).toBe(0x248bfa47);
    expect(murmur3String("The quick brown fox jumps over the lazy dog")).toBe(0x2e4ff723);
  });

  it("hashes the UTF-8 bytes of non-ASCII strings", () => {
    // Reference value computed independently over the UTF-8 encoding.
    expect(murmur3String("héllo wörld ✓ 😀")).toBe(2126341468);
  });
});

describe("flinkMurmurHash", () => {
  it("is non-negative and pinned", () => {
    expect(flinkMurmurHash(0)).toBe(593689054);
    expect(flinkMurmurHash(1)).toBe(68075478);
    expect(flinkMurmurHash(-1)).toBe(1982413648);
    for (let i = -1000; i < 1000; i++) expect(flinkMurmurHash(i * 7919)).toBeGreaterThanOrEqual(0);
  });
});
