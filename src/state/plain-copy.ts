/**
 * Deep copy of plain data: what keyed state stores and what records are made
 * of. Values that are not plain data (see {@link findNonPlainData}) are
 * refused with a {@link PlainDataError} that names the path and what was found.
 *
 * It is the mechanism of Weir's object semantics: state holds its own copies,
 * so no reference kept or mutated by user code can change a stored value or a
 * pending snapshot; records copied at a fan-out reach each consumer as its own.
 */

import { findNonPlainData, type PlainDataViolation } from "./plain-data.ts";

/** Nesting depth beyond which a value is taken for circular (then checked exactly). */
const MAX_DEPTH = 1000;

/** Thrown by {@link copyPlainData}: where the value stops being plain data. */
export class PlainDataError extends Error {
  constructor(readonly violation: PlainDataViolation) {
    super(violation.path === "" ? `is ${violation.what}` : `contains ${violation.what} at ${violation.path}`);
    this.name = "PlainDataError";
  }
}

/** Thrown inside the fast copy when the value needs the exact (slow) check. */
const NOT_PLAIN = new Error("weir: not plain data");

function notPlain(): never {
  throw NOT_PLAIN;
}

function copyObject(v: object, depth: number): unknown {
  if (depth > MAX_DEPTH) notPlain();
  const proto = Object.getPrototypeOf(v) as unknown;
  if (proto === Object.prototype) {
    // Spread then fix up nested objects: much faster than building key by key.
    const o = { ...(v as Record<string, unknown>) };
    for (const k in o) {
      const x = o[k];
      if (typeof x === "object") {
        if (x !== null) o[k] = copyObject(x, depth + 1);
      } else if (typeof x === "function" || typeof x === "symbol") notPlain();
    }
    return o;
  }
  if (proto === Array.prototype) {
    const a = (v as unknown[]).slice();
    for (let i = 0; i < a.length; i++) {
      const x = a[i];
      if (typeof x === "object") {
        if (x !== null) a[i] = copyObject(x, depth + 1);
      } else if (typeof x === "function" || typeof x === "symbol") notPlain();
    }
    return a;
  }
  if (proto === Map.prototype) {
    const m = new Map<unknown, unknown>();
    for (const [k, x] of v as Map<unknown, unknown>) m.set(copyAny(k, depth + 1), copyAny(x, depth + 1));
    return m;
  }
  if (proto === Set.prototype) {
    const s = new Set<unknown>();
    for (const x of v as Set<unknown>) s.add(copyAny(x, depth + 1));
    return s;
  }
  if (proto === Date.prototype) return new Date((v as Date).getTime());
  if (proto === Uint8Array.prototype) return new Uint8Array(v as Uint8Array);
  if (Buffer.isBuffer(v)) return Buffer.from(v);
  if (proto === null) {
    const o = Object.create(null) as Record<string, unknown>;
    for (const k in v) o[k] = copyAny((v as Record<string, unknown>)[k], depth + 1);
    return o;
  }
  return notPlain(); // a class instance: the exact check names it
}

function copyAny(x: unknown, depth: number): unknown {
  return typeof x === "object" ? (x === null ? x : copyObject(x, depth)) : typeof x === "function" || typeof x === "symbol" ? notPlain() : x;
}

function refuse(value: unknown): never {
  const bad = findNonPlainData(value, new Set());
  throw new PlainDataError(bad ?? { path: "", what: `a circular structure (or one nested more than ${MAX_DEPTH} levels deep)` });
}

/**
 * A deep copy of `value` that shares no object with it. Primitives are
 * returned as they are. Functions, symbols, class instances and circular
 * structures are refused (plain data is a tree), so a copy never silently
 * drops or changes a part of the value.
 *
 * @throws PlainDataError naming the path and what is not plain data there
 * @example
 * ```ts
 * const a = { n: 1, tags: ["x"] };
 * const b = copyPlainData(a);
 * b.tags.push("y"); // a.tags is still ["x"]
 * copyPlainData({ f: () => 1 }); // throws PlainDataError: contains a function at .f
 * ```
 */
export function copyPlainData<T>(value: T): T {
  if (typeof value !== "object" || value === null) {
    if (typeof value === "function" || typeof value === "symbol") refuse(value);
    return value;
  }
  let copy: unknown;
  try {
    copy = copyObject(value, 0);
  } catch (e) {
    if (e === NOT_PLAIN) refuse(value);
    throw e;
  }
  return copy as T;
}

/** Copies a plain object with one known key list: a compiled object literal (see {@link compileShape}). */
type ShapeCopy = (v: object, nested: (x: object) => unknown, bad: () => never) => object;

/** A key list of plain objects and the compiled copy of objects that have exactly these keys. */
interface Shape {
  readonly keys: readonly string[];
  readonly copy: ShapeCopy;
}

/** Objects with more keys than this are not compiled (dictionaries rather than records). */
const MAX_SHAPE_KEYS = 32;
/** Copies after which a copier whose shape misses more often than it hits stops trying it. */
const SHAPE_TRIAL = 64;

const copyNested = (x: object): unknown => copyObject(x, 1);

/** True when `for…in` over `v` gives exactly `keys`, in order (so a copy with these keys is complete). */
function hasKeys(v: object, keys: readonly string[]): boolean {
  let i = 0;
  for (const k in v) {
    if (k !== keys[i]) return false;
    i++;
  }
  return i === keys.length;
}

/**
 * The shape of `v` if worth compiling: a plain object with at most
 * `MAX_SHAPE_KEYS` keys, none of them `__proto__` (which an object literal
 * would take for the prototype).
 */
function shapeOf(v: object): Shape | undefined {
  if (Object.getPrototypeOf(v) !== Object.prototype) return undefined;
  const keys: string[] = [];
  for (const k in v) {
    if (k === "__proto__" || keys.length === MAX_SHAPE_KEYS) return undefined;
    keys.push(k);
  }
  return { keys, copy: compileShape(keys) };
}

/**
 * `(v, nested, bad) => ({ k1: …, k2: … })` for `keys`: reads each key once,
 * copies object values with `nested`, calls `bad` for a function or a symbol
 * and keeps other values. Keys enter the source only as JSON string literals.
 */
function compileShape(keys: readonly string[]): ShapeCopy {
  const reads = keys.map((k, i) => `const x${i} = v[${JSON.stringify(k)}];`).join("\n");
  const fields = keys.map(
    (k, i) =>
      `${JSON.stringify(k)}: typeof x${i} === "object" ? (x${i} === null ? null : nested(x${i})) : typeof x${i} === "function" || typeof x${i} === "symbol" ? bad() : x${i}`,
  );
  return new Function("v", "nested", "bad", `"use strict";\n${reads}\nreturn {\n${fields.join(",\n")}\n};`) as ShapeCopy;
}

/**
 * {@link copyPlainData} for one stream of similar values (the values of one
 * state): it remembers the key list of the first plain object it copies and
 * copies later objects with exactly these keys, in the same order, with a
 * compiled object literal — several times faster than a generic copy. Other
 * values take the generic copy; a copier whose key list keeps missing stops
 * trying it. The result is the same deep copy, and the same errors (except
 * that a compiled copy leaves out symbol-keyed properties, which are not
 * plain data and which no checkpoint keeps).
 *
 * @example
 * ```ts
 * const copier = new PlainDataCopier();
 * const a = copier.copy({ count: 1, tags: ["x"] }); // learns the keys count, tags
 * const b = copier.copy(a);                         // compiled copy; b.tags !== a.tags
 * ```
 */
export class PlainDataCopier {
  private shape: Shape | undefined;
  private learned = false;
  private hits = 0;
  private misses = 0;

  /** @throws PlainDataError naming the path and what is not plain data there */
  copy<T>(value: T): T {
    if (typeof value !== "object" || value === null) return copyPlainData(value);
    let copy: unknown;
    try {
      copy = this.copyObject(value);
    } catch (e) {
      if (e === NOT_PLAIN) refuse(value);
      throw e;
    }
    return copy as T;
  }

  private copyObject(v: object): unknown {
    const shape = this.shape;
    if (shape !== undefined) {
      if (Object.getPrototypeOf(v) === Object.prototype && hasKeys(v, shape.keys)) {
        this.hits++;
        return shape.copy(v, copyNested, notPlain);
      }
      if (++this.misses > SHAPE_TRIAL && this.misses > this.hits) this.shape = undefined;
    } else if (!this.learned) {
      this.learned = true;
      const learnt = shapeOf(v);
      if (learnt !== undefined) {
        this.shape = learnt;
        return learnt.copy(v, copyNested, notPlain);
      }
    }
    return copyObject(v, 0);
  }
}

function checkObject(v: object, depth: number): void {
  if (depth > MAX_DEPTH) notPlain();
  const proto = Object.getPrototypeOf(v) as unknown;
  if (proto === Object.prototype || proto === null) {
    for (const k in v) checkAny((v as Record<string, unknown>)[k], depth + 1);
  } else if (proto === Array.prototype) {
    const a = v as unknown[];
    for (let i = 0; i < a.length; i++) checkAny(a[i], depth + 1);
  } else if (proto === Map.prototype) {
    for (const [k, x] of v as Map<unknown, unknown>) {
      checkAny(k, depth + 1);
      checkAny(x, depth + 1);
    }
  } else if (proto === Set.prototype) {
    for (const x of v as Set<unknown>) checkAny(x, depth + 1);
  } else if (proto !== Date.prototype && proto !== Uint8Array.prototype && !Buffer.isBuffer(v)) notPlain();
}

function checkAny(x: unknown, depth: number): void {
  if (typeof x === "object") {
    if (x !== null) checkObject(x, depth);
  } else if (typeof x === "function" || typeof x === "symbol") notPlain();
}

/**
 * Checks, without copying, that `value` is plain data as {@link copyPlainData}
 * defines it (a tree: no cycles, no functions, symbols or class instances).
 *
 * @throws PlainDataError naming the path and what is not plain data there
 * @example
 * ```ts
 * checkPlainData({ a: [1, new Map()] }); // fine
 * checkPlainData({ a: new Error("x") });  // throws: contains an instance of class Error at .a
 * ```
 */
export function checkPlainData(value: unknown): void {
  try {
    checkAny(value, 0);
  } catch (e) {
    if (e === NOT_PLAIN) refuse(value);
    throw e;
  }
}
