import { describe, expect, it } from "vitest";
import { decodeStateValue, packPlainData } from "../serializer.ts";
import { decodeStoredValue, encodeStoredValue } from "./disk-value-codec.ts";

describe("disk value codec", () => {
  it("decodes msgpack scalars of every width exactly as the msgpack decoder does", () => {
    const numbers = [0, 1, 127, 128, 255, 256, 65535, 65536, 2 ** 31 - 1, 2 ** 31, 2 ** 32 - 1, 2 ** 32, -1, -32, -33, -128, -129, -32768, -32769, -(2 ** 31), -(2 ** 31) - 1, 0.5, -0, 1e300, NaN, Infinity, Math.fround(1.5)];
    for (const n of numbers) {
      const bytes = packPlainData(n);
      expect(Object.is(decodeStoredValue(bytes), decodeStateValue(bytes)), `${n}: ${Buffer.from(bytes).toString("hex")}`).toBe(true);
    }
    const float32 = Uint8Array.from([0xca, 0x3f, 0xc0, 0x00, 0x00]); // 1.5 as float32
    expect(decodeStoredValue(float32)).toBe(decodeStateValue(float32));
  });

  it("round-trips other plain data through the state serializer, each encoding in a buffer of its own", () => {
    const values = [null, true, "s", 2n ** 70n, [1, undefined], { a: new Map([[1, new Set([2])]]) }, new Date(5), new Uint8Array([1, 2])];
    const encoded = values.map(encodeStoredValue);
    encoded.forEach((bytes, i) => expect(decodeStoredValue(bytes)).toEqual(values[i]));
  });
});
