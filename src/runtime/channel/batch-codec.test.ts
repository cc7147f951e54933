import { describe, expect, it } from "vitest";
import { PlainDataError } from "../../state/plain-copy.ts";
import { BatchDecoder, BatchEncoder } from "./batch-codec.ts";

/** Encodes `batches` in order and decodes them in order (one encoder and decoder, as one channel). */
function roundTrip(batches: readonly (readonly unknown[])[], withTimestamps = false): { values: unknown[]; timestamps: number[] | undefined }[] {
  const encoder = new BatchEncoder();
  const decoder = new BatchDecoder();
  return batches.map((values, b) => {
    const timestamps = withTimestamps ? values.map((_, i) => b * 1_000 + i) : undefined;
    // a copy of the bytes in a larger buffer, as the link's scratch buffer holds them
    const bytes = encoder.encode(values, timestamps);
    const scratch = new Uint8Array(bytes.length + 17).fill(0xee);
    scratch.set(bytes);
    return decoder.decode(scratch, bytes.length);
  });
}

/** Compares deeply, with -0 and key order too. */
function expectSame(actual: unknown, expected: unknown, path = "$"): void {
  if (typeof expected !== "object" || expected === null) {
    expect(Object.is(actual, expected), `${path}: ${String(actual)} vs ${String(expected)}`).toBe(true);
    return;
  }
  expect(actual).toEqual(expected);
  if (Array.isArray(expected)) {
    for (let i = 0; i < expected.length; i++) expectSame((actual as unknown[])[i], expected[i], `${path}[${i}]`);
  } else if (Object.getPrototypeOf(expected) === Object.prototype) {
    expect(Object.keys(actual as object), path).toEqual(Object.keys(expected));
    for (const k of Object.keys(expected)) expectSame((actual as Record<string, unknown>)[k], (expected as Record<string, unknown>)[k], `${path}.${k}`);
  }
}

const NUMBERS = [0, -0, 1, -1, 127, 128, 2 ** 31 - 1, -(2 ** 31), 2 ** 31, -(2 ** 31) - 1, 2 ** 32, 2 ** 53 - 1, 2 ** 53 + 2, -(2 ** 53) - 2, 0.1, -1.5, 1e300, Number.MIN_VALUE, NaN, Infinity, -Infinity];
/** ASCII strings of every length up to 10 (the decoder reads those up to 8 characters in JavaScript, longer ones natively). */
const SHORT_ASCII = Array.from({ length: 10 }, (_, n) => "\u0000Az~0 9.\u007fq".slice(0, n + 1));
const STRINGS = [...SHORT_ASCII, "", "a", "Google", "x".repeat(31), "y".repeat(32), "z".repeat(33), "ü", "héllo wörld", "日本語のテキスト".repeat(10), "😀 emoji", "\u0000nul", "a".repeat(5_000), "é".repeat(40), "\u007f\u0080", "lone \ud800 high", "\udc00", "x".repeat(40) + "\udbff"];

describe("BatchEncoder / BatchDecoder", () => {
  it("round-trips numbers (int32 edges, -0, beyond 2^53, NaN, infinities) and strings (ASCII of every short length, UTF-8, long, empty)", () => {
    const [out] = roundTrip([[...NUMBERS, ...STRINGS, true, false, null, undefined]]);
    expectSame(out!.values, [...NUMBERS, ...STRINGS, true, false, null, undefined]);
    expect(out!.timestamps).toBeUndefined();
  });

  it("round-trips records of several shapes, nested objects and arrays, keys in their order, undefined kept apart from null and from a missing key", () => {
    const batch = [
      { auction: 1000, bidder: 1001, price: 639_644, channel: "Apple", url: "https://www.nexmark.com/a/b/c/item.htm?query=1", dateTime: 1_767_225_599_688, extra: "brivl" },
      { b: 1, a: 2 },
      { a: 2, b: 1 },
      { a: undefined, b: null },
      { b: null },
      {},
      { nested: { deeper: { list: [1, "two", { three: 3 }, [4, [5]]] } }, tail: -0 },
      [1, [2, [3, []]], { x: [] }],
      { auction: 7, bidder: 8, price: 9, channel: "channel-1", url: "ü", dateTime: 1.5, extra: "" },
    ];
    const [out] = roundTrip([batch]);
    expectSame(out!.values, batch);
    expect("a" in (out!.values[3] as object)).toBe(true);
    expect("a" in (out!.values[4] as object)).toBe(false);
  });

  it("gives copies: changing a decoded record changes nothing else", () => {
    const nested = { list: [1, 2] };
    const batch = [{ n: nested }, { n: nested }];
    const [out] = roundTrip([batch]);
    const [first, second] = out!.values as { n: { list: number[] } }[];
    first!.n.list.push(3);
    expect(second!.n.list).toEqual([1, 2]);
    expect(nested.list).toEqual([1, 2]);
  });

  it("encodes batches with values it has no compact form for (bigint, bytes, Map, Set, Date, unusual keys or prototypes) with msgpackr, and goes on with the compact form after them", () => {
    const odd: unknown[][] = [
      [{ a: 1 }, { a: 2n ** 70n }],
      [{ a: 3 }, new Uint8Array([1, 2, 3])],
      [new Map<unknown, unknown>([["k", [1, { v: 2 }]]])],
      [{ s: new Set([1, "x"]) }],
      [new Date(1_700_000_000_000)],
      [{ "not an identifier": 1 }],
      [{ "0": "index key", a: 1 }],
      [{ a: { b: { c: 1n } } }],
    ];
    const batches: unknown[][] = [];
    for (const b of odd) batches.push(b, [{ a: 5 }, { q: "after" }, 6]);
    const out = roundTrip(batches);
    out.forEach((o, i) => expect(o.values, `batch ${i}`).toEqual(batches[i]));
    const nullProto = Object.assign(Object.create(null) as object, { x: 1 });
    expect(roundTrip([[nullProto, { x: 2 }]])[0]!.values).toEqual([{ x: 1 }, { x: 2 }]);
  });

  it("refuses a batch with a record that is not plain data (class instance, function, symbol, cycle) and encodes the next batches as before", () => {
    class Money {
      constructor(readonly cents: number) {}
    }
    const circular: Record<string, unknown> = { a: 1 };
    circular.self = { parent: circular };
    const encoder = new BatchEncoder();
    const decoder = new BatchDecoder();
    const good = [{ a: 1, b: "x" }, { a: 2, b: "y" }];
    const first = encoder.encode(good, undefined);
    expect(decoder.decode(new Uint8Array(first), first.length).values).toEqual(good);
    for (const [bad, what] of [
      [{ a: 3, b: new Money(7) }, /instance of class Money at \.b/],
      [{ a: 3, f: () => 1 }, /function at \.f/],
      [{ a: 3, b: "z", nested: [Symbol("s")] }, /symbol at \.nested\[0\]/],
      [circular, /circular/],
    ] as const) {
      expect(() => encoder.encode([{ a: 9, b: "w" }, bad], undefined)).toThrow(PlainDataError);
      expect(() => encoder.encode([bad], [1])).toThrow(what);
      const next = [{ a: 4, b: "after" }, { c: [1, { d: 2 }] }];
      const bytes = encoder.encode(next, undefined);
      expect(decoder.decode(new Uint8Array(bytes), bytes.length).values).toEqual(next);
    }
  });

  it("forgets the shapes a record defined before it turned out to have another shape than the last one", () => {
    // the second record starts like the first ({a, b}) but b is an object of a new shape and a key c follows
    const batches = [
      [{ a: 1, b: { x: 1 } }],
      [{ a: 1, b: { y: 2 }, c: 3 }, { a: 2, b: { y: 3 }, c: 4 }],
      [{ a: 1, b: { y: 2 } }, { z: { y: 1 } }],
      [{ a: 1, b: { y: 2 }, c: { w: 1n } }, { a: 1, b: { v: 2 } }],
      [{ a: 1, b: { v: 2 } }, { a: 1, b: { y: 2 }, c: 3 }],
    ];
    const out = roundTrip(batches);
    out.forEach((o, i) => expect(o.values, `batch ${i}`).toEqual(batches[i]));
  });

  it("writes an object with the last shape of its depth only when its keys are that shape's, in order (compiled writers)", () => {
    const batches = [
      [{ a: 1, b: "x" }, { a: 2, b: "y" }, { b: "z", a: 3 }, { a: 4 }, { a: 5, b: "w", c: 6 }, { a: 7, c: "v" }, { a: 8, b: "u" }],
      [{ a: { p: 1, q: [2] } }, { a: { p: 3, q: [4] } }, { a: { q: [5], p: 6 } }, { a: { p: 7 } }, { a: [{ p: 8, q: [] }] }, { a: { p: 9, q: [10] } }],
      [{ a: 1, b: Object.create(null) as object }, { a: 2, b: "back" }],
    ];
    const withGetter = { a: 10, get b() { return "got"; } };
    batches.push([{ a: 9, b: "t" }, withGetter, { a: 11, b: "s" }]);
    const out = roundTrip(batches);
    out.forEach((o, i) => expect(o.values, `batch ${i}`).toEqual(batches[i]));
    out.forEach((o, i) => o.values.forEach((v, k) => expect(Object.keys(v as object), `batch ${i} record ${k}`).toEqual(Object.keys(batches[i]![k] as object))));
  });

  it("carries timestamps with compact and msgpackr batches", () => {
    const batches = [[1, 2, 3], [{ big: 1n }], [], [{ a: "x" }]];
    const out = roundTrip(batches, true);
    out.forEach((o, i) => {
      expect(o.values).toEqual(batches[i]);
      expect(o.timestamps).toEqual(batches[i]!.map((_, k) => i * 1_000 + k));
    });
    // every number a timestamp can be: epoch milliseconds, none (-Infinity), negative, fractional, -0
    const timestamps = [1_700_000_000_123, Number.NEGATIVE_INFINITY, 2 ** 53 - 1, -5, 0.5, -0];
    const values = timestamps.map((_, i) => ({ i, s: "ab" }));
    const encoder = new BatchEncoder();
    const bytes = encoder.encode(values, timestamps);
    const decoded = new BatchDecoder().decode(new Uint8Array(bytes), bytes.length);
    expect(decoded.values).toEqual(values);
    expectSame(decoded.timestamps, timestamps);
  });

  it("round-trips random batches of plain data in sequence (seeded)", () => {
    const seed = Date.now() % 100_000;
    console.log(`batch codec: random batches of seed ${seed}`);
    let s = seed;
    const rnd = () => ((s = (s * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
    const pick = <T,>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
    const keys = ["id", "name", "price", "tags", "inner", "when", "flag"];
    // without -0 and lone surrogates: a batch that goes with msgpackr (one with a bigint, bytes or a Map) loses them, as before
    const leaves = [...NUMBERS.filter((n) => !Object.is(n, -0)), ...STRINGS.filter((t) => !/[\ud800-\udfff]/.test(t)), true, false, null, undefined];
    const value = (depth: number): unknown => {
      const r = rnd();
      if (depth > 3 || r < 0.35) return pick(leaves);
      if (r < 0.45) return Math.floor(rnd() * 1e6) - 5e5;
      if (r < 0.5 && depth > 0) return pick([1n, new Uint8Array([9]), new Map([[1, 2]])]);
      if (r < 0.7) return Array.from({ length: Math.floor(rnd() * 4) }, () => value(depth + 1));
      const o: Record<string, unknown> = {};
      for (const k of keys) if (rnd() < 0.5) o[k] = value(depth + 1);
      return o;
    };
    const batches = Array.from({ length: 60 }, () => Array.from({ length: Math.floor(rnd() * 40) }, () => value(0)));
    const out = roundTrip(batches, rnd() < 0.5);
    out.forEach((o, i) => {
      try {
        expect(o.values).toEqual(batches[i]);
      } catch (e) {
        throw new Error(`seed ${seed}, batch ${i}: ${(e as Error).message}`);
      }
    });
  });
});
