/**
 * The parser's view of the token list: lookahead, keyword matching
 * (case-insensitive, unquoted words only) and located errors.
 */
import type { Identifier } from "./ast.ts";
import { tokenize, type SourceLoc, type Token } from "./lexer.ts";
import { SqlParseError } from "./sql-parse-error.ts";

/**
 * Words that cannot be used unquoted as a name or an implicit alias, because
 * they start or continue a clause.
 */
const RESERVED = new Set([
  "ALL", "AND", "AS", "BETWEEN", "BY", "CASE", "CAST", "CREATE", "CROSS", "CUBE", "DESCRIBE", "DISTINCT", "DROP",
  "ELSE", "END", "EXCEPT", "EXISTS", "EXPLAIN", "FALSE", "FETCH", "FOR", "FROM", "FULL", "GROUP", "HAVING", "IN",
  "INNER", "INSERT", "INTERSECT", "INTERVAL", "INTO", "IS", "JOIN", "LATERAL", "LEFT", "LIKE", "LIMIT", "MATCH_RECOGNIZE",
  "MINUS", "NATURAL", "NOT", "NULL", "OFFSET", "ON", "OR", "ORDER", "OUTER", "OVER", "RIGHT", "ROLLUP", "SELECT",
  "SET", "SIMILAR", "TABLE", "THEN", "TRUE", "UNION", "UNKNOWN", "USING", "VALUES", "WHEN", "WHERE", "WINDOW", "WITH",
]);

/** How deeply expressions, queries and types may nest before the parser reports an error instead of overflowing the stack. */
export const MAX_NESTING = 200;

/** Describes a token for an error message: `'FROM'`, `string literal 'x'` or `end of input`. */
export function describeToken(t: Token): string {
  if (t.kind === "eof") return "end of input";
  return t.kind === "string" ? `string literal ${t.text}` : `'${t.text}'`;
}

/** A cursor over the tokens of one SQL text. */
export class TokenCursor {
  private readonly tokens: Token[];
  private pos = 0;
  private depth = 0;

  constructor(readonly sql: string) {
    this.tokens = tokenize(sql);
  }

  /** The token `ahead` positions from the current one (the `eof` token past the end). */
  peek(ahead = 0): Token {
    return this.tokens[Math.min(this.pos + ahead, this.tokens.length - 1)]!;
  }

  /** Consumes and returns the current token. */
  next(): Token {
    const t = this.peek();
    if (t.kind !== "eof") this.pos++;
    return t;
  }

  get loc(): SourceLoc {
    return this.peek().loc;
  }

  atEnd(): boolean {
    return this.peek().kind === "eof";
  }

  /** Whether the token `ahead` positions on is the unquoted keyword `word` (upper case). */
  isKeyword(word: string, ahead = 0): boolean {
    const t = this.peek(ahead);
    return t.kind === "ident" && t.text.toUpperCase() === word;
  }

  /** Whether the token `ahead` positions on is the operator `op`. */
  isOp(op: string, ahead = 0): boolean {
    const t = this.peek(ahead);
    return t.kind === "op" && t.text === op;
  }

  /** Consumes the keyword `word` if it is next. */
  acceptKeyword(word: string): boolean {
    if (!this.isKeyword(word)) return false;
    this.pos++;
    return true;
  }

  /** Consumes the keywords `words` if all of them are next, in order. */
  acceptKeywords(...words: string[]): boolean {
    if (!words.every((w, i) => this.isKeyword(w, i))) return false;
    this.pos += words.length;
    return true;
  }

  /** Consumes the operator `op` if it is next. */
  acceptOp(op: string): boolean {
    if (!this.isOp(op)) return false;
    this.pos++;
    return true;
  }

  expectKeyword(...words: string[]): void {
    for (const w of words) {
      if (!this.acceptKeyword(w)) throw this.expected(w);
    }
  }

  expectOp(op: string): void {
    if (!this.acceptOp(op)) throw this.expected(`'${op}'`);
  }

  /** The upper-case keyword at the cursor, or undefined if the token is not an unquoted word. */
  keyword(ahead = 0): string | undefined {
    const t = this.peek(ahead);
    return t.kind === "ident" ? t.text.toUpperCase() : undefined;
  }

  /** Whether the next token can be a name: a backquoted identifier or a non-reserved word. */
  isIdentifier(ahead = 0): boolean {
    const t = this.peek(ahead);
    return t.kind === "quoted" || (t.kind === "ident" && !RESERVED.has(t.text.toUpperCase()));
  }

  /** Consumes a name. */
  identifier(what = "an identifier"): Identifier {
    const t = this.peek();
    if (!this.isIdentifier()) {
      if (t.kind === "ident") {
        throw this.error(`expected ${what} but found reserved word '${t.text}' (quote it as \`${t.text}\` to use it as a name)`, t);
      }
      throw this.expected(what);
    }
    this.pos++;
    return { value: t.value, quoted: t.kind === "quoted", loc: t.loc };
  }

  /** Consumes a string literal and returns its value. */
  string(what = "a string literal"): string {
    const t = this.peek();
    if (t.kind !== "string") throw this.expected(what);
    this.pos++;
    return t.value;
  }

  /** An error "expected X but found Y" at the current token. */
  expected(what: string): SqlParseError {
    const t = this.peek();
    return new SqlParseError(this.sql, t.loc, `expected ${what} but found ${describeToken(t)}`, t.text, [what]);
  }

  /** An error with `message` at `token` (the current token by default). */
  error(message: string, token: Token = this.peek()): SqlParseError {
    return new SqlParseError(this.sql, token.loc, message, token.text);
  }

  /** An error saying that the construct `name`, which starts at `token`, is not supported. */
  unsupported(name: string, token: Token = this.peek()): SqlParseError {
    return new SqlParseError(this.sql, token.loc, `${name} is not supported`, token.text);
  }

  /** Runs `parse` one nesting level deeper; beyond {@link MAX_NESTING} levels that is a located error. */
  nested<T>(parse: () => T): T {
    if (this.depth >= MAX_NESTING) throw this.error(`the statement nests more than ${MAX_NESTING} levels deep`);
    this.depth++;
    try {
      return parse();
    } finally {
      this.depth--;
    }
  }

  /** Parses `item` one or more times separated by commas. */
  commaList<T>(item: () => T): T[] {
    const out = [item()];
    while (this.acceptOp(",")) out.push(item());
    return out;
  }

  /** Parses `( item, item, … )`. */
  parenList<T>(item: () => T): T[] {
    this.expectOp("(");
    const out = this.commaList(item);
    if (!this.acceptOp(")")) throw this.expected("',' or ')'");
    return out;
  }
}
