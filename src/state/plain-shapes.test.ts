import { describe, expect, it } from "vitest";
import { checkPlainData, copyPlainData, PlainDataError } from "./plain-copy.ts";
import { PlainDataChecker, PlainDataCopier } from "./plain-shapes.ts";

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

/** What the generic code gives for `v`: the copy (or "checked"), or the error's class and message. */
function outcome(run: () => unknown): unknown {
  try {
    return run();
  } catch (e) {
    return { error: (e as Error).constructor.name, message: (e as Error).message };
  }
}

class Money {
  constructor(readonly cents: number) {}
}

class Tags extends Array<unknown> {}

const bid = (n: number) => ({ auction: n, bidder: 7, price: 1.5 * n, channel: "c", url: "u", dateTime: 1_000 + n, extra: "" });
const event = (n: number) =>
  n % 3 === 0
    ? { type: 0, person: { id: n, name: "p" }, auction: null, bid: null }
    : n % 3 === 1
      ? { type: 1, person: null, auction: { id: n, seller: 3, tags: [{ t: "a" }, { t: "b" }] }, bid: null }
      : { type: 2, person: null, auction: null, bid: bid(n) };

/** Values that differ from the learned shapes at every level in every way the slots tell apart. */
function variants(): [string, unknown][] {
  const cycle: Record<string, unknown> = { type: 2, person: null, auction: null, bid: null };
  cycle.bid = { ...bid(1), extra: cycle };
  const deepCycle = event(2) as Record<string, unknown> & { bid: Record<string, unknown> };
  deepCycle.bid.extra = [deepCycle];
  const protoBid = Object.assign(Object.create({ inherited: 1 }) as object, bid(1));
  const nullProtoBid = Object.assign(Object.create(null) as object, bid(1));
  const money = new Money(5);
  const withGetter = { type: 2, person: null, auction: null, get bid() { return bid(4); } };
  const sparse = { type: 1, person: null, auction: { id: 1, seller: 3, tags: [{ t: "a" }, , { t: "c" }] }, bid: null }; // eslint-disable-line no-sparse-arrays
  let deep: unknown = { leaf: 1 };
  for (let i = 0; i < 40; i++) deep = { type: 2, person: null, auction: null, bid: deep };
  // the generic code takes an object at depth 1001 for a cycle: 1001 nested objects are plain data, 1002 are not
  const nested = (levels: number) => {
    let v: unknown = 1;
    for (let i = 0; i < levels; i++) v = { type: 2, person: null, auction: null, bid: v };
    return v;
  };
  return [
    ["the learned shapes", event(5)],
    ["another learned variant", event(3)],
    ["keys in another order", { person: null, type: 2, auction: null, bid: bid(1) }],
    ["a key more", { ...event(2), more: 1 }],
    ["a key less", { type: 2, person: null, auction: null }],
    ["a nested key more", { ...event(2), bid: { ...bid(1), more: [1] } }],
    ["nested keys in another order", { ...event(2), bid: { bidder: 7, auction: 1, price: 1, channel: "c", url: "u", dateTime: 1, extra: "" } }],
    ["a function at the root", { ...event(2), type: () => 2 }],
    ["a symbol nested", { ...event(2), bid: { ...bid(1), extra: Symbol("s") } }],
    ["a function in an array element", { ...event(1), auction: { id: 1, seller: 3, tags: [{ t: "a" }, { t: () => 1 }] } }],
    ["a function as an array element", { ...event(1), auction: { id: 1, seller: 3, tags: [() => 1] } }],
    ["a class instance of the learned keys", { ...event(0), person: Object.assign(new Money(1), { id: 1, name: "p" }) }],
    ["a class instance nested", { ...event(2), bid: money }],
    ["an object where arrays were", { ...event(1), auction: { id: 1, seller: 3, tags: { 0: { t: "a" }, length: 1 } } }],
    ["an array with a changed prototype where arrays were", { ...event(1), auction: { id: 1, seller: 3, tags: Object.setPrototypeOf([{ t: "a" }], Object.prototype) as unknown } }],
    ["an Array subclass instance where arrays were", { ...event(1), auction: { id: 1, seller: 3, tags: Tags.from([{ t: "a" }]) } }],
    ["a class instance at the root", money],
    ["an object with another prototype", { ...event(2), bid: protoBid }],
    ["an object without prototype", { ...event(2), bid: nullProtoBid }],
    ["Map, Set, Date, bytes nested", { ...event(2), bid: { ...bid(1), extra: [new Map([[1, { a: 1 }]]), new Set([1]), new Date(5), new Uint8Array([1]), Buffer.from("x")] } }],
    ["a Map holding a function", { ...event(2), bid: new Map([[1, () => 1]]) }],
    ["a plain object with a getter", withGetter],
    ["a sparse array", sparse],
    ["an own __proto__ key", JSON.parse('{"type": 2, "person": null, "auction": null, "bid": {"__proto__": {"x": 1}, "a": 1}}')],
    ["keys that need quoting", { ...event(2), bid: { "a-b": 1, 'q"uote': { "line\u2028sep": 2 }, 10: 3, 2: 4 } }],
    ["a cycle through learned shapes", cycle],
    ["a cycle through an array", deepCycle],
    ["nesting deeper than the slots", deep],
    ["the deepest nesting plain data may have", nested(1_001)],
    ["nesting deeper than plain data may be", nested(1_002)],
    ["arrays nested deeper than plain data may be", JSON.parse(`${"[".repeat(1_002)}${"]".repeat(1_002)}`)],
    ["an array at the root", [event(2), event(0)]],
    ["a primitive", 5],
    ["a function", () => 1],
    ["null", null],
  ];
}

describe("PlainDataCopier and PlainDataChecker: learned shapes", () => {
  it("copy and check like the generic code, whatever the learned shapes: the same copy, the same errors", () => {
    const learned = () => {
      const copier = new PlainDataCopier();
      const checker = new PlainDataChecker();
      for (let n = 0; n < 30; n++) {
        copier.copy(event(n));
        checker.check(event(n));
      }
      return { copier, checker };
    };
    // learners primed by events, learners that learn the variant first, and one learner seeing all variants in turn
    const primed = learned();
    for (const [what, v] of variants()) {
      const fresh = { copier: new PlainDataCopier(), checker: new PlainDataChecker() };
      for (const { copier, checker } of [learned(), fresh, primed]) {
        const wantCopy = outcome(() => copyPlainData(v));
        const gotCopy = outcome(() => copier.copy(v));
        expect(gotCopy, what).toStrictEqual(wantCopy);
        expect(outcome(() => checker.check(v)), what).toStrictEqual(outcome(() => checkPlainData(v)));
        if (typeof v === "object" && v !== null && !("error" in (wantCopy as object))) {
          expect(gotCopy, what).not.toBe(v);
          expect(JSON.stringify(Object.keys(gotCopy as object)), what).toBe(JSON.stringify(Object.keys(v)));
        }
      }
      // the learned shapes still serve their values after any variant
      for (const n of [0, 1, 2]) expect(primed.copier.copy(event(n))).toStrictEqual(event(n));
    }
  });

  it("names the path of what is not plain data inside learned shapes", () => {
    const { copier, checker } = { copier: new PlainDataCopier(), checker: new PlainDataChecker() };
    for (let n = 0; n < 10; n++) {
      copier.copy(event(n));
      checker.check(event(n));
    }
    const bad = { ...event(1), auction: { id: 1, seller: 3, tags: [{ t: "a" }, { t: new Money(1) }] } };
    for (const run of [() => copier.copy(bad), () => checker.check(bad)]) {
      expect(run).toThrow(PlainDataError);
      expect(run).toThrow(/^contains an instance of class Money at \.auction\.tags\[1\]\.t$/);
    }
    const circular = event(2) as { bid: Record<string, unknown> };
    circular.bid.extra = circular;
    expect(() => copier.copy(circular)).toThrow(/^is a circular structure/);
    expect(() => checker.check(circular)).toThrow(/^is a circular structure/);
  });

  it("copies nested learned shapes, array elements included, sharing no object", () => {
    const copier = new PlainDataCopier();
    for (let n = 0; n < 6; n++) {
      const v = event(n) as { person: object | null; auction: { tags: { t: string }[] } | null; bid: object | null };
      const c = copier.copy(v);
      expect(c).toEqual(v);
      for (const k of ["person", "auction", "bid"] as const) if (v[k] !== null) expect(c[k]).not.toBe(v[k]);
      if (v.auction !== null) {
        expect(c.auction!.tags).not.toBe(v.auction.tags);
        expect(c.auction!.tags[0]).not.toBe(v.auction.tags[0]);
        c.auction!.tags[0]!.t = "changed";
        expect(v.auction.tags[0]!.t).toBe("a");
      }
    }
  });

  it("keeps the holes of sparse arrays in copies", () => {
    const copier = new PlainDataCopier();
    copier.copy({ a: [{ x: 1 }] });
    const c = copier.copy({ a: [{ x: 1 }, , { x: 3 }] }); // eslint-disable-line no-sparse-arrays
    expect(c.a).toHaveLength(3);
    expect(1 in c.a).toBe(false);
  });

  it("learns a few shapes that alternate at one position (a tagged union): the same copies and errors as the generic code", () => {
    const copier = new PlainDataCopier();
    const checker = new PlainDataChecker();
    const person = (i: number) => [0, { id: i, name: `p${i}`, tags: [{ t: i }] }];
    const auction = (i: number) => [1, { id: i, seller: i + 1, item: { name: `a${i}` } }];
    const bid = (i: number) => [2, { auction: i, price: i * 10 }];
    const other = (i: number) => [3, { [`k${i % 9}`]: i }];
    const values: unknown[] = [];
    for (let i = 0; i < 400; i++) values.push([person, auction, bid, other, bid][i % 5]!(i));
    values.push([1, { id: 1, seller: 2, item: { name: () => 1 } }], [0, { id: 1, name: "x", tags: [{ t: Symbol("s") }] }], [2, { auction: 1, price: 1, extra: 1 }]);
    for (const v of values) {
      const c = outcome(() => copier.copy(v));
      expect(c).toStrictEqual(outcome(() => copyPlainData(v)));
      expect(outcome(() => checker.check(v))).toStrictEqual(outcome(() => checkPlainData(v)));
      if (Array.isArray(c)) {
        expect(c[1]).not.toBe((v as unknown[])[1]);
        expect(Object.keys(c[1] as object)).toEqual(Object.keys((v as unknown[])[1] as object));
      }
    }
  });

  it("follows a stream whose shape changes mid-stream, and values of many shapes", () => {
    const copier = new PlainDataCopier();
    const checker = new PlainDataChecker();
    const values: unknown[] = [];
    for (let i = 0; i < 100; i++) values.push({ a: i, b: { c: i } });
    for (let i = 0; i < 300; i++) values.push({ b: { c: i, d: [i] }, a: i });
    for (let i = 0; i < 300; i++) values.push({ [`k${i % 50}`]: { [`n${i % 7}`]: i } });
    values.push({ a: 1, b: { c: () => 1 } });
    for (const v of values) {
      expect(outcome(() => copier.copy(v))).toStrictEqual(outcome(() => copyPlainData(v)));
      expect(outcome(() => checker.check(v))).toStrictEqual(outcome(() => checkPlainData(v)));
    }
  });
});
