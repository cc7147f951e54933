import { Packr } from "msgpackr";
import { describe, expect, it } from "vitest";
import { StateSerializationError } from "./errors.ts";
import { decodeStateValue, encodeStateValue, packPlainData, packPlainDataCopy, packPlainDataSized } from "./serializer.ts";

const roundTrip = (v: unknown): unknown => decodeStateValue(encodeStateValue(v));

describe("encodeStateValue / decodeStateValue", () => {
  it("preserves Map vs object, Set, Date, Uint8Array, bigint and undefined in arrays", () => {
    const value = {
      map: new Map<unknown, unknown>([["a", { n: 1 }], [2, [3]]]),
      obj: { a: { n: 1 } },
      set: new Set([1, "x"]),
      date: new Date(1_700_000_000_123),
      bytes: new Uint8Array([1, 2, 255]),
      small: 5n,
      huge: 2n ** 100n,
      negative: -(2n ** 70n),
      holes: [1, undefined, null, 3],
      big: 2 ** 53 - 1,
      float: -1.25,
    };
    const back = roundTrip(value) as typeof value;
    expect(back.map).toBeInstanceOf(Map);
    expect(back.map.get("a")).toEqual({ n: 1 });
    expect(back.map.get(2)).toEqual([3]);
    expect(back.obj).not.toBeInstanceOf(Map);
    expect(back.obj).toEqual({ a: { n: 1 } });
    expect(back.set).toBeInstanceOf(Set);
    expect([...back.set]).toEqual([1, "x"]);
    expect(back.date).toBeInstanceOf(Date);
    expect(back.date.getTime()).toBe(1_700_000_000_123);
    expect(back.bytes).toBeInstanceOf(Uint8Array);
    expect([...back.bytes]).toEqual([1, 2, 255]);
    expect(back.small).toBe(5n);
    expect(back.huge).toBe(2n ** 100n);
    expect(back.negative).toBe(-(2n ** 70n));
    expect(back.holes).toEqual([1, undefined, null, 3]);
    expect(back.holes.length).toBe(4);
    expect(back.big).toBe(2 ** 53 - 1);
    expect(typeof back.big).toBe("number");
    expect(back.float).toBe(-1.25);
  });

  it("decodes each encoding independently (no state shared between calls)", () => {
    const a = encodeStateValue([{ x: 1, y: 2 }]);
    const b = encodeStateValue([{ x: 3, y: 4 }]);
    expect(decodeStateValue(b)).toEqual([{ x: 3, y: 4 }]);
    expect(decodeStateValue(a)).toEqual([{ x: 1, y: 2 }]);
  });

  it("rejects functions, symbols and class instances, naming operator, state, key and path", () => {
    class Order {
      id = 1;
    }
    const cases: [unknown, RegExp][] = [
      [() => 1, /value at key 'k' of state 's' in operator 'op' is a function; state values must be plain data/],
      [{ items: [1, { cb: () => 1 }] }, /contains a function at \.items\[1\]\.cb/],
      [new Map([["a", Symbol("x")]]), /contains a symbol at <map value #0>/],
      [[new Order()], /contains an instance of class Order at \[0\]/],
      [new Float64Array(2), /is an instance of class Float64Array/],
    ];
    for (const [value, msg] of cases) {
      let err: unknown;
      try {
        encodeStateValue(value, { operatorUid: "op", stateName: "s", key: "'k'" });
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(StateSerializationError);
      expect((err as Error).message).toMatch(msg);
      expect((err as StateSerializationError).operatorUid).toBe("op");
      expect((err as StateSerializationError).stateName).toBe("s");
    }
  });

  it("accepts cyclic plain data", () => {
    const a: { self?: unknown } = {};
    a.self = a;
    const back = roundTrip(a) as { self: unknown };
    expect(back.self).toBe(back);
  });

  it("packs arrays of primitives as structured cloning does, byte for byte, and reads them back", () => {
    const structured = new Packr({ structuredClone: true, useBigIntExtension: true });
    const rows = [
      ["k1", "k2"],
      [
        [1.7e12, false, [7, 2n ** 70n, -3, null, "héllo", "x".repeat(300), undefined, Number.NaN, Number.POSITIVE_INFINITY]],
        [0, true, [], [[[1]]]],
      ],
    ];
    for (const value of [rows, [], "s".repeat(70_000), new Array(70_000).fill(1.5), [-(2n ** 40n), 5n]]) {
      expect(Buffer.from(packPlainData(value)).equals(Buffer.from(structured.pack(value)))).toBe(true);
      expect(decodeStateValue(packPlainData(value))).toEqual(value);
    }
    expect(Buffer.from(packPlainData([-0])).equals(Buffer.from(structured.pack([-0])))).toBe(true); // read back as 0 by either
    // an array within an object, and a circular array, keep the structured encoding
    const circular: unknown[] = [1];
    circular.push(circular);
    const back = decodeStateValue(packPlainData(circular)) as unknown[];
    expect(back[1]).toBe(back);
    expect(decodeStateValue(packPlainData([{ a: [1] }, new Map([[1, [2]]])]))).toEqual([{ a: [1] }, new Map([[1, [2]]])]);
  });
});

describe("packPlainDataCopy / packPlainDataSized", () => {
  it("hand out bytes that later packings of any kind leave as they were", () => {
    const values: unknown[] = [[["k"], [[1, false, [7, "x".repeat(100)]]]], { a: [1, 2], m: new Map([[1, "y"]]) }, ["z".repeat(200_000)], [1, 2, 3]];
    const kept: [unknown, Uint8Array, Uint8Array, Uint8Array][] = [];
    for (let round = 0; round < 3; round++) {
      for (const v of values) {
        const view = packPlainData(v); // a view into msgpackr's shared buffer
        const copy = packPlainDataCopy(v);
        const blob = packPlainDataSized({ parts: [copy, view] }, copy.length + view.length + 20);
        kept.push([v, view, copy, blob]);
      }
    }
    for (const [v, view, copy, blob] of kept) {
      expect(decodeStateValue(view)).toEqual(v);
      expect(decodeStateValue(copy)).toEqual(v);
      const { parts } = decodeStateValue(blob) as { parts: Uint8Array[] };
      expect(parts.map((p) => decodeStateValue(p))).toEqual([v, v]);
    }
    const copy = packPlainDataCopy(values[0]);
    expect(copy.buffer.byteLength).toBe(copy.length);
  });
});
