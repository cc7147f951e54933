/**
 * The encoding of the batches of one channel between two threads (see
 * `RemoteLink`): an encoder at the producer, a decoder at the consumer, both
 * sequential (batch n can only be decoded after batch n − 1).
 *
 * Most records are numbers, strings and objects of a few shapes (the same keys
 * in the same order, every record of a stream) whose values are again of that
 * kind. Such a batch is written in a compact form of its own: each record
 * shape is defined once per channel (its keys, at its first record) and then
 * only named by its index, so a record costs a type byte and the bytes of each
 * value; an ASCII string is copied byte for byte and read back with one native
 * call; the encoder writes the objects of a shape with a function compiled
 * for it (its keys compared, its values read by name), and the decoder builds
 * them with one object literal per shape (compiled once), so every record of a
 * shape gets the same hidden class. A
 * batch with anything else (a bigint, a Uint8Array, a Map, a Set, a Date, an
 * object with an unusual prototype or unusual keys, deep nesting) is encoded
 * whole with msgpackr (records mode, sequential structures), as every batch was
 * before. The first byte of a batch says which form follows.
 *
 * The encoder refuses a batch with a record that is not plain data (the
 * record contract: `checkPlainData`'s `PlainDataError`), so whoever sends
 * through it need not check the records first: the compact form takes nothing
 * but plain data (numbers, strings, booleans, `undefined`, `null`, plain
 * arrays and objects, nested at most 32 deep), and a batch that falls back to
 * msgpackr is checked record by record before.
 *
 * Both forms decode to the values that were encoded: new objects and arrays
 * (a record that crosses threads is a copy), `undefined` and `null` kept apart,
 * object keys in their order; -0 and lone surrogates in strings are kept in the
 * compact form (msgpackr gives 0 for -0 and may replace a lone surrogate, as before).
 *
 * @example
 * ```ts
 * const encoder = new BatchEncoder();
 * const decoder = new BatchDecoder();
 * const bytes = encoder.encode([{ id: 1, name: "a" }, { id: 2, name: "b" }], undefined);
 * decoder.decode(bytes, bytes.length); // { values: [{ id: 1, name: "a" }, { id: 2, name: "b" }], timestamps: undefined }
 * ```
 */
import { Packr, RESET_BUFFER_MODE, Unpackr } from "msgpackr";
import { checkPlainData } from "../../state/plain-copy.ts";

/** First byte of a batch. */
const MSGPACK = 0;
const MSGPACK_WITH_TIMESTAMPS = 1;
const COMPACT = 2;
/** The compact form, then the records' timestamps: a little-endian float64 each. */
const COMPACT_WITH_TIMESTAMPS = 3;

/** Type bytes of the compact form. */
const UNDEFINED = 0;
const NULL = 1;
const FALSE = 2;
const TRUE = 3;
/** An int32 (not -0), 4 bytes little-endian. */
const INT32 = 4;
/** Any other number, 8 bytes little-endian. */
const FLOAT64 = 5;
/** A string of ASCII characters: uint32 length, then one byte per character. */
const ASCII = 6;
/** Any other string: uint32 byte length, then its UTF-16 code units (little-endian: lone surrogates kept, unlike UTF-8). */
const UTF16 = 7;
/** An array: uint32 length, then its elements. */
const ARRAY = 8;
/** An object of a defined shape: uint16 shape index, then its values in the shape's key order. */
const OBJECT = 9;
/** Defines the next shape (index = shapes defined so far): uint16 key count, the keys as strings; then an object of it follows. */
const SHAPE = 10;

/** Shapes per channel; records of further shapes go with msgpackr. */
const MAX_SHAPES = 1024;
/** Keys of a shape; objects with more go with msgpackr. */
const MAX_KEYS = 256;
/** Nesting of arrays and objects in a record; deeper records (or cycles) go with msgpackr. */
const MAX_DEPTH = 32;
/** ASCII strings up to this length are written by a loop here; longer ones by Buffer's native writer. */
const SHORT_STRING = 32;
/** Keys the decoder can build with an object literal (`__proto__` would set the prototype). */
const PLAIN_KEY = /^[A-Za-z_$][\w$]*$/;

/**
 * Fresh options for each msgpackr encoder or decoder: msgpackr keeps its record-structure
 * table in the options object it is given, so a shared object would make every
 * channel of the thread share (and corrupt) one table. `copyBuffers`: a decoded
 * `Uint8Array` must not be a view of the buffer it was decoded from (reused).
 */
const msgpackOptions = () => ({ sequential: true, useRecords: true, moreTypes: true, copyBuffers: true });

/** Buffer's native string methods (what `write` and `toString` call, without their argument handling; msgpackr uses them too). */
type Bytes = Buffer & {
  utf8Write(s: string, offset: number): number;
  ucs2Write(s: string, offset: number): number;
  latin1Slice(start: number, end: number): string;
  ucs2Slice(start: number, end: number): string;
};

/** Thrown inside the encoder when a batch cannot take the compact form. */
const NOT_COMPACT = new Error("not compact");

/**
 * Encodes the batches of one channel; the bytes returned are valid until the next `encode`.
 * A batch with a record that is not plain data is refused (`PlainDataError`) and leaves the encoder as it was.
 */
export class BatchEncoder {
  private buf = Buffer.allocUnsafe(1 << 16) as Bytes;
  private view = new DataView(this.buf.buffer, this.buf.byteOffset, this.buf.length);
  private pos = 0;
  /** Keys of each defined shape, by index. */
  private readonly shapes: string[][] = [];
  /** The compiled writer of each defined shape, by index (see {@link compileWriter}). */
  private readonly writers: ShapeWriter[] = [];
  /** The shape of the last object written at each nesting depth (records of a stream mostly repeat it). */
  private readonly lastShape: number[] = [];
  private readonly packr = new Packr(msgpackOptions());

  encode(values: readonly unknown[], timestamps: readonly number[] | undefined): Uint8Array {
    const shapesBefore = this.shapes.length;
    try {
      this.pos = 0;
      this.reserve(5);
      this.buf[0] = timestamps ? COMPACT_WITH_TIMESTAMPS : COMPACT;
      this.view.setUint32(1, values.length, true);
      this.pos = 5;
      for (let i = 0; i < values.length; i++) this.value(values[i], 0);
      if (timestamps) {
        // one float64 each, after the records (no type bytes)
        this.reserve(8 * values.length);
        const view = this.view;
        let at = this.pos;
        for (let i = 0; i < values.length; i++, at += 8) view.setFloat64(at, timestamps[i]!, true);
        this.pos = at;
      }
      return this.buf.subarray(0, this.pos);
    } catch (e) {
      if (e !== NOT_COMPACT) throw e;
      // the decoder never sees the shapes of this attempt
      this.shapes.length = shapesBefore;
      this.writers.length = shapesBefore;
      this.lastShape.length = 0;
    }
    // the compact form took plain data only; msgpackr would take a class instance for a plain object
    for (let i = 0; i < values.length; i++) checkPlainData(values[i]);
    // RESET_BUFFER_MODE: msgpackr's buffer is reused by the next batch (the link copies the bytes before that).
    const packed = this.packr.pack(timestamps ? [values, timestamps] : values, RESET_BUFFER_MODE);
    this.reserve(packed.length + 1);
    this.buf[0] = timestamps ? MSGPACK_WITH_TIMESTAMPS : MSGPACK;
    this.buf.set(packed, 1);
    return this.buf.subarray(0, packed.length + 1);
  }

  /** @internal Writes any value (called by the compiled shape writers). */
  value(v: unknown, depth: number): void {
    switch (typeof v) {
      case "number":
        return this.number(v);
      case "string":
        return this.string(v);
      case "boolean":
        return this.byte(v ? TRUE : FALSE);
      case "undefined":
        return this.byte(UNDEFINED);
      case "object":
        if (v === null) return this.byte(NULL);
        if (depth >= MAX_DEPTH) throw NOT_COMPACT;
        if (Array.isArray(v)) {
          if (Object.getPrototypeOf(v) !== Array.prototype) throw NOT_COMPACT;
          return this.array(v, depth + 1);
        }
        if (Object.getPrototypeOf(v) !== Object.prototype) throw NOT_COMPACT;
        return this.object(v as Record<string, unknown>, depth + 1);
      default:
        throw NOT_COMPACT;
    }
  }

  /** @internal Writes a number (called by the compiled shape writers). */
  number(v: number): void {
    this.reserve(9);
    if ((v | 0) === v && (v !== 0 || 1 / v > 0)) {
      this.buf[this.pos] = INT32;
      this.view.setInt32(this.pos + 1, v, true);
      this.pos += 5;
    } else {
      this.buf[this.pos] = FLOAT64;
      this.view.setFloat64(this.pos + 1, v, true);
      this.pos += 9;
    }
  }

  /** @internal Writes a string (called by the compiled shape writers). */
  string(s: string): void {
    const n = s.length;
    this.reserve(5 + 3 * n);
    const buf = this.buf;
    const start = this.pos + 5;
    if (n <= SHORT_STRING) {
      let i = 0;
      for (; i < n; i++) {
        const c = s.charCodeAt(i);
        if (c >= 0x80) break;
        buf[start + i] = c;
      }
      if (i === n) return this.stringHeader(ASCII, n);
    }
    // as many UTF-8 bytes as characters: all ASCII (any other character takes 2 or more)
    if (buf.utf8Write(s, start) === n) return this.stringHeader(ASCII, n);
    this.stringHeader(UTF16, buf.ucs2Write(s, start));
  }

  private stringHeader(type: number, length: number): void {
    this.buf[this.pos] = type;
    this.view.setUint32(this.pos + 1, length, true);
    this.pos += 5 + length;
  }

  private array(a: readonly unknown[], depth: number): void {
    this.reserve(5);
    this.buf[this.pos] = ARRAY;
    this.view.setUint32(this.pos + 1, a.length, true);
    this.pos += 5;
    for (let i = 0; i < a.length; i++) this.value(a[i], depth);
  }

  private object(o: Record<string, unknown>, depth: number): void {
    let index = this.lastShape[depth] ?? -1;
    // the likely shape: its compiled writer writes the object if its keys are the shape's keys, in order
    if (index >= 0 && this.writers[index]!(this, o, depth)) return;
    const keys = Object.keys(o);
    index = this.shapeIndex(keys);
    if (index < 0) index = this.define(keys);
    else this.objectHeader(index);
    this.lastShape[depth] = index;
    for (let i = 0; i < keys.length; i++) this.value(o[keys[i]!], depth);
  }

  /** @internal Writes the header of an object of shape `index` (called by the compiled shape writers). */
  objectHeader(index: number): void {
    this.reserve(3);
    this.buf[this.pos] = OBJECT;
    this.view.setUint16(this.pos + 1, index, true);
    this.pos += 3;
  }

  /** The index of the shape with exactly `keys`, or -1. */
  private shapeIndex(keys: readonly string[]): number {
    next: for (let s = 0; s < this.shapes.length; s++) {
      const shape = this.shapes[s]!;
      if (shape.length !== keys.length) continue;
      for (let i = 0; i < keys.length; i++) if (shape[i] !== keys[i]) continue next;
      return s;
    }
    return -1;
  }

  /** Writes the definition of a new shape of `keys` (the object's values follow it). */
  private define(keys: string[]): number {
    if (this.shapes.length >= MAX_SHAPES || keys.length > MAX_KEYS) throw NOT_COMPACT;
    for (const k of keys) if (!PLAIN_KEY.test(k) || k === "__proto__") throw NOT_COMPACT;
    this.reserve(3);
    this.buf[this.pos] = SHAPE;
    this.view.setUint16(this.pos + 1, keys.length, true);
    this.pos += 3;
    for (const k of keys) this.string(k);
    this.shapes.push(keys);
    this.writers.push(compileWriter(keys, this.shapes.length - 1));
    return this.shapes.length - 1;
  }

  private byte(b: number): void {
    this.reserve(1);
    this.buf[this.pos++] = b;
  }

  /** Makes room for `n` more bytes. */
  private reserve(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    const grown = Buffer.allocUnsafe(2 ** Math.ceil(Math.log2(this.pos + n))) as Bytes;
    grown.set(this.buf.subarray(0, this.pos));
    this.buf = grown;
    this.view = new DataView(grown.buffer, grown.byteOffset, grown.length);
  }
}

/**
 * Writes an object of a defined shape (header, then its values) if its `for…in` keys are exactly the
 * shape's keys, in order, and says whether it did (nothing is written otherwise).
 */
type ShapeWriter = (e: BatchEncoder, o: Record<string, unknown>, depth: number) => boolean;

/**
 * The {@link ShapeWriter} of shape `index` of `keys`: the keys are compared first, then each value is read
 * once, by name (one hidden class per call site), numbers and strings written without the type dispatch of
 * `value`. Keys enter the source only as JSON string literals.
 */
function compileWriter(keys: readonly string[], index: number): ShapeWriter {
  const values = keys
    .map((k) => `x = o[${JSON.stringify(k)}];\nif (typeof x === "number") e.number(x); else if (typeof x === "string") e.string(x); else e.value(x, depth);`)
    .join("\n");
  const source = `"use strict";
return (e, o, depth) => {
let i = 0;
for (const k in o) {
if (k !== keys[i]) return false;
i++;
}
if (i !== ${keys.length}) return false;
e.objectHeader(${index});
let x;
${values}
return true;
};`;
  return new Function("keys", source)(keys) as ShapeWriter;
}

/** Decodes the batches of one channel, in the order they were encoded. */
export class BatchDecoder {
  private buf = Buffer.alloc(0) as Bytes;
  private view: DataView = new DataView(new ArrayBuffer(0));
  private pos = 0;
  /** An object builder per defined shape. */
  private readonly shapes: ((d: BatchDecoder) => Record<string, unknown>)[] = [];
  private readonly unpackr = new Unpackr(msgpackOptions());

  /** Decodes the first `length` bytes of `bytes` (which may be reused once this returns). */
  decode(bytes: Uint8Array, length: number): { values: unknown[]; timestamps: number[] | undefined } {
    const form = bytes[0];
    if (form === MSGPACK) return { values: this.unpackr.unpack(bytes.subarray(1, length)) as unknown[], timestamps: undefined };
    if (form === MSGPACK_WITH_TIMESTAMPS) {
      const [values, timestamps] = this.unpackr.unpack(bytes.subarray(1, length)) as [unknown[], number[]];
      return { values, timestamps };
    }
    this.buf = Buffer.from(bytes.buffer, bytes.byteOffset, length) as Bytes;
    this.view = new DataView(bytes.buffer, bytes.byteOffset, length);
    const n = this.view.getUint32(1, true);
    this.pos = 5;
    const values = new Array<unknown>(n);
    for (let i = 0; i < n; i++) values[i] = this.value();
    let timestamps: number[] | undefined;
    if (form === COMPACT_WITH_TIMESTAMPS) {
      timestamps = new Array<number>(n);
      const view = this.view;
      let at = this.pos;
      for (let i = 0; i < n; i++, at += 8) timestamps[i] = view.getFloat64(at, true);
      this.pos = at;
    }
    if (this.pos !== length) throw new Error(`batch decoder: ${length - this.pos} bytes left after ${n} records`);
    return { values, timestamps };
  }

  /** @internal Reads the next value (called by the compiled shape builders). */
  value(): unknown {
    const at = this.pos;
    const type = this.buf[at];
    switch (type) {
      case INT32:
        this.pos = at + 5;
        return this.view.getInt32(at + 1, true);
      case FLOAT64:
        this.pos = at + 9;
        return this.view.getFloat64(at + 1, true);
      case ASCII: {
        const n = this.view.getUint32(at + 1, true);
        this.pos = at + 5 + n;
        return n <= SHORT_ASCII ? shortAscii(this.buf, at + 5, n) : this.buf.latin1Slice(at + 5, at + 5 + n);
      }
      case UTF16: {
        const n = this.view.getUint32(at + 1, true);
        this.pos = at + 5 + n;
        return this.buf.ucs2Slice(at + 5, at + 5 + n);
      }
      case OBJECT:
        this.pos = at + 3;
        return this.shapes[this.view.getUint16(at + 1, true)]!(this);
      case UNDEFINED:
        this.pos = at + 1;
        return undefined;
      case NULL:
        this.pos = at + 1;
        return null;
      case FALSE:
        this.pos = at + 1;
        return false;
      case TRUE:
        this.pos = at + 1;
        return true;
      case ARRAY: {
        const n = this.view.getUint32(at + 1, true);
        this.pos = at + 5;
        const a = new Array<unknown>(n);
        for (let i = 0; i < n; i++) a[i] = this.value();
        return a;
      }
      case SHAPE: {
        const count = this.view.getUint16(at + 1, true);
        this.pos = at + 3;
        const keys: string[] = [];
        for (let i = 0; i < count; i++) keys.push(this.value() as string);
        const build = compileShape(keys);
        this.shapes.push(build);
        return build(this);
      }
      default:
        throw new Error(`batch decoder: unknown type byte ${type} at ${at}`);
    }
  }
}

/** ASCII strings up to this length are read by {@link shortAscii}, longer ones by Buffer's native reader. */
const SHORT_ASCII = 8;

/**
 * The ASCII string of the `n` (at most {@link SHORT_ASCII}) bytes of `b` at `at`, with one `String.fromCharCode`
 * call: a few times faster than the native call for such short strings (channel names, codes, categories).
 */
function shortAscii(b: Uint8Array, at: number, n: number): string {
  const c = String.fromCharCode;
  switch (n) {
    case 0:
      return "";
    case 1:
      return c(b[at]!);
    case 2:
      return c(b[at]!, b[at + 1]!);
    case 3:
      return c(b[at]!, b[at + 1]!, b[at + 2]!);
    case 4:
      return c(b[at]!, b[at + 1]!, b[at + 2]!, b[at + 3]!);
    case 5:
      return c(b[at]!, b[at + 1]!, b[at + 2]!, b[at + 3]!, b[at + 4]!);
    case 6:
      return c(b[at]!, b[at + 1]!, b[at + 2]!, b[at + 3]!, b[at + 4]!, b[at + 5]!);
    case 7:
      return c(b[at]!, b[at + 1]!, b[at + 2]!, b[at + 3]!, b[at + 4]!, b[at + 5]!, b[at + 6]!);
    default:
      return c(b[at]!, b[at + 1]!, b[at + 2]!, b[at + 3]!, b[at + 4]!, b[at + 5]!, b[at + 6]!, b[at + 7]!);
  }
}

/** A function that builds an object of `keys` from the decoder's next values, with one object literal. */
function compileShape(keys: readonly string[]): (d: BatchDecoder) => Record<string, unknown> {
  for (const k of keys) if (!PLAIN_KEY.test(k) || k === "__proto__") throw new Error(`batch decoder: key ${JSON.stringify(k)} in a shape`);
  return new Function("d", `return { ${keys.map((k) => `${k}: d.value()`).join(", ")} };`) as (d: BatchDecoder) => Record<string, unknown>;
}
