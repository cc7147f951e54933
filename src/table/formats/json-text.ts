/**
 * A JSON reader that keeps the text of numbers, so that DECIMAL and BIGINT
 * values are read exactly (`JSON.parse` turns `12345678901234567890.12` into
 * a double; Node 20's `JSON.parse` reviver has no access to the source text).
 * Objects become `Map`s (a key such as `__proto__` is a key like any other),
 * numbers {@link JsonNumber}s; a syntax error says at which character.
 */

/** A JSON number, as written. */
export class JsonNumber {
  constructor(readonly text: string) {}
}

/** A parsed JSON value: numbers keep their text, objects are maps in document order. */
export type JsonNode = null | boolean | string | JsonNumber | JsonNode[] | Map<string, JsonNode>;

/** Malformed JSON: `column` is the 1-based character position of the problem in the text. */
export class JsonSyntaxError extends Error {
  override readonly name = "JsonSyntaxError";

  constructor(
    readonly column: number,
    readonly problem: string,
  ) {
    super(`invalid JSON at column ${column}: ${problem}`);
  }
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const ESCAPES: Readonly<Record<string, string>> = { '"': '"', "\\": "\\", "/": "/", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" };

/**
 * Parses one JSON document (surrounding whitespace allowed).
 *
 * @throws JsonSyntaxError naming the column of the first problem
 * @example
 * ```ts
 * const doc = parseJsonText('{"price": 12345678901234567890.12}') as Map<string, JsonNode>;
 * (doc.get("price") as JsonNumber).text; // "12345678901234567890.12"
 * ```
 */
export function parseJsonText(text: string): JsonNode {
  const p = new Parser(text);
  p.skipSpace();
  const v = p.value();
  p.skipSpace();
  if (p.pos < text.length) p.fail("unexpected text after the JSON value");
  return v;
}

class Parser {
  pos = 0;

  constructor(private readonly text: string) {}

  fail(problem: string): never {
    throw new JsonSyntaxError(this.pos + 1, problem);
  }

  skipSpace(): void {
    const t = this.text;
    let c = t.charCodeAt(this.pos);
    while (c === 32 || c === 9 || c === 10 || c === 13) c = t.charCodeAt(++this.pos);
  }

  value(): JsonNode {
    const t = this.text;
    const c = t[this.pos];
    switch (c) {
      case "{":
        return this.object();
      case "[":
        return this.array();
      case '"':
        return this.string();
      case "t":
        return this.literal("true", true);
      case "f":
        return this.literal("false", false);
      case "n":
        return this.literal("null", null);
      case undefined:
        return this.fail("unexpected end of input, expected a value");
      default: {
        NUMBER.lastIndex = this.pos;
        const m = NUMBER.exec(t);
        if (m === null) this.fail(`unexpected character ${JSON.stringify(c)}, expected a value`);
        this.pos += m[0].length;
        return new JsonNumber(m[0]);
      }
    }
  }

  private literal<V>(word: string, v: V): V {
    if (!this.text.startsWith(word, this.pos)) this.fail(`unexpected character ${JSON.stringify(this.text[this.pos])}, expected a value`);
    this.pos += word.length;
    return v;
  }

  private object(): Map<string, JsonNode> {
    const m = new Map<string, JsonNode>();
    this.pos++;
    this.skipSpace();
    if (this.text[this.pos] === "}") {
      this.pos++;
      return m;
    }
    for (;;) {
      if (this.text[this.pos] !== '"') this.fail("expected a double-quoted property name");
      const key = this.string();
      this.skipSpace();
      if (this.text[this.pos] !== ":") this.fail("expected ':' after a property name");
      this.pos++;
      this.skipSpace();
      m.set(key, this.value());
      this.skipSpace();
      const c = this.text[this.pos++];
      if (c === "}") return m;
      if (c !== ",") {
        this.pos--;
        this.fail("expected ',' or '}' in an object");
      }
      this.skipSpace();
    }
  }

  private array(): JsonNode[] {
    const a: JsonNode[] = [];
    this.pos++;
    this.skipSpace();
    if (this.text[this.pos] === "]") {
      this.pos++;
      return a;
    }
    for (;;) {
      a.push(this.value());
      this.skipSpace();
      const c = this.text[this.pos++];
      if (c === "]") return a;
      if (c !== ",") {
        this.pos--;
        this.fail("expected ',' or ']' in an array");
      }
      this.skipSpace();
    }
  }

  private string(): string {
    const t = this.text;
    let out = "";
    let from = ++this.pos;
    for (;;) {
      const c = t.charCodeAt(this.pos);
      if (c === 34) {
        out += t.slice(from, this.pos++);
        return out;
      }
      if (Number.isNaN(c)) this.fail("unterminated string");
      if (c < 0x20) this.fail("control character in a string");
      if (c !== 92) {
        this.pos++;
        continue;
      }
      out += t.slice(from, this.pos);
      const e = t[this.pos + 1];
      if (e === "u") {
        const hex = t.slice(this.pos + 2, this.pos + 6);
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) this.fail("invalid \\u escape");
        out += String.fromCharCode(parseInt(hex, 16));
        this.pos += 6;
      } else {
        const r = e === undefined ? undefined : ESCAPES[e];
        if (r === undefined) this.fail(`invalid escape \\${e ?? ""}`);
        out += r;
        this.pos += 2;
      }
      from = this.pos;
    }
  }
}

/**
 * The JSON text of a parsed value (numbers as they were written).
 *
 * @example
 * ```ts
 * jsonNodeText(parseJsonText('{ "a" : [1.50, "x"] }')); // '{"a":[1.50,"x"]}'
 * ```
 */
export function jsonNodeText(node: JsonNode): string {
  if (node === null || typeof node === "boolean") return String(node);
  if (typeof node === "string") return JSON.stringify(node);
  if (node instanceof JsonNumber) return node.text;
  if (Array.isArray(node)) return "[" + node.map(jsonNodeText).join(",") + "]";
  return "{" + [...node].map(([k, v]) => JSON.stringify(k) + ":" + jsonNodeText(v)).join(",") + "}";
}
