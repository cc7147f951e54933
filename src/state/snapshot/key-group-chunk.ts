/**
 * The encoding of one key group of one state in a snapshot: a msgpack pair
 * `[keys, values]` of two columns of equal length. A column whose elements
 * are all int32 numbers is an `Int32Array`, one of other numbers a
 * `Float64Array` (both written by msgpackr as typed arrays, in little-endian
 * byte order); a column of plain objects that all have the same keys in the
 * same order (records, the usual state value) is a record column
 * `{ fields, columns }` with one such column per field; any other column is
 * an array of the state keys or values (msgpack with structured-clone
 * extensions). A running count keyed by numbers thus takes 8 bytes an entry
 * and encodes at memory speed, and an aggregate `{count, sum, min, max}`
 * about three times faster than as msgpack objects (and restores faster).
 */

import { StateRestoreError } from "../errors.ts";
import { decodeStateValue, packPlainDataCopy } from "../serializer.ts";
import type { StateKey } from "../state-key.ts";

/** Typed columns are written only where they read back the same everywhere (msgpackr writes the platform's byte order). */
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** A decoded column: the state keys or values of a key group, in order. */
export type Column<T> = ArrayLike<T>;

/** A column of plain objects with the same keys: one column per field. */
interface RecordColumn {
  readonly fields: readonly string[];
  readonly columns: readonly (Int32Array | Float64Array | unknown[])[];
}

/** Objects with more keys than this are not written as records (dictionaries rather than records). */
const MAX_RECORD_FIELDS = 64;

/** The compiled conversions of one field list between records and field columns. */
interface RecordCodec {
  /** `items` → one array per field; undefined when one of them is not a plain object with exactly these fields, in order. */
  readonly split: (items: readonly unknown[]) => unknown[][] | undefined;
  /** Field columns → `n` records (an object literal each, fields in order). */
  readonly join: (columns: readonly ArrayLike<unknown>[], n: number) => Record<string, unknown>[];
}

/** Compiled codecs by field list (as JSON); cleared when full. */
const codecs = new Map<string, RecordCodec>();
const MAX_CODECS = 256;

/**
 * The {@link RecordCodec} of `fields`, compiled so that each field is a
 * named (monomorphic) load or an object-literal property rather than a keyed
 * access. Fields enter the source only as JSON string literals.
 */
function codecOf(fields: readonly string[]): RecordCodec {
  const id = JSON.stringify(fields);
  let codec = codecs.get(id);
  if (codec === undefined) {
    const names = fields.map((name) => JSON.stringify(name));
    const cols = fields.map((_, f) => `c${f}`).join(", ");
    // One pass, each object read once: checking its keys with for…in (the same walk as hasKeys in plain-copy.ts), then loading them.
    const split = `"use strict";
const n = items.length;
${fields.map((_, f) => `const c${f} = new Array(n);`).join("\n")}
for (let i = 0; i < n; i++) {
  const v = items[i];
  if (typeof v !== "object" || v === null || Object.getPrototypeOf(v) !== Object.prototype) return undefined;
  let k = 0;
  for (const key in v) {
    switch (k++) {
      ${names.map((name, f) => `case ${f}: if (key !== ${name}) return undefined; break;`).join("\n      ")}
      default: return undefined;
    }
  }
  if (k !== ${fields.length}) return undefined;
  ${names.map((name, f) => `c${f}[i] = v[${name}];`).join("\n  ")}
}
return [${cols}];`;
    const join = `"use strict";
const [${cols}] = columns;
const out = new Array(n);
for (let i = 0; i < n; i++) out[i] = { ${names.map((name, f) => `${name}: c${f}[i]`).join(", ")} };
return out;`;
    codec = { split: new Function("items", split) as RecordCodec["split"], join: new Function("columns", "n", join) as RecordCodec["join"] };
    if (codecs.size >= MAX_CODECS) codecs.clear();
    codecs.set(id, codec);
  }
  return codec;
}

/**
 * The numbers of `items` as an `Int32Array` when all are int32 (`-0` is
 * not), a `Float64Array` when all are numbers, else undefined.
 */
function numberColumn(items: readonly unknown[]): Int32Array | Float64Array | undefined {
  if (!LITTLE_ENDIAN) return undefined;
  const n = items.length;
  const ints = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const x = items[i];
    if (typeof x !== "number") return undefined;
    if ((x | 0) !== x || (x === 0 && 1 / x < 0)) {
      const floats = new Float64Array(n);
      floats.set(ints.subarray(0, i));
      for (; i < n; i++) {
        const y = items[i];
        if (typeof y !== "number") return undefined;
        floats[i] = y;
      }
      return floats;
    }
    ints[i] = x;
  }
  return ints;
}

/** `items` as a {@link RecordColumn} when all are plain objects with the keys of the first, in the same order; else undefined. */
function recordColumn(items: readonly unknown[]): RecordColumn | undefined {
  const first = items[0];
  // an array is no record (not a plain object): decided before its indices are enumerated as fields
  if (typeof first !== "object" || first === null || Array.isArray(first)) return undefined;
  const fields: string[] = [];
  for (const k in first) {
    if (k === "__proto__" || fields.length === MAX_RECORD_FIELDS) return undefined; // rebuilding would set the prototype
    fields.push(k);
  }
  if (fields.length === 0) return undefined;
  const split = codecOf(fields).split(items);
  return split && { fields, columns: split.map((column) => numberColumn(column) ?? column) };
}

/** The objects of a record column back (fields in their order, so `for…in` gives the same order). */
function objectsOf(records: RecordColumn, n: number): Record<string, unknown>[] {
  return codecOf(records.fields).join(records.columns, n);
}

/**
 * Encodes the entries of one key group, given as key and value columns
 * (values already checked to be plain data when they entered state), into
 * a buffer of its own.
 *
 * @example
 * ```ts
 * const bytes = encodeKeyGroupChunk([1, 2], [10, 20]); // two Int32Array columns
 * decodeKeyGroupChunk(bytes, "op", "count");           // [Int32Array [1, 2], Int32Array [10, 20]]
 * ```
 */
export function encodeKeyGroupChunk(keys: readonly StateKey[], values: readonly unknown[]): Uint8Array {
  const chunk = [numberColumn(keys) ?? keys, numberColumn(values) ?? recordColumn(values) ?? values];
  // A copy of its own: chunks are kept across snapshots.
  return packPlainDataCopy(chunk);
}

/** The entries of a key group as {@link encodeKeyGroupEntries} reads them (a heap `KeyTable`). */
export interface KeyGroupEntries {
  /** Keys and values, in the same order. */
  columns(): [keys: StateKey[], values: unknown[]];
  /** The same columns as number arrays when every key and value is a number, else undefined. */
  numberColumns(): [keys: Int32Array | Float64Array, values: Int32Array | Float64Array] | undefined;
}

/**
 * Encodes a key group like {@link encodeKeyGroupChunk} (the same bytes), and
 * when all its keys and values are numbers without boxing them into arrays
 * first: their number columns are framed as msgpack directly (msgpackr's
 * typed-array extension), two copies of 4 or 8 bytes an entry in all.
 *
 * @example
 * ```ts
 * const t = new KeyTable<number>();
 * t.set(1, hashCodeOfStateKey(1), 10);
 * encodeKeyGroupEntries(t); // the bytes of encodeKeyGroupChunk([1], [10])
 * ```
 */
export function encodeKeyGroupEntries(entries: KeyGroupEntries): Uint8Array {
  const numbers = LITTLE_ENDIAN ? entries.numberColumns() : undefined;
  if (numbers === undefined) {
    const [keys, values] = entries.columns();
    return encodeKeyGroupChunk(keys, values);
  }
  const [keys, values] = numbers;
  const out = new Uint8Array(1 + typedArrayBytes(keys) + typedArrayBytes(values));
  out[0] = 0x92; // an array of two
  writeTypedArray(out, writeTypedArray(out, 1, keys), values);
  return out;
}

/** msgpackr's type byte of a typed array within its "t" extension. */
const INT32_ARRAY = 5;
const FLOAT64_ARRAY = 8;

/** Bytes msgpackr writes for `a`: the smallest ext header that holds it, "t", its type byte, its bytes. */
function typedArrayBytes(a: Int32Array | Float64Array): number {
  const length = a.byteLength + 1;
  return (length < 0x100 ? 3 : length < 0x10000 ? 4 : 6) + length;
}

/** Writes `a` at `at` in msgpackr's typed-array extension; returns the position after it. */
function writeTypedArray(out: Uint8Array, at: number, a: Int32Array | Float64Array): number {
  const length = a.byteLength + 1; // with the type byte
  if (length < 0x100) {
    out[at++] = 0xc7;
    out[at++] = length;
  } else if (length < 0x10000) {
    out[at++] = 0xc8;
    out[at++] = length >> 8;
    out[at++] = length & 0xff;
  } else {
    out[at++] = 0xc9;
    new DataView(out.buffer, out.byteOffset).setUint32(at, length);
    at += 4;
  }
  out[at++] = 0x74; // "t"
  out[at++] = a instanceof Int32Array ? INT32_ARRAY : FLOAT64_ARRAY;
  out.set(new Uint8Array(a.buffer, a.byteOffset, a.byteLength), at);
  return at + a.byteLength;
}

/**
 * Decodes a chunk written by {@link encodeKeyGroupChunk} into its key and value columns.
 *
 * @throws StateRestoreError naming the operator and state when the chunk is malformed
 */
export function decodeKeyGroupChunk(bytes: Uint8Array, operatorUid: string, stateName: string): [Column<StateKey>, Column<unknown>] {
  let decoded: unknown;
  try {
    decoded = decodeStateValue(bytes);
  } catch (e) {
    throw new StateRestoreError(operatorUid, `a key group of state '${stateName}' is not valid msgpack (${(e as Error).message})`);
  }
  const [keys, rawValues] = Array.isArray(decoded) && decoded.length === 2 ? (decoded as [unknown, unknown]) : [undefined, undefined];
  const records = isRecordColumn(rawValues) ? rawValues : undefined;
  const values = records ? objectsOf(records, records.columns[0]!.length) : rawValues;
  if (!isColumn(keys) || !isColumn(values) || keys.length !== values.length) {
    throw new StateRestoreError(operatorUid, `a key group of state '${stateName}' is malformed (two columns of equal length expected)`);
  }
  if (!LITTLE_ENDIAN && [keys, ...(records ? records.columns : [rawValues])].some((c) => ArrayBuffer.isView(c))) {
    throw new StateRestoreError(operatorUid, `state '${stateName}' has number columns in little-endian order, which this big-endian machine cannot read`);
  }
  return [keys as Column<StateKey>, values];
}

/** A record column with at least one field, all of one length. */
function isRecordColumn(c: unknown): c is RecordColumn {
  if (typeof c !== "object" || c === null || Array.isArray(c) || ArrayBuffer.isView(c)) return false;
  const { fields, columns } = c as Partial<RecordColumn>;
  return (
    Array.isArray(fields) &&
    Array.isArray(columns) &&
    fields.length > 0 &&
    fields.length <= MAX_RECORD_FIELDS &&
    fields.length === columns.length &&
    fields.every((f) => typeof f === "string" && f !== "__proto__") &&
    columns.every((col) => isColumn(col) && col.length === columns[0]!.length)
  );
}

function isColumn(c: unknown): c is Column<unknown> {
  return Array.isArray(c) || c instanceof Int32Array || c instanceof Float64Array;
}
