import { describe, expect, it } from "vitest";
import { UnsupportedKeyError } from "./errors.ts";
import { describeStateKey, keyOfStateKey, stateKeyOf } from "./state-key.ts";

describe("state keys", () => {
  it("are the primitive itself, and canonical strings for arrays and strings starting with U+0000", () => {
    expect(stateKeyOf(42)).toBe(42);
    expect(stateKeyOf(0.5)).toBe(0.5);
    expect(stateKeyOf("word")).toBe("word");
    expect(stateKeyOf("")).toBe("");
    expect(stateKeyOf(7n)).toBe(7n);
    expect(stateKeyOf(false)).toBe(false);
    expect(stateKeyOf(["a", 1])).toBe("\u0000[1:a3:\u0000n1]");
    expect(stateKeyOf("\u0000n1")).toBe("\u0000s\u0000n1"); // escaped: never equal to the canonical string of 1
  });

  it("keep distinct keys distinct as Map keys, and 0 and -0 one key", () => {
    const keys = [1, "1", 1n, true, "true", [1], ["1"], "\u0000n1", 0];
    const m = new Map(keys.map((k, i) => [stateKeyOf(k), i]));
    expect(m.size).toBe(keys.length);
    expect(m.get(stateKeyOf(-0))).toBe(keys.length - 1);
  });

  it("decode back to the key and render readably", () => {
    for (const key of [3, -2.5, "w", "", "\u0000x", 5n, true, ["a", [1, 2n]], []]) expect(keyOfStateKey(stateKeyOf(key))).toEqual(key);
    expect(describeStateKey(stateKeyOf("x"))).toBe("'x'");
    expect(describeStateKey(stateKeyOf(42))).toBe("42");
    expect(describeStateKey(stateKeyOf(["a", 7n, 2]))).toBe("['a', 7n, 2]");
  });

  it("refuse what is not a key", () => {
    for (const bad of [NaN, Infinity, null, undefined, { id: 1 }, Symbol("s")]) expect(() => stateKeyOf(bad)).toThrow(UnsupportedKeyError);
  });
});
