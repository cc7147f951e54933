import { describe, expect, it } from "vitest";
import { StateRestoreError } from "../errors.ts";
import { packPlainData } from "../serializer.ts";
import type { StateKey } from "../state-key.ts";
import { decodeKeyGroupChunk, encodeKeyGroupChunk } from "./key-group-chunk.ts";

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

  it("refuses malformed chunks naming operator and state", () => {
    expect(() => decodeKeyGroupChunk(new Uint8Array([0xc1]), "op", "count")).toThrow(StateRestoreError);
    expect(() => decodeKeyGroupChunk(packPlainData([[1, 2], [3]]), "op", "count")).toThrow(
      /operator 'op'.*a key group of state 'count' is malformed/,
    );
    expect(() => decodeKeyGroupChunk(packPlainData({ keys: [] }), "op", "count")).toThrow(/malformed/);
  });
});
