/**
 * String functions with Flink's names and semantics (CHAR_LENGTH counts
 * UTF-16 code units, as Java's `String.length`). NULL in → NULL out unless a
 * function's comment says otherwise.
 */
import { createHash } from "node:crypto";
import type { SqlValue } from "../../types/sql-value.ts";
import { coerce } from "../bound-expr.ts";
import { isIntegerType } from "../type-rules.ts";
import { MAX_LENGTH } from "../../sql/parse-type.ts";
import { argumentTypeError, expectArgs, INT, STRING, strict, type BuiltinFunction, type CallSite } from "./builtin-function.ts";

/** Removes the characters of `set` from the start (`left`) and/or end (`right`) of `s`. */
export function trimChars(s: string, set: string, left: boolean, right: boolean): string {
  let i = 0;
  let j = s.length;
  if (left) while (i < j && set.includes(s[i]!)) i++;
  if (right) while (j > i && set.includes(s[j - 1]!)) j--;
  return s.slice(i, j);
}

function stringFn(names: string[], arity: [number, number], run: (...v: never[]) => SqlValue, type = STRING): BuiltinFunction {
  return { names, arity, bind: (call) => { expectArgs(call, "string"); return strict(call, type, run); } };
}

/** Arguments: strings at `strings`, integers elsewhere (coerced to INT). */
function mixed(call: CallSite, kinds: ("s" | "i")[]) {
  expectArgs(call, ...kinds.map((k) => (k === "s" ? "string" : "integer") as "string" | "integer"));
  return call.args.map((a, i) => (kinds[i] === "i" && a.type.kind === "bigint" ? coerce(a, INT) : a.eval));
}

function hash(algorithm: string): (s: string) => string {
  return (s) => createHash(algorithm).update(s, "utf8").digest("hex");
}

function pad(left: boolean): (s: string, len: number, p: string) => string | null {
  return (s, len, p) => {
    if (len < 0 || p === "") return null;
    if (len <= s.length) return s.slice(0, len);
    const fill = p.repeat(Math.ceil((len - s.length) / p.length)).slice(0, len - s.length);
    return left ? fill + s : s + fill;
  };
}

/** Calcite's INITCAP: words are runs of ASCII letters and digits; their first letter upper case, the rest lower case. */
function initcap(s: string): string {
  let out = "";
  let start = true;
  for (const ch of s) {
    const alnum = /^[A-Za-z0-9]$/.test(ch);
    out += alnum ? (start ? ch.toUpperCase() : ch.toLowerCase()) : ch;
    start = !alnum;
  }
  return out;
}

/** Flink's SPLIT_INDEX: the `index`-th (0-based) piece of `s` split at every `sep` (an empty `sep`: at every white space); NULL when out of range. */
function splitIndex(s: string, sep: string, index: number): string | null {
  if (index < 0 || s === "") return null;
  const parts = sep === "" ? s.split(/\s/) : s.split(sep);
  return index < parts.length ? parts[index]! : null;
}

export const STRING_FUNCTIONS: BuiltinFunction[] = [
  stringFn(["UPPER"], [1, 1], (s: string) => s.toUpperCase()),
  stringFn(["LOWER"], [1, 1], (s: string) => s.toLowerCase()),
  stringFn(["INITCAP"], [1, 1], initcap),
  stringFn(["CHAR_LENGTH", "CHARACTER_LENGTH"], [1, 1], (s: string) => s.length, INT),
  stringFn(["REVERSE"], [1, 1], (s: string) => [...s].reverse().join("")),
  stringFn(["ASCII"], [1, 1], (s: string) => (s === "" ? 0 : s.charCodeAt(0)), INT),
  stringFn(["MD5"], [1, 1], hash("md5")),
  stringFn(["SHA1"], [1, 1], hash("sha1")),
  stringFn(["SHA256"], [1, 1], hash("sha256")),
  stringFn(["TO_BASE64"], [1, 1], (s: string) => Buffer.from(s, "utf8").toString("base64")),
  stringFn(["FROM_BASE64"], [1, 1], (s: string) => Buffer.from(s, "base64").toString("utf8")),
  stringFn(["REPLACE"], [3, 3], (s: string, x: string, y: string) => (x === "" ? s : s.replaceAll(x, y))),
  stringFn(["POSITION"], [2, 2], (x: string, s: string) => s.indexOf(x) + 1, INT),
  stringFn(["INSTR"], [2, 2], (s: string, x: string) => s.indexOf(x) + 1, INT),
  {
    names: ["TRIM", "BTRIM", "LTRIM", "RTRIM"], arity: [1, 2],
    bind: (call) => {
      expectArgs(call, "string");
      const left = call.name !== "RTRIM";
      const right = call.name !== "LTRIM";
      return strict(call, STRING, (s: string, set = " ") => trimChars(s, set, left, right));
    },
  },
  {
    // SUBSTRING(s, pos[, len]): 1-based; a negative pos counts from the end; NULL for a negative len (as Flink).
    names: ["SUBSTRING", "SUBSTR"], arity: [2, 3],
    bind: (call) => strict(call, STRING, (s: string, pos: number, len = MAX_LENGTH) => {
      if (len < 0) return null;
      let start = pos > 0 ? pos - 1 : pos < 0 ? s.length + pos : 0;
      const end = len === MAX_LENGTH ? s.length : start + len;
      start = Math.max(start, 0);
      return start >= end ? "" : s.slice(start, end);
    }, call.args.length === 3 && !(call.args[2]!.constant && (call.args[2]!.eval([]) as number | null ?? 0) >= 0), mixed(call, ["s", "i", "i"])),
  },
  {
    names: ["LEFT"], arity: [2, 2],
    bind: (call) => strict(call, STRING, (s: string, n: number) => (n <= 0 ? "" : s.slice(0, n)), false, mixed(call, ["s", "i"])),
  },
  {
    names: ["RIGHT"], arity: [2, 2],
    bind: (call) => strict(call, STRING, (s: string, n: number) => (n <= 0 ? "" : s.slice(Math.max(0, s.length - n))), false, mixed(call, ["s", "i"])),
  },
  {
    names: ["REPEAT"], arity: [2, 2],
    bind: (call) => strict(call, STRING, (s: string, n: number) => (n <= 0 ? "" : s.repeat(n)), false, mixed(call, ["s", "i"])),
  },
  { names: ["LPAD"], arity: [3, 3], bind: (call) => strict(call, STRING, pad(true), true, mixed(call, ["s", "i", "s"])) },
  { names: ["RPAD"], arity: [3, 3], bind: (call) => strict(call, STRING, pad(false), true, mixed(call, ["s", "i", "s"])) },
  {
    // LOCATE(needle, haystack[, from]): 1-based position of the first `needle` at or after `from`; 0 when absent.
    names: ["LOCATE"], arity: [2, 3],
    bind: (call) => strict(call, INT, (x: string, s: string, from = 1) => (from < 1 ? 0 : s.indexOf(x, from - 1) + 1), false, mixed(call, ["s", "s", "i"])),
  },
  {
    names: ["SPLIT_INDEX"], arity: [3, 3],
    bind: (call) => strict(call, STRING, splitIndex, true, mixed(call, ["s", "s", "i"])),
  },
  {
    // CHR(n): the character with code n % 256 (Flink: chr(97) = chr(353) = 'a'); '' for a negative n.
    names: ["CHR"], arity: [1, 1],
    bind: (call) => strict(call, STRING, (n: number) => (n < 0 ? "" : String.fromCharCode(n % 256)), false, mixed(call, ["i"])),
  },
  {
    // CONCAT: NULL if any argument is NULL.
    names: ["CONCAT"], arity: [1, Infinity],
    bind: (call) => { expectArgs(call, "string"); return strict(call, STRING, (...xs: string[]) => xs.join("")); },
  },
  {
    // CONCAT_WS(sep, s…): NULL only when the separator is; NULL strings are skipped.
    names: ["CONCAT_WS"], arity: [2, Infinity],
    bind: (call) => {
      expectArgs(call, "string");
      const [sepE, ...rest] = call.args.map((a) => a.eval);
      return { type: { ...STRING, nullable: call.args[0]!.type.nullable }, constant: call.args.every((a) => a.constant), eval: (f) => {
        const sep = sepE!(f);
        if (sep === null) return null;
        let out = "";
        let first = true;
        for (let i = 0; i < rest.length; i++) {
          const v = rest[i]!(f);
          if (v === null) continue;
          out += first ? (v as string) : (sep as string) + (v as string);
          first = false;
        }
        return out;
      } };
    },
  },
  {
    // HEX(n): the two's-complement hexadecimal digits of a BIGINT; HEX(s): of the string's UTF-8 bytes. Upper case.
    names: ["HEX"], arity: [1, 1],
    bind: (call) => {
      const t = call.args[0]!.type;
      if (isIntegerType(t)) return strict(call, STRING, (n: number | bigint) => BigInt.asUintN(64, BigInt(n)).toString(16).toUpperCase());
      expectArgs(call, "string");
      return strict(call, STRING, (s: string) => Buffer.from(s, "utf8").toString("hex").toUpperCase());
    },
  },
  {
    // BIN(n): the two's-complement binary digits of a BIGINT.
    names: ["BIN"], arity: [1, 1],
    bind: (call) => {
      if (!isIntegerType(call.args[0]!.type) && call.args[0]!.type.kind !== "null") throw argumentTypeError(call);
      return strict(call, STRING, (n: number | bigint) => BigInt.asUintN(64, BigInt(n)).toString(2));
    },
  },
];
