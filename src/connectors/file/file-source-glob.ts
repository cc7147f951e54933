/**
 * The input path of a file source: a file, a directory, or a glob. Pure: turns
 * the path into a base directory to list and, for a glob, a matcher (picomatch)
 * for the paths below it. picomatch loads at the first glob, not with Weir.
 */
import { createRequire } from "node:module";

let picomatch: typeof import("picomatch") | undefined;

/** A parsed input path. */
export interface InputPath {
  /** The file or directory to list (for a glob: the directories before the first segment with a wildcard, or "."). */
  readonly base: string;
  /** For a glob: whether a `/`-separated path relative to `base` matches. */
  readonly match?: (relativePath: string) => boolean;
  /** For a glob: how many directory levels below `base` can match (Infinity with `**`). */
  readonly maxDepth: number;
}

/** A path segment with one of these characters makes the path a glob. */
const GLOB_CHARS = /[*?[{]/;

/**
 * Splits `path` into what to list and what to keep. A path is a glob when a
 * segment holds `*`, `?`, `[` or `{`; the segments from the first such one on
 * are matched with picomatch (`*`, `?`, `**`, `[a-z]`, `[!a-z]`, `{a,b}`,
 * extglobs such as `+(a|b)`; a `\` escapes a special character). Files and
 * directories whose names start with `.` are never matched.
 *
 * @example
 * ```ts
 * parseInputPath("in/**\/*.csv").match?.("2024/01/a.csv"); // true; base "in", maxDepth Infinity
 * parseInputPath("in/");                                  // { base: "in/", maxDepth: 0 }
 * ```
 */
export function parseInputPath(path: string): InputPath {
  const parts = path.split("/");
  const first = parts.findIndex((p) => GLOB_CHARS.test(p));
  if (first < 0) return { base: path, maxDepth: 0 };
  const literal = parts.slice(0, first);
  const pattern = parts.slice(first).join("/");
  const base = literal.length === 0 ? "." : literal.length === 1 && literal[0] === "" ? "/" : literal.join("/");
  // `**`, or a brace holding a `/`, can match at any depth
  const maxDepth = /\*\*|\{[^}]*\//.test(pattern) ? Infinity : parts.length - first - 1;
  picomatch ??= createRequire(import.meta.url)("picomatch") as typeof import("picomatch");
  return { base, match: picomatch(pattern, { posix: true }), maxDepth };
}
