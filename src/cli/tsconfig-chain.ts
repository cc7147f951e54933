/**
 * The files a `tsconfig.json` consists of: itself and the configs it
 * `extends`, transitively. `weir run`'s type check hashes them, so that a
 * change to any of them checks the job again.
 */
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";

/**
 * `configPath` and every config it extends (relative paths and package
 * specifiers, a string or an array), in the order met; a config that cannot be
 * found or read ends its branch (TypeScript reports it when it checks).
 *
 * @example
 * ```ts
 * tsconfigChain("/app/tsconfig.json"); // ["/app/tsconfig.json", "/app/node_modules/@tsconfig/node20/tsconfig.json"]
 * ```
 */
export function tsconfigChain(configPath: string): string[] {
  const chain: string[] = [];
  const visit = (file: string) => {
    if (chain.includes(file)) return;
    chain.push(file);
    let config: { extends?: unknown };
    try {
      config = JSON.parse(withoutComments(readFileSync(file, "utf8"))) as { extends?: unknown };
    } catch {
      return;
    }
    const bases = typeof config.extends === "string" ? [config.extends] : Array.isArray(config.extends) ? config.extends : [];
    for (const base of bases) {
      const found = typeof base === "string" ? resolveBase(base, dirname(file)) : undefined;
      if (found !== undefined) visit(found);
    }
  };
  visit(resolve(configPath));
  return chain;
}

/** Where an `extends` value points: a path relative to the config's folder, or a package's file (`.json` added when missing). */
function resolveBase(base: string, dir: string): string | undefined {
  const candidates = base.endsWith(".json") ? [base] : [base, `${base}.json`, join(base, "tsconfig.json")];
  for (const c of candidates) {
    if (c.startsWith(".") || c.startsWith("/")) {
      const path = resolve(dir, c);
      if (existsSync(path)) return path;
    } else {
      try {
        return createRequire(join(dir, "noop.js")).resolve(c);
      } catch {
        // the next candidate
      }
    }
  }
  return undefined;
}

/** JSON with comments and trailing commas (as tsconfig files are written) as plain JSON. */
function withoutComments(text: string): string {
  let out = "";
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '"') {
      const start = i;
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === "\\") i++;
      out += text.slice(start, i + 1);
    } else if (c === "/" && (text[i + 1] === "/" || text[i + 1] === "*")) {
      i = afterComment(text, i) - 1;
      out += " ";
    } else if (c !== "," || !closesNext(text, i + 1)) out += c;
  }
  return out;
}

/** The index after the comment that starts at `i`. */
function afterComment(text: string, i: number): number {
  if (text[i + 1] === "/") {
    const end = text.indexOf("\n", i);
    return end < 0 ? text.length : end;
  }
  const end = text.indexOf("*/", i + 2);
  return end < 0 ? text.length : end + 2;
}

/** Whether the next character after `i` that is not white space or a comment closes an object or array (a trailing comma before it is dropped). */
function closesNext(text: string, i: number): boolean {
  while (i < text.length) {
    const c = text[i]!;
    if (c === "/" && (text[i + 1] === "/" || text[i + 1] === "*")) i = afterComment(text, i);
    else if (/\s/.test(c)) i++;
    else return c === "}" || c === "]";
  }
  return false;
}
