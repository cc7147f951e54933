/**
 * The plain-data copy and check of one stream of similar values (the records
 * of one output, the values of one state), compiled for the shapes the values
 * have. Most values of a stream are objects of one key list whose nested
 * objects again have one key list per key (a Nexmark event `{type, person,
 * auction, bid}` holds its bid at `bid`, its person at `person`), and arrays
 * whose elements share one key list. A {@link ShapeSlot} stands for one such
 * position in the values: it learns the key list of the first plain object
 * found there, compiles a copy (an object literal) and a check of it with one
 * named property load per key, and gives each key a slot of its own; an array
 * found there gives its elements a slot. A position where objects of a few
 * shapes alternate (the two sides of a tagged union, the person and the auction
 * of a Nexmark window) learns up to {@link MAX_SHAPES} key lists, one after the
 * other: an object the first shape misses goes to the second, and so on.
 *
 * Exactness: a compiled copy or check serves only a plain object whose
 * `for…in` keys are exactly the learned ones, in order; everything else (other
 * keys or order, another prototype, Map, Set, Date, bytes, class instances)
 * takes the generic code of plain-copy.ts at the same depth, so cycles and
 * non-plain values are refused exactly as by {@link copyPlainData} and
 * {@link checkPlainData}, with the same {@link PlainDataError}. A slot whose
 * key list keeps missing stops trying it, so varied values cost about what the
 * generic code does.
 */

import { checkObject, checkPlainData, copyObject, copyPlainData, NOT_PLAIN, notPlain, refuse, type PlainDataError } from "./plain-copy.ts";

/** Objects with more keys than this are not compiled (dictionaries rather than records). */
const MAX_SHAPE_KEYS = 32;
/** Attempts after which a slot whose key list misses more often than it hits stops trying it. */
const SHAPE_TRIAL = 64;
/** Slots this deep take the generic code (and learn nothing): bounds the slots a deep or cyclic value creates. */
const MAX_SLOT_DEPTH = 6;
/** Key lists learned at one position (as V8's polymorphic inline caches): objects beyond them take the generic code. */
const MAX_SHAPES = 4;

/** The copy (or check: undefined) of the objects found at a slot. */
type Run = (v: object) => unknown;

/**
 * The key list of plain object `v` if worth compiling: at most
 * `MAX_SHAPE_KEYS` keys, none of them `__proto__` (which an object literal
 * would take for the prototype).
 */
function keysOf(v: object): string[] | undefined {
  const keys: string[] = [];
  for (const k in v) {
    if (k === "__proto__" || keys.length === MAX_SHAPE_KEYS) return undefined;
    keys.push(k);
  }
  return keys;
}

/**
 * Compiles the `run` of `slot` for objects of `keys`: `body` runs only when
 * `v` is a plain object whose `for…in` keys are exactly `keys`, in order, with
 * `x0, x1, …` the values at the keys (each read once, by name) and the keys'
 * slots as `s0, s1, …`; any other object goes to `slot.miss`. The `in` test
 * first lets the optimizing compiler know the hidden class of `v` (so the
 * prototype test is a constant) and does not run a getter; the values are read
 * only once the prototype is known to be `Object.prototype`. One function per
 * slot, so each call site of a nested slot's `run` sees one function (inlined).
 * Keys enter the source only as JSON string literals.
 */
function compile(slot: ShapeSlot, keys: readonly string[], slots: readonly ShapeSlot[], body: string): Run {
  const literal = keys.map((k) => JSON.stringify(k));
  const constants = keys.map((_, i) => `const s${i} = slots[${i}];`).join("\n");
  const reads = literal.map((k, i) => `const x${i} = v[${k}];`).join("\n");
  const known = keys.length > 0 ? `${literal[0]} in v && ` : "";
  const source = `"use strict";
${constants}
return (v) => {
if (!(${known}Object.getPrototypeOf(v) === Object.prototype)) return slot.miss(v);
let i = 0;
for (const k in v) {
if (k !== keys[i]) return slot.miss(v);
i++;
}
if (i !== ${keys.length}) return slot.miss(v);
slot.hits++;
${reads}
${body}
};`;
  return new Function("slot", "slots", "keys", "bad", source)(slot, slots, keys, notPlain) as Run;
}

/** `({ k0: copy of x0, … })`: object values copied by their key's slot; a function or a symbol calls `bad`. */
function compileCopy(slot: ShapeSlot, keys: readonly string[], slots: readonly ShapeSlot[]): Run {
  const fields = keys.map(
    (k, i) =>
      `${JSON.stringify(k)}: typeof x${i} === "object" ? (x${i} === null ? null : s${i}.run(x${i})) : typeof x${i} === "function" || typeof x${i} === "symbol" ? bad() : x${i}`,
  );
  return compile(slot, keys, slots, `return {\n${fields.join(",\n")}\n};`);
}

/** Checks each value: object values by their key's slot; a function or a symbol calls `bad`. */
function compileCheck(slot: ShapeSlot, keys: readonly string[], slots: readonly ShapeSlot[]): Run {
  const checks = keys.map(
    (_, i) => `if (typeof x${i} === "object") { if (x${i} !== null) s${i}.run(x${i}); } else if (typeof x${i} === "function" || typeof x${i} === "symbol") bad();`,
  );
  return compile(slot, keys, slots, checks.join("\n"));
}

/**
 * The `run` of `slot` for arrays (with `Array.prototype`): copies (`slice`, which
 * keeps holes, as the generic copy does) or checks them, their object elements
 * by the elements' slot `items`; anything else goes to `slot.miss`.
 */
function compileArray(slot: ShapeSlot, items: ShapeSlot, copying: boolean): Run {
  const source = `"use strict";
return (v) => {
if (!Array.isArray(v) || Object.getPrototypeOf(v) !== Array.prototype) return slot.miss(v);
slot.hits++;
const a = ${copying ? "v.slice()" : "v"};
for (let i = 0; i < a.length; i++) {
const x = a[i];
if (typeof x === "object") { if (x !== null) ${copying ? "a[i] = " : ""}items.run(x); }
else if (typeof x === "function" || typeof x === "symbol") bad();
}
return ${copying ? "a" : "undefined"};
};`;
  return new Function("slot", "items", "bad", source)(slot, items, notPlain) as Run;
}

/**
 * One position in the values of a stream (the root, the value at a key of a
 * learned shape, the elements of an array there), at nesting `depth`:
 * `run` copies (or, if not `copying`, checks) the objects found there,
 * throwing {@link NOT_PLAIN} for what is not plain data (the caller refuses
 * the root value). `run` learns the key list of the first plain object, then
 * is the compiled copy or check of it; the generic code once that misses too
 * often.
 */
class ShapeSlot {
  run: Run;
  /** Objects the compiled `run` served. */
  hits = 0;
  /** Objects the compiled `run` passed to `miss`. */
  private misses = 0;
  /** The slot at the same position that learns the next shape: the objects this one misses. */
  private other: ShapeSlot | undefined;

  /** @param shape - how many slots of this position learned a shape before this one */
  constructor(
    private readonly depth: number,
    private readonly copying: boolean,
    private readonly shape = 0,
  ) {
    this.run = depth < MAX_SLOT_DEPTH ? (v) => this.learn(v) : (v) => this.generic(v);
  }

  /**
   * Called by the compiled `run` for an object of another shape: the next shape's slot takes it (the
   * generic code after the last). A shape that misses more often than it hits stops being tried (one of
   * several alternating shapes: when it hits less than a quarter as often as it misses).
   */
  miss(v: object): unknown {
    const other = this.other ?? (this.shape + 1 < MAX_SHAPES ? (this.other = new ShapeSlot(this.depth, this.copying, this.shape + 1)) : undefined);
    if (++this.misses > SHAPE_TRIAL && (other ? this.hits * MAX_SHAPES : this.hits) < this.misses)
      this.run = other ? (x) => other.run(x) : (x) => this.generic(x);
    return other ? other.run(v) : this.generic(v);
  }

  /** Compiles `run` for the key list of the first plain object, or for arrays if an array comes first. */
  private learn(v: object): unknown {
    if (Array.isArray(v)) {
      if (Object.getPrototypeOf(v) !== Array.prototype) return this.generic(v);
      this.run = compileArray(this, new ShapeSlot(this.depth + 1, this.copying), this.copying);
      return this.run(v);
    }
    if (Object.getPrototypeOf(v) !== Object.prototype) return this.generic(v);
    const keys = keysOf(v);
    if (keys === undefined) {
      this.run = (x) => this.generic(x);
      return this.generic(v);
    }
    const slots = keys.map(() => new ShapeSlot(this.depth + 1, this.copying));
    this.run = this.copying ? compileCopy(this, keys, slots) : compileCheck(this, keys, slots);
    return this.run(v);
  }

  /** The copy or check of `v` without a learned shape: the generic code, at this slot's depth. */
  private generic(v: object): unknown {
    return this.copying ? copyObject(v, this.depth) : checkObject(v, this.depth);
  }
}

/**
 * {@link copyPlainData} for one stream of similar values (the values of one
 * state, the records of one output): copies the shapes the values have with
 * compiled object literals (see {@link ShapeSlot}), several times faster than
 * the generic copy; other values take the generic copy. The result is the same
 * deep copy, and the same errors (except that a compiled copy leaves out
 * symbol-keyed properties, which are not plain data and which no checkpoint
 * keeps).
 *
 * @example
 * ```ts
 * const copier = new PlainDataCopier();
 * const a = copier.copy({ count: 1, tags: [{ x: 1 }] }); // learns the keys count, tags, and x in tags
 * const b = copier.copy(a);                              // compiled copy; b.tags[0] !== a.tags[0]
 * ```
 */
export class PlainDataCopier {
  private readonly root = new ShapeSlot(0, true);

  /** @throws PlainDataError naming the path and what is not plain data there */
  copy<T>(value: T): T {
    if (typeof value !== "object" || value === null) return copyPlainData(value);
    try {
      return this.root.run(value) as T;
    } catch (e) {
      if (e === NOT_PLAIN) refuse(value);
      throw e;
    }
  }
}

/**
 * {@link checkPlainData} for one stream of similar values (the records of one
 * output): checks the shapes the values have with compiled code (see
 * {@link ShapeSlot}), other values with the generic check; the same
 * {@link PlainDataError} for what is not plain data.
 *
 * @example
 * ```ts
 * const checker = new PlainDataChecker();
 * checker.check({ type: 2, bid: { price: 5 } }); // learns the keys type, bid, and price in bid
 * checker.check({ type: 2, bid: { price: () => 5 } }); // throws PlainDataError: contains a function at .bid.price
 * ```
 */
export class PlainDataChecker {
  private readonly root = new ShapeSlot(0, false);

  /** @throws PlainDataError naming the path and what is not plain data there */
  check(value: unknown): void {
    if (typeof value !== "object" || value === null) {
      if (typeof value === "function" || typeof value === "symbol") refuse(value);
      return;
    }
    try {
      this.root.run(value);
    } catch (e) {
      if (e === NOT_PLAIN) refuse(value);
      throw e;
    }
  }
}
