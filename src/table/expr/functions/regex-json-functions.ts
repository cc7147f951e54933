/**
 * Regular-expression and JSON functions. Patterns are Java regular
 * expressions, run by JavaScript's engine: the common syntax is the same; a
 * leading `(?i)` becomes the `i` flag and `\p{…}` classes turn on Unicode
 * mode. A constant pattern that does not compile is a planning error; a
 * pattern read from a column that does not compile gives NULL (FALSE for
 * REGEXP), as Flink. JSON functions use lax mode by default and return NULL
 * (JSON_EXISTS: FALSE) on malformed JSON, as Flink's default `NULL ON ERROR`.
 * `JSON_VALUE … RETURNING <type>` is not parsed yet: JSON_VALUE returns STRING.
 */
import type { SqlValue } from "../../types/sql-value.ts";
import { coerce } from "../bound-expr.ts";
import { SqlValidationError } from "../../validation/sql-validation-error.ts";
import { BOOLEAN, expectArgs, INT, STRING, strict, type BuiltinFunction, type CallSite } from "./builtin-function.ts";
import { evaluateJsonPath, JsonPathError, parseJsonPath, type JsonPath } from "./json-path.ts";

/** Thrown for a pattern that does not compile. */
class PatternError extends Error {}

/** JavaScript source and flags of a Java regular expression. */
function toJsRegExp(pattern: string, global: boolean): RegExp {
  let src = pattern;
  let flags = global ? "g" : "";
  const inline = /^\(\?([imsx]+)\)/.exec(src);
  if (inline !== null && !inline[1]!.includes("x")) {
    src = src.slice(inline[0].length);
    flags += inline[1]!;
  }
  if (/\\[pP]\{/.test(src)) flags += "u";
  try {
    return new RegExp(src, flags);
  } catch (err) {
    throw new PatternError(`Invalid regular expression '${pattern}': ${(err as Error).message}`);
  }
}

/** A per-call cache of the last compiled pattern; a constant pattern is compiled (and checked) at planning time. */
function patternCompiler(call: CallSite, i: number, global: boolean): (p: string) => RegExp | null {
  const a = call.args[i]!;
  if (a.constant) {
    const p = a.eval([]);
    if (p !== null) {
      let re: RegExp;
      try {
        re = toJsRegExp(p as string, global);
      } catch (err) {
        throw new SqlValidationError((err as Error).message, call.loc);
      }
      return () => re;
    }
  }
  let last: string | undefined;
  let re: RegExp | null = null;
  return (p) => {
    if (p !== last) {
      last = p;
      try { re = toJsRegExp(p, global); } catch { re = null; }
    }
    return re;
  };
}

function jsonPathOf(call: CallSite): (p: string) => JsonPath | null {
  const a = call.args[1]!;
  if (a.constant) {
    const p = a.eval([]);
    if (p !== null) {
      let path: JsonPath;
      try {
        path = parseJsonPath(p as string);
      } catch (err) {
        throw new SqlValidationError((err as Error).message, call.loc);
      }
      return () => path;
    }
  }
  return (p) => { try { return parseJsonPath(p); } catch { return null; } };
}

/** Parsed JSON, or undefined when the text is not JSON. */
function parseJson(text: string): unknown {
  try { return JSON.parse(text); } catch { return undefined; }
}

export const REGEX_JSON_FUNCTIONS: BuiltinFunction[] = [
  {
    // REGEXP(s, pattern): whether some substring of s matches; FALSE for an empty pattern.
    names: ["REGEXP"], arity: [2, 2],
    bind: (call) => {
      expectArgs(call, "string");
      const compile = patternCompiler(call, 1, false);
      return strict(call, BOOLEAN, (s: string, p: string) => p !== "" && (compile(p)?.test(s) ?? false));
    },
  },
  {
    // REGEXP_EXTRACT(s, pattern[, group]): the group (0: the whole match, the default) of the first match; NULL when none.
    names: ["REGEXP_EXTRACT"], arity: [2, 3],
    bind: (call) => {
      expectArgs(call, "string", "string", "integer");
      const compile = patternCompiler(call, 1, false);
      const args = call.args.map((a, i) => (i === 2 ? coerce(a, INT) : a.eval));
      return strict(call, STRING, (s: string, p: string, group = 0) => {
        const m = compile(p)?.exec(s);
        if (m === null || m === undefined || group < 0 || group >= m.length) return null;
        return m[group] ?? null;
      }, true, args);
    },
  },
  {
    // REGEXP_REPLACE(s, pattern, replacement): every match replaced by the replacement text, taken literally (as Flink).
    names: ["REGEXP_REPLACE"], arity: [3, 3],
    bind: (call) => {
      expectArgs(call, "string");
      const compile = patternCompiler(call, 1, true);
      return strict(call, STRING, (s: string, p: string, r: string) => {
        const re = compile(p);
        return re === null ? null : s.replace(re, () => r);
      }, true);
    },
  },
  {
    // JSON_VALUE(json, path): the scalar at path as STRING; NULL when absent, not a scalar, or on an error.
    names: ["JSON_VALUE"], arity: [2, 2],
    bind: (call) => {
      expectArgs(call, "string");
      const pathOf = jsonPathOf(call);
      return strict(call, STRING, (json: string, p: string): SqlValue => {
        const path = pathOf(p);
        const doc = parseJson(json);
        if (path === null || doc === undefined) return null;
        let items: unknown[];
        try { items = evaluateJsonPath(path, doc); } catch (err) { if (err instanceof JsonPathError) return null; throw err; }
        if (items.length !== 1) return null;
        const v = items[0];
        if (v === null || typeof v === "object") return null;
        return String(v);
      }, true);
    },
  },
  {
    // JSON_EXISTS(json, path): whether path selects something; FALSE on an error.
    names: ["JSON_EXISTS"], arity: [2, 2],
    bind: (call) => {
      expectArgs(call, "string");
      const pathOf = jsonPathOf(call);
      return strict(call, BOOLEAN, (json: string, p: string) => {
        const path = pathOf(p);
        const doc = parseJson(json);
        if (path === null || doc === undefined) return false;
        try { return evaluateJsonPath(path, doc).length > 0; } catch (err) { if (err instanceof JsonPathError) return false; throw err; }
      });
    },
  },
];
