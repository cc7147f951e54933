import { describe, expect, it } from "vitest";
import { randomInt, seededRandom, testSeed } from "../../util/seeded-random.ts";
import { JsonNumber, jsonNodeText, JsonSyntaxError, parseJsonText, type JsonNode } from "./json-text.ts";

/** The JSON.parse value of a parsed node: numbers as doubles, maps as objects. */
function plain(node: JsonNode): unknown {
  if (node instanceof JsonNumber) return Number(node.text);
  if (Array.isArray(node)) return node.map(plain);
  if (node instanceof Map) return Object.fromEntries([...node].map(([k, v]) => [k, plain(v)]));
  return node;
}

function randomValue(random: () => number, depth: number): unknown {
  const pick = randomInt(random, 0, depth > 3 ? 3 : 6);
  switch (pick) {
    case 0:
      return null;
    case 1:
      return random() < 0.5;
    case 2:
      return [0, -0.5, 1e21, 123456.789, -42, 5e-324][randomInt(random, 0, 5)];
    case 3:
      return ["", "a\"b\\c", "line\nbreak\ttab", "\u0001\u001f", "ünïcödé 🎉", "\u2028"][randomInt(random, 0, 5)];
    case 4:
    case 5:
      return Array.from({ length: randomInt(random, 0, 3) }, () => randomValue(random, depth + 1));
    default:
      return Object.fromEntries(Array.from({ length: randomInt(random, 0, 3) }, (_, i) => [`k${i}${"\"é"[i % 2]}`, randomValue(random, depth + 1)]));
  }
}

describe("parseJsonText", () => {
  it("reads what JSON.parse reads (random documents, with and without spaces)", () => {
    const seed = testSeed();
    const random = seededRandom(seed);
    for (let i = 0; i < 500; i++) {
      const v = randomValue(random, 0);
      for (const text of [JSON.stringify(v), JSON.stringify(v, null, 2)]) {
        expect(plain(parseJsonText(text)), `WEIR_SEED=${seed} ${text}`).toEqual(JSON.parse(text));
      }
    }
  });

  it("rejects what JSON.parse rejects (random one-character edits), naming a column", () => {
    const seed = testSeed();
    const random = seededRandom(seed);
    const alphabet = ['"', "\\", "{", "}", "[", "]", ",", ":", "1", ".", "e", "-", "n", " ", "\u0000"];
    for (let i = 0; i < 2_000; i++) {
      const text = JSON.stringify(randomValue(random, 0));
      const at = randomInt(random, 0, text.length);
      const edited = text.slice(0, at) + alphabet[randomInt(random, 0, alphabet.length - 1)] + text.slice(at + (random() < 0.5 ? 1 : 0));
      let expected: unknown;
      try {
        expected = JSON.parse(edited);
      } catch {
        expect(() => parseJsonText(edited), `WEIR_SEED=${seed} ${edited}`).toThrow(JsonSyntaxError);
        continue;
      }
      expect(plain(parseJsonText(edited)), `WEIR_SEED=${seed} ${edited}`).toEqual(expected);
    }
  });

  it("keeps the text of numbers, and keys such as __proto__", () => {
    const doc = parseJsonText('{"__proto__": 1, "big": 123456789012345678901234567890.000, "exp": -1.5E-300}') as Map<string, JsonNode>;
    expect([...doc.keys()]).toEqual(["__proto__", "big", "exp"]);
    expect((doc.get("big") as JsonNumber).text).toBe("123456789012345678901234567890.000");
    expect(jsonNodeText(doc)).toBe('{"__proto__":1,"big":123456789012345678901234567890.000,"exp":-1.5E-300}');
  });

  it("says where the problem is", () => {
    expect(() => parseJsonText('{"a": 01}')).toThrow("invalid JSON at column 8: expected ',' or '}' in an object");
    expect(() => parseJsonText('["x]')).toThrow("invalid JSON at column 5: unterminated string");
    expect(() => parseJsonText("{} x")).toThrow("invalid JSON at column 4: unexpected text after the JSON value");
  });
});
