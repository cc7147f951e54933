import { describe, expect, it } from "vitest";
import { StateRestoreError } from "../errors.ts";
import { packPlainData } from "../serializer.ts";
import type { StateKey } from "../state-key.ts";
import { hashCodeOfStateKey } from "../key-groups.ts";
import { KeyTable } from "../heap/key-table.ts";
import { decodeKeyGroupChunk, encodeKeyGroupChunk, encodeKeyGroupEntries } from "./key-group-chunk.ts";

const encode = (entries: [StateKey, unknown][]): Uint8Array => encodeKeyGroupChunk(entries.map(([k]) => k), entries.map(([, v]) => v));
const roundTrip = (entries: [StateKey, unknown][]) => decodeKeyGroupChunk(encode(entries), "op", "s");

describe("key-group chunks", () => {
  it("writes int32 columns as Int32Array (8 bytes an entry plus a header)", () => {
    const entries: [StateKey, unknown][] = Array.from({ length: 1000 }, (_, i) => [i * 7 - 3000, i]);
    const bytes = encode(entries);
    expect(bytes.length).toBeLessThan(8 * 1000 + 32);
    const [keys, values] = decodeKeyGroupChunk(bytes, "op", "s");
    expect(keys).toBeInstanceOf(Int32Array);
    expect(values).toBeInstanceOf(Int32Array);
    expect(Array.from(keys)).toEqual(entries.map(([k]) => k));
    expect(Array.from(values)).toEqual(entries.map(([, v]) => v));
  });

  it("writes other numbers as Float64Array, keeping -0, NaN and the int32 limits apart", () => {
    const [keys, values] = roundTrip([
      [1, 2 ** 31],
      [2.5, -0],
      [2 ** 40, NaN],
      [-(2 ** 31), 0.1],
    ]);
    expect(keys).toBeInstanceOf(Float64Array);
    expect(Array.from(keys)).toEqual([1, 2.5, 2 ** 40, -(2 ** 31)]);
    expect(values).toBeInstanceOf(Float64Array);
    expect(Object.is(values[1], -0)).toBe(true);
    expect(Array.from(values)).toEqual([2 ** 31, -0, NaN, 0.1]);
  });

  it("writes any other column as an array of plain data", () => {
    const rich = { m: new Map([[1, new Set(["s"])]]), d: new Date(5), u: [undefined, 1n], b: new Uint8Array([7]) };
    const [keys, values] = roundTrip([
      ["word", rich],
      [3n, [1, 2]],
      [true, "x"],
      ["\u0000[1:a]", 4],
      [5, null],
    ]);
    expect(keys).toEqual(["word", 3n, true, "\u0000[1:a]", 5]);
    expect(values).toEqual([rich, [1, 2], "x", 4, null]);
  });

  it("writes plain objects of one shape as a record column, one column per field, and rebuilds them in field order", () => {
    const entries: [StateKey, unknown][] = Array.from({ length: 500 }, (_, i) => [i, { count: i, sum: i * 1.5, tag: `t${i}`, nested: { a: [i] }, "1": i % 2 === 0 }]);
    const bytes = encode(entries);
    expect(bytes.length).toBeLessThan(500 * 40); // fields are not repeated per object
    const [, values] = decodeKeyGroupChunk(bytes, "op", "s");
    expect(Array.from(values)).toEqual(entries.map(([, v]) => v));
    expect(Object.keys(values[7] as object)).toEqual(["1", "count", "sum", "tag", "nested"]);
  });

  it("keeps records of field lists that only differ in where a field name splits", () => {
    const [, a] = roundTrip([[1, { "a\u0000b": 1 }]]);
    const [, b] = roundTrip([[1, { a: 1, b: 2 }]]);
    expect(Array.from(a)).toEqual([{ "a\u0000b": 1 }]);
    expect(Array.from(b)).toEqual([{ a: 1, b: 2 }]);
  });

  it("writes objects of different shapes, empty objects, Maps and class-less objects as plain msgpack", () => {
    const shapes: unknown[][] = [
      [{ a: 1 }, { b: 2 }],
      [{ a: 1, b: 2 }, { b: 2, a: 1 }],
      [{}, {}],
      [{ a: 1 }, new Map([["a", 1]])],
      [Object.assign(Object.create(null) as object, { a: 1 }), { a: 1 }],
      [{ a: 1 }, null],
    ];
    for (const values of shapes) {
      const [, back] = roundTrip(values.map((v, i) => [i, v]));
      expect(Array.from(back)).toEqual(values);
    }
  });

  it("encodes a key table's entries to the same bytes as their columns, number columns framed directly", () => {
    const seed = 25;
    let x = seed;
    const random = (): number => ((x = (Math.imul(x, 1103515245) + 12345) | 0) >>> 0) / 2 ** 32;
    const numbers: (() => number)[] = [
      () => Math.floor(random() * 2 ** 31) * (random() < 0.5 ? -1 : 1),
      () => random() * 1e6,
      () => [0, -0, 2 ** 31 - 1, -(2 ** 31), 2 ** 31, 2 ** 53, NaN, Infinity][Math.floor(random() * 8)]!,
    ];
    // Sizes around msgpack's ext8/ext16/ext32 limits (typed-array bytes + 1 < 2^8, < 2^16) for 4- and 8-byte numbers.
    for (const n of [0, 1, 2, 31, 32, 63, 64, 8191, 8192, 16383, 16384, 20000]) {
      for (const [kind, key] of numbers.entries()) {
        for (const value of numbers) {
          const t = new KeyTable<unknown>();
          for (let i = 0; i < n; i++) {
            const k = kind === 2 ? i * 0.5 : key();
            if (Number.isNaN(k) || Object.is(k, -0)) continue; // not state keys
            t.set(k, hashCodeOfStateKey(k), value());
          }
          const [keys, values] = t.columns();
          expect(Buffer.from(encodeKeyGroupEntries(t)).equals(Buffer.from(encodeKeyGroupChunk(keys, values))), `seed ${seed}, ${n} entries`).toBe(true);
        }
      }
    }
    const mixed = new KeyTable<unknown>();
    mixed.set(1, hashCodeOfStateKey(1), 1);
    mixed.set("a", hashCodeOfStateKey("a"), 2);
    mixed.set(2, hashCodeOfStateKey(2), { c: 1 });
    expect(mixed.numberColumns()).toBeUndefined();
    expect(decodeKeyGroupChunk(encodeKeyGroupEntries(mixed), "op", "s").map((c) => Array.from(c))).toEqual(mixed.columns());
  });

  it("refuses malformed chunks naming operator and state", () => {
    expect(() => decodeKeyGroupChunk(new Uint8Array([0xc1]), "op", "count")).toThrow(StateRestoreError);
    expect(() => decodeKeyGroupChunk(packPlainData([[1, 2], [3]]), "op", "count")).toThrow(
      /operator 'op'.*a key group of state 'count' is malformed/,
    );
    expect(() => decodeKeyGroupChunk(packPlainData({ keys: [] }), "op", "count")).toThrow(/malformed/);
    expect(() => decodeKeyGroupChunk(packPlainData([[1, 2], { fields: ["a"], columns: [[1]] }]), "op", "count")).toThrow(/malformed/);
  });
});
