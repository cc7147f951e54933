/**
 * SQL `LIKE` patterns: `%` matches any sequence, `_` any one character, and
 * an optional one-character ESCAPE makes the next `%`, `_` or escape literal.
 */
import { SqlRuntimeError } from "./sql-runtime-error.ts";

/**
 * The regular expression equivalent to a LIKE pattern (whole-string, `s` flag).
 *
 * @throws SqlRuntimeError for an escape of more than one character or a dangling/invalid escape.
 * @example
 * ```ts
 * likeToRegExp("a%", undefined).test("abc"); // true
 * likeToRegExp("50!%", "!").test("50%");      // true
 * ```
 */
export function likeToRegExp(pattern: string, escape: string | undefined): RegExp {
  if (escape !== undefined && escape.length !== 1) throw new SqlRuntimeError(`Invalid escape character '${escape}'`);
  let re = "^";
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i]!;
    if (ch === escape) {
      const next = pattern[i + 1];
      if (next !== "%" && next !== "_" && next !== escape) throw new SqlRuntimeError(`Invalid escape sequence '${pattern}', ${i}`);
      re += quote(next);
      i++;
    } else if (ch === "%") re += "[^]*";
    else if (ch === "_") re += "[^]";
    else re += quote(ch);
  }
  return new RegExp(re + "$", "u");
}

function quote(ch: string): string {
  return /[\\^$.*+?()[\]{}|/]/.test(ch) ? "\\" + ch : ch;
}
