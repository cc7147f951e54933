/**
 * The input path of a file source: a file, a directory, or a glob. Pure: turns
 * the path into a base directory and a matcher for paths below it.
 */

/** A parsed input path. */
export interface InputPath {
  /** The file or directory to list (for a glob: its longest literal prefix, or "."). */
  readonly base: string;
  /** For a glob: matches a `/`-separated path relative to `base`. */
  readonly match?: RegExp;
  /** For a glob: how many directory levels below `base` can match (Infinity with `**`). */
  readonly maxDepth: number;
}

const GLOB_CHARS = /[*?[{]/;

/**
 * Splits `path` into what to list and what to keep. Supported in globs:
 * `*` (any characters but `/`), `?` (one such character), `**` (any number of
 * directories), `[abc]` / `[a-z]` / `[!abc]` and `{a,b}`.
 *
 * @example
 * ```ts
 * parseInputPath("in/**\/*.csv"); // { base: "in", match: /^(?:[^/]*\/)*[^/]*\.csv$/, maxDepth: Infinity }
 * parseInputPath("in/");          // { base: "in/", maxDepth: 0 }
 * ```
 */
export function parseInputPath(path: string): InputPath {
  if (!GLOB_CHARS.test(path)) return { base: path, maxDepth: 0 };
  const parts = path.split("/");
  const first = parts.findIndex((p) => GLOB_CHARS.test(p));
  const literal = parts.slice(0, first);
  const pattern = parts.slice(first);
  const base = literal.length === 0 ? "." : literal.length === 1 && literal[0] === "" ? "/" : literal.join("/");
  const maxDepth = pattern.includes("**") ? Infinity : pattern.length - 1;
  return { base, match: globToRegExp(pattern.join("/")), maxDepth };
}

/** Compiles a glob (relative, `/`-separated) to an anchored regular expression. */
export function globToRegExp(glob: string): RegExp {
  let re = "";
  let braces = 0;
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === "*") {
      if (glob[i + 1] === "*" && (i === 0 || glob[i - 1] === "/") && (glob[i + 2] === "/" || i + 2 === glob.length)) {
        re += glob[i + 2] === "/" ? "(?:[^/]*/)*" : ".*";
        i += 2;
      } else re += "[^/]*";
    } else if (c === "?") re += "[^/]";
    else if (c === "[") {
      const close = glob.indexOf("]", i + 2);
      if (close < 0) re += "\\[";
      else {
        let body = glob.slice(i + 1, close).replace(/\\/g, "\\\\");
        if (body.startsWith("!")) body = "^" + body.slice(1);
        re += `[${body}]`;
        i = close;
      }
    } else if (c === "{") {
      braces++;
      re += "(?:";
    } else if (c === "}" && braces > 0) {
      braces--;
      re += ")";
    } else if (c === "," && braces > 0) re += "|";
    else re += c.replace(/[.+^$()|\\\]}]/g, "\\$&");
  }
  return new RegExp(`^${re}$`);
}
