/**
 * The check that a state value is plain data (what msgpack round-trips
 * faithfully): null, undefined, booleans, numbers, strings, bigints, arrays,
 * plain objects, Map, Set, Date, Uint8Array — nested, cycles allowed.
 */

/** Where a value stops being plain data, and what was found there. */
export interface PlainDataViolation {
  /** Path from the root, e.g. `.items[2].cb` (`""` for the root itself). */
  readonly path: string;
  /** What was found, e.g. `"a function"`, `"an instance of class Order"`. */
  readonly what: string;
}

function describeObject(v: object): string {
  const proto = Object.getPrototypeOf(v) as { constructor?: { name?: string } } | null;
  const name = proto?.constructor?.name;
  return name ? `an instance of class ${name}` : "an object with an unusual prototype";
}

function isPlainObject(v: object): boolean {
  const proto = Object.getPrototypeOf(v) as unknown;
  return proto === Object.prototype || proto === null;
}

function isBytes(v: object): boolean {
  return Object.getPrototypeOf(v) === Uint8Array.prototype || Buffer.isBuffer(v);
}

function propPath(path: string, key: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;
}

/**
 * Finds the first part of `value` that is not plain data, or undefined when all
 * of it is. `seen` holds objects already checked (pass one set for many values
 * to check shared objects once; it also stops cycles).
 *
 * @example
 * ```ts
 * findNonPlainData({ f: () => 1 }, new Set()); // { path: ".f", what: "a function" }
 * ```
 */
export function findNonPlainData(value: unknown, seen: Set<object>, path = ""): PlainDataViolation | undefined {
  switch (typeof value) {
    case "undefined":
    case "boolean":
    case "number":
    case "string":
    case "bigint":
      return undefined;
    case "function":
      return { path, what: "a function" };
    case "symbol":
      return { path, what: "a symbol" };
  }
  if (value === null) return undefined;
  const obj = value as object;
  if (seen.has(obj)) return undefined;
  seen.add(obj);
  if (Array.isArray(obj)) {
    if (Object.getPrototypeOf(obj) !== Array.prototype) return { path, what: describeObject(obj) };
    for (let i = 0; i < obj.length; i++) {
      const bad = findNonPlainData(obj[i], seen, `${path}[${i}]`);
      if (bad) return bad;
    }
    return undefined;
  }
  if (isPlainObject(obj)) {
    if (Object.getOwnPropertySymbols(obj).length > 0) return { path, what: "an object with symbol-keyed properties" };
    for (const k in obj) {
      const bad = findNonPlainData((obj as Record<string, unknown>)[k], seen, propPath(path, k));
      if (bad) return bad;
    }
    return undefined;
  }
  if (obj instanceof Map && Object.getPrototypeOf(obj) === Map.prototype) {
    let i = 0;
    for (const [k, v] of obj) {
      const bad = findNonPlainData(k, seen, `${path}<map key #${i}>`) ?? findNonPlainData(v, seen, `${path}<map value #${i}>`);
      if (bad) return bad;
      i++;
    }
    return undefined;
  }
  if (obj instanceof Set && Object.getPrototypeOf(obj) === Set.prototype) {
    let i = 0;
    for (const v of obj) {
      const bad = findNonPlainData(v, seen, `${path}<set element #${i}>`);
      if (bad) return bad;
      i++;
    }
    return undefined;
  }
  if (Object.getPrototypeOf(obj) === Date.prototype || isBytes(obj)) return undefined;
  return { path, what: describeObject(obj) };
}
