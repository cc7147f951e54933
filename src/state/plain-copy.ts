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

/**
 * Thrown inside a fast copy or check when the value needs the exact (slow)
 * check: catch it at the root and call {@link refuse}.
 *
 * @internal for plain-shapes.ts
 * @example
 * ```ts
 * try { copyObject(v, 0); } catch (e) { if (e === NOT_PLAIN) refuse(v); throw e; }
 * ```
 */
export const NOT_PLAIN = new Error("weir: not plain data");

/**
 * Throws {@link NOT_PLAIN}.
 *
 * @internal for plain-shapes.ts
 * @example
 * ```ts
 * if (typeof x === "function") notPlain();
 * ```
 */
export function notPlain(): never {
  throw NOT_PLAIN;
}

/**
 * The generic deep copy of an object at nesting `depth` of the root (0 for the
 * root): throws {@link NOT_PLAIN} for what is not plain data, or nested
 * deeper than `MAX_DEPTH` (taken for a cycle).
 *
 * @internal for plain-shapes.ts
 * @example
 * ```ts
 * copyObject({ a: [1] }, 0); // { a: [1] }, a new object and array
 * ```
 */
export function copyObject(v: object, depth: number): unknown {
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

/**
 * Throws the {@link PlainDataError} for `value`, whose fast copy or check threw
 * {@link NOT_PLAIN}: the exact check finds the path and what is there.
 *
 * @internal for plain-shapes.ts
 * @example
 * ```ts
 * refuse({ f: () => 1 }); // throws PlainDataError: contains a function at .f
 * ```
 */
export function refuse(value: unknown): never {
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

/**
 * The generic check of an object at nesting `depth` of the root, like
 * {@link copyObject} without copying.
 *
 * @internal for plain-shapes.ts
 * @example
 * ```ts
 * checkObject({ a: new Map() }, 0); // returns; throws NOT_PLAIN for { a: () => 1 }
 * ```
 */
export function checkObject(v: object, depth: number): void {
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
