import { describe, expect, it } from "vitest";
import { canonicalKey, decodeCanonicalKey, describeCanonicalKey } from "./canonical-key.ts";
import { UnsupportedKeyError } from "./errors.ts";

describe("canonicalKey", () => {
  it("returns ordinary strings unchanged (hot path)", () => {
    expect(canonicalKey("word")).toBe("word");
    expect(canonicalKey("")).toBe("");
    expect(canonicalKey("n1")).toBe("n1");
  });

  it("gives distinct strings to distinct keys of different types", () => {
    const keys: unknown[] = [
      "1", 1, 1n, "true", true, false, "false", "", "\u0000n1", "\u0000", "0", 0, 0n,
      [], [""], [[]], ["1"], [1], [1n], ["a", "b"], ["ab"], ["a,b"], [["a"], "b"], ["a", ["b"]], 1.5, -1, "-1",
      2 ** 60, BigInt(2 ** 60),
    ];
    const encoded = keys.map(canonicalKey);
    expect(new Set(encoded).size).toBe(keys.length);
  });

  it("treats 0 and -0 as one key and equal arrays as one key", () => {
    expect(canonicalKey(-0)).toBe(canonicalKey(0));
    expect(canonicalKey(["x", [1, 2n]])).toBe(canonicalKey(["x", [1, 2n]]));
  });

  it("escapes strings that start with U+0000 so they cannot collide", () => {
    const tricky = canonicalKey(1); // "\u0000n1"
    expect(canonicalKey(tricky)).not.toBe(tricky);
    expect(decodeCanonicalKey(canonicalKey(tricky))).toBe(tricky);
  });

  it("round-trips through decodeCanonicalKey", () => {
    for (const k of ["a", "", 3.25, -7, 12n, true, false, ["a", 1, [2n, ["", "\u0000x"]]], []]) {
      expect(decodeCanonicalKey(canonicalKey(k))).toEqual(k);
    }
  });

  it("rejects objects, null, undefined, NaN, symbols and functions, saying what is allowed", () => {
    const bad: [unknown, RegExp][] = [
      [{ id: 1 }, /a plain object/],
      [null, /got null/],
      [undefined, /got undefined/],
      [NaN, /the number NaN/],
      [Infinity, /the number Infinity/],
      [Symbol("s"), /a symbol/],
      [() => 1, /a function/],
      [new Date(0), /an instance of Date/],
      [["ok", { x: 1 }], /a plain object at \[1\]/],
    ];
    for (const [key, msg] of bad) {
      let err: unknown;
      try {
        canonicalKey(key);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(UnsupportedKeyError);
      expect((err as Error).message).toMatch(msg);
      expect((err as Error).message).toMatch(/keys must be strings, finite numbers, bigints, booleans/);
    }
  });

  it("describes keys readably for error messages", () => {
    expect(describeCanonicalKey(canonicalKey("x"))).toBe("'x'");
    expect(describeCanonicalKey(canonicalKey(["a", 7n, 2]))).toBe("['a', 7n, 2]");
  });
});
