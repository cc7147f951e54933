import { describe, expect, it } from "vitest";
import { randomInt, seededRandom, testSeed } from "../../util/seeded-random.ts";
import type { SqlValue } from "./sql-value.ts";
import { compactKeyOfValueKey, sqlValueCompactKey, sqlValueKey, valueKeyOfCompactKey } from "./sql-value-key.ts";

/** A random SQL value: integers near 0, near 2^31 and near 2^53 in every numeric form, fractions, strings, NULL. */
function randomValue(random: () => number): SqlValue {
  const magnitudes = [0, 7, 2 ** 31, 2 ** 53];
  const n = magnitudes[randomInt(random, 0, 3)]! + randomInt(random, -3, 3);
  const signed = random() < 0.3 ? -n : n;
  switch (randomInt(random, 0, 6)) {
    case 0:
      return signed; // beyond 2^53 a double need not hold the integer meant: it is one anyway
    case 1:
      return BigInt(magnitudes[randomInt(random, 0, 3)]!) * (random() < 0.3 ? -1n : 1n) + BigInt(randomInt(random, -3, 3));
    case 2: {
      const scale = randomInt(random, 0, 3);
      return { unscaled: BigInt(signed) * 10n ** BigInt(scale) + (random() < 0.3 ? BigInt(randomInt(random, 1, 9)) : 0n), scale };
    }
    case 3:
      return signed + 0.5;
    case 4:
      return String(signed);
    case 5:
      return random() < 0.5 ? -0 : null;
    default:
      return "i" + signed;
  }
}

describe("sqlValueCompactKey", () => {
  it("gives two values the same compact key exactly when sqlValueKey gives them the same key, and converts both ways", () => {
    const seed = testSeed();
    const random = seededRandom(seed);
    const values = Array.from({ length: 2000 }, () => randomValue(random));
    for (const a of values) {
      const compact = sqlValueCompactKey(a);
      const key = sqlValueKey(a);
      expect(valueKeyOfCompactKey(compact), `seed ${seed}: ${String(a)}`).toBe(key);
      expect(compactKeyOfValueKey(key), `seed ${seed}: ${String(a)}`).toBe(compact);
    }
    for (let i = 0; i < 20_000; i++) {
      const a = values[randomInt(random, 0, values.length - 1)]!;
      const b = values[randomInt(random, 0, values.length - 1)]!;
      expect(sqlValueCompactKey(a) === sqlValueCompactKey(b), `seed ${seed}: ${String(a)} vs ${String(b)}`).toBe(sqlValueKey(a) === sqlValueKey(b));
    }
  });

  it("is the number for an integer in the safe range in any form, the key string otherwise", () => {
    expect([7, 7n, { unscaled: 700n, scale: 2 }, -0, -(2 ** 53) + 1].map(sqlValueCompactKey)).toEqual([7, 7, 7, 0, -(2 ** 53) + 1]);
    expect([2 ** 53, 2n ** 60n, 2.5, "7", null, [7]].map(sqlValueCompactKey)).toEqual(["i9007199254740992", "i1152921504606846976", "d2.5", '"7"', "N", "[i7]"]);
    // key strings that only look like integers stay strings
    expect(["i", "i007", "i-0", "i1e3", "i9007199254740993", "x7"].map(compactKeyOfValueKey)).toEqual(["i", "i007", "i-0", "i1e3", "i9007199254740993", "x7"]);
  });
});
