import { describe, expect, it } from "vitest";
import { copyPlainData, PlainDataCopier, PlainDataError } from "./plain-copy.ts";

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

describe("PlainDataCopier", () => {
  const message = (copier: PlainDataCopier, v: unknown): string => {
    try {
      copier.copy(v);
    } catch (e) {
      expect(e).toBeInstanceOf(PlainDataError);
      return (e as Error).message;
    }
    return "copied";
  };

  it("copies objects of the key list it learned deeply, sharing no object", () => {
    const copier = new PlainDataCopier();
    for (let i = 0; i < 3; i++) {
      const v = { n: i, big: 2 ** 40 + 0.5, tags: ["x", { deep: [i] }], at: new Date(i), none: null, u: undefined };
      const c = copier.copy(v);
      expect(c).toEqual(v);
      expect(Object.keys(c)).toEqual(["n", "big", "tags", "at", "none", "u"]);
      expect(c.tags).not.toBe(v.tags);
      expect(c.tags[1]).not.toBe(v.tags[1]);
      expect(c.at).not.toBe(v.at);
      c.tags.push("y");
      expect(v.tags).toHaveLength(2);
    }
  });

  it("copies objects with other keys, more keys or fewer completely", () => {
    const copier = new PlainDataCopier();
    copier.copy({ a: 1, b: 2 });
    expect(copier.copy({ a: 1, b: 2, c: { d: 3 } })).toEqual({ a: 1, b: 2, c: { d: 3 } });
    const fewer = copier.copy({ a: 1 });
    expect(fewer).toEqual({ a: 1 });
    expect("b" in fewer).toBe(false);
    expect(Object.keys(copier.copy({ b: 2, a: 1 }))).toEqual(["b", "a"]);
    expect(copier.copy([{ a: 1, b: 2 }])).toEqual([{ a: 1, b: 2 }]);
    expect(copier.copy(new Map([[1, { a: 1, b: 2 }]]))).toEqual(new Map([[1, { a: 1, b: 2 }]]));
    expect(copier.copy(7)).toBe(7);
  });

  it("keeps keys that need quoting, index-like keys and an own __proto__ key", () => {
    const odd = { "a-b": 1, 'q"uote': 2, "line\u2028sep": 3, 10: 4, 2: 5 };
    const copier = new PlainDataCopier();
    for (let i = 0; i < 2; i++) {
      const c = copier.copy(odd);
      expect(c).toEqual(odd);
      expect(Object.keys(c)).toEqual(Object.keys(odd));
    }
    const withProto = JSON.parse('{"__proto__": {"x": 1}, "a": 1}') as Record<string, unknown>;
    for (const copier2 of [new PlainDataCopier(), copier]) {
      const c = copier2.copy(withProto);
      expect(Object.getPrototypeOf(c)).toBe(Object.prototype);
      expect(Object.keys(c)).toEqual(["__proto__", "a"]);
      expect(Object.getOwnPropertyDescriptor(c, "__proto__")?.value).toEqual({ x: 1 });
    }
  });

  it("refuses what is not plain data with the path, in learned objects too", () => {
    class Money {
      constructor(readonly cents: number) {}
    }
    const copier = new PlainDataCopier();
    copier.copy({ a: 1, b: [1] });
    expect(message(copier, { a: () => 1, b: [1] })).toBe("contains a function at .a");
    expect(message(copier, { a: Symbol("s"), b: [1] })).toBe("contains a symbol at .a");
    expect(message(copier, { a: 1, b: [new Money(1)] })).toBe("contains an instance of class Money at .b[0]");
    expect(message(copier, new Money(2))).toBe("is an instance of class Money");
    expect(message(new PlainDataCopier(), { f: () => 1 })).toBe("contains a function at .f");
    const c: Record<string, unknown> = { a: 1, b: [] };
    c.b = [c];
    expect(message(copier, c)).toMatch(/^is a circular structure/);
  });
});
