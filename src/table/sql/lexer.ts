/**
 * Tokenizer for Flink's SQL dialect. Keywords are not distinguished here: an
 * unquoted word is an `ident` token and the parser decides, case-insensitively,
 * whether it is a keyword in the position where it appears.
 */
import { SqlParseError } from "./sql-parse-error.ts";

/** A position in the SQL text: 1-based line and column, 0-based character offset. */
export interface SourceLoc {
  line: number;
  column: number;
  offset: number;
}

/** The kinds of token the lexer produces. */
export type TokenKind = "ident" | "quoted" | "string" | "number" | "op" | "eof";

/**
 * One token. `text` is the token as written; `value` is its meaning: the
 * unescaped string of a string literal or a backquoted identifier, the text
 * otherwise.
 */
export interface Token {
  kind: TokenKind;
  text: string;
  value: string;
  loc: SourceLoc;
  /** Offset just past the token. */
  end: number;
}

const OPERATORS = ["<>", "!=", "<=", ">=", "||", "=>", "=", "<", ">", ".", ",", "(", ")", ";", "*", "+", "-", "/", "%", "[", "]"];

const isIdentStart = (c: string) => /[A-Za-z_$]/.test(c) || c > "\u007f";
const isIdentPart = (c: string) => /[A-Za-z0-9_$]/.test(c) || c > "\u007f";
const isDigit = (c: string) => c >= "0" && c <= "9";

/**
 * Splits `sql` into tokens, ending with one `eof` token. Comments (`-- …` and
 * `/* … *\/`) and white space are skipped.
 *
 * @throws SqlParseError on an unterminated string, identifier or comment, or a
 * character that starts no token.
 * @example
 * ```ts
 * tokenize("SELECT a FROM t").map((t) => t.text); // ["SELECT", "a", "FROM", "t", ""]
 * ```
 */
export function tokenize(sql: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  let line = 1;
  let lineStart = 0;
  const locAt = (offset: number): SourceLoc => ({ line, column: offset - lineStart + 1, offset });
  /** Advances over `sql[from, to)`, keeping the line count. */
  const advance = (to: number) => {
    for (; i < to; i++) {
      if (sql[i] === "\n") {
        line++;
        lineStart = i + 1;
      }
    }
  };
  const fail = (loc: SourceLoc, message: string, found: string): never => {
    throw new SqlParseError(sql, loc, message, found);
  };

  while (i < sql.length) {
    const c = sql[i]!;
    if (c === " " || c === "\t" || c === "\r" || c === "\n") {
      advance(i + 1);
      continue;
    }
    if (c === "-" && sql[i + 1] === "-") {
      const nl = sql.indexOf("\n", i);
      advance(nl < 0 ? sql.length : nl);
      continue;
    }
    if (c === "/" && sql[i + 1] === "*") {
      const loc = locAt(i);
      const close = sql.indexOf("*/", i + 2);
      if (close < 0) fail(loc, "unterminated comment '/* ...'", "/*");
      advance(close + 2);
      continue;
    }
    const loc = locAt(i);
    const start = i;
    if (isIdentStart(c)) {
      let j = i + 1;
      while (j < sql.length && isIdentPart(sql[j]!)) j++;
      const text = sql.slice(i, j);
      advance(j);
      tokens.push({ kind: "ident", text, value: text, loc, end: j });
      continue;
    }
    if (c === "`" || c === "'") {
      let value = "";
      let j = i + 1;
      for (;;) {
        const k = sql.indexOf(c, j);
        if (k < 0) {
          fail(loc, c === "'" ? "unterminated string literal" : "unterminated quoted identifier", sql.slice(i, i + 20));
        }
        value += sql.slice(j, k);
        if (sql[k + 1] === c) {
          value += c;
          j = k + 2;
        } else {
          j = k + 1;
          break;
        }
      }
      advance(j);
      tokens.push({ kind: c === "'" ? "string" : "quoted", text: sql.slice(start, j), value, loc, end: j });
      continue;
    }
    if (isDigit(c) || (c === "." && isDigit(sql[i + 1] ?? ""))) {
      let j = i;
      while (j < sql.length && isDigit(sql[j]!)) j++;
      if (sql[j] === "." && isDigit(sql[j + 1] ?? "")) {
        j++;
        while (j < sql.length && isDigit(sql[j]!)) j++;
      } else if (sql[j] === "." && !isIdentStart(sql[j + 1] ?? "")) {
        j++;
      }
      if ((sql[j] === "e" || sql[j] === "E") && (isDigit(sql[j + 1] ?? "") || ((sql[j + 1] === "+" || sql[j + 1] === "-") && isDigit(sql[j + 2] ?? "")))) {
        j += 2;
        while (j < sql.length && isDigit(sql[j]!)) j++;
      }
      if (j < sql.length && isIdentStart(sql[j]!)) {
        let k = j;
        while (k < sql.length && isIdentPart(sql[k]!)) k++;
        fail(loc, `malformed number '${sql.slice(i, k)}'`, sql.slice(i, k));
      }
      const text = sql.slice(i, j);
      advance(j);
      tokens.push({ kind: "number", text, value: text, loc, end: j });
      continue;
    }
    const op = OPERATORS.find((o) => sql.startsWith(o, i));
    if (op === undefined) fail(loc, `unexpected character '${c}'`, c);
    advance(i + op!.length);
    tokens.push({ kind: "op", text: op!, value: op!, loc, end: i });
  }
  tokens.push({ kind: "eof", text: "", value: "", loc: locAt(i), end: i });
  return tokens;
}
