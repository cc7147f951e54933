import { describe, expect, it } from "vitest";
import { copyPlainData, PlainDataError } from "./plain-copy.ts";

describe("copyPlainData", () => {
  it("copies every kind of plain data deeply, sharing no object", () => {
    const v = {
      s: "x", n: 1.5, b: true, z: null, u: undefined, big: 12n,
      arr: [1, [2, { deep: [3] }], undefined],
      map: new Map<unknown, unknown>([["k", { v: 1 }]]),
      set: new Set([1, "a"]),
      date: new Date(1_000),
      bytes: new Uint8Array([1, 2]),
      buf: Buffer.from("hi"),
      bare: Object.assign(Object.create(null) as object, { a: 1 }),
    };
    const c = copyPlainData(v);
    expect(c).toEqual(v);
    expect(c.arr).not.toBe(v.arr);
    expect(c.arr[1]).not.toBe(v.arr[1]);
    expect(c.map.get("k")).not.toBe(v.map.get("k"));
    expect(c.date).not.toBe(v.date);
    expect(c.bytes).not.toBe(v.bytes);
    expect(Buffer.isBuffer(c.buf)).toBe(true);
    expect(Object.getPrototypeOf(c.bare)).toBe(null);
    (c.arr[1] as [number, { deep: number[] }])[1].deep.push(4);
    expect(v.arr[1]).toEqual([2, { deep: [3] }]);
  });

  it("returns primitives as they are", () => {
    for (const p of [1, "a", true, null, undefined, 5n]) expect(copyPlainData(p)).toBe(p);
  });

  it("refuses functions, symbols, class instances and cycles with the path", () => {
    class Money {
      constructor(readonly cents: number) {}
    }
    const at = (v: unknown): string => {
      try {
        copyPlainData(v);
      } catch (e) {
        expect(e).toBeInstanceOf(PlainDataError);
        return (e as Error).message;
      }
      return "copied";
    };
    expect(at(() => 1)).toBe("is a function");
    expect(at({ a: [{ f: () => 1 }] })).toBe("contains a function at .a[0].f");
    expect(at({ s: Symbol("x") })).toBe("contains a symbol at .s");
    expect(at({ m: new Money(5) })).toBe("contains an instance of class Money at .m");
    const c: Record<string, unknown> = { a: 1 };
    c.self = { back: c };
    expect(at(c)).toMatch(/^is a circular structure/);
  });
});
