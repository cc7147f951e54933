import { describe, expect, it } from "vitest";
import { tokenize } from "./lexer.ts";
import { SqlParseError, renderCaret } from "./sql-parse-error.ts";

const kinds = (sql: string) => tokenize(sql).map((t) => `${t.kind}:${t.value}`);

describe("tokenize", () => {
  it("splits words, quoted identifiers, strings, numbers and operators", () => {
    expect(kinds("SELECT `a``b`, 'it''s' FROM t WHERE x<>1 AND y!=2.5e-3 OR z<=.5||'s'")).toEqual([
      "ident:SELECT", "quoted:a`b", "op:,", "string:it's", "ident:FROM", "ident:t", "ident:WHERE", "ident:x", "op:<>", "number:1",
      "ident:AND", "ident:y", "op:!=", "number:2.5e-3", "ident:OR", "ident:z", "op:<=", "number:.5", "op:||", "string:s", "eof:",
    ]);
  });

  it("skips -- and /* */ comments and tracks lines and columns", () => {
    const t = tokenize("-- head\nSELECT /* a\ncomment */ x\n\t, y");
    expect(t.map((x) => [x.text, x.loc.line, x.loc.column])).toEqual([
      ["SELECT", 2, 1],
      ["x", 3, 12],
      [",", 4, 2],
      ["y", 4, 4],
      ["", 4, 5],
    ]);
  });

  it("lexes => and the remaining operators", () => {
    expect(kinds("a=>b>=c%d/e*f+g-h;[1]").filter((k) => k.startsWith("op:"))).toEqual([
      "op:=>", "op:>=", "op:%", "op:/", "op:*", "op:+", "op:-", "op:;", "op:[", "op:]",
    ]);
  });

  it.each([
    ["SELECT 'abc", 1, 8, "unterminated string literal"],
    ["SELECT `abc", 1, 8, "unterminated quoted identifier"],
    ["SELECT 1 /* x", 1, 10, "unterminated comment"],
    ["SELECT a\n  # b", 2, 3, "unexpected character '#'"],
    ["SELECT 12abc", 1, 8, "malformed number '12abc'"],
  ])("rejects %j at %i:%i", (sql, line, column, fragment) => {
    try {
      tokenize(sql);
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(SqlParseError);
      expect(e).toMatchObject({ line, column });
      expect((e as Error).message).toContain(fragment);
    }
  });
});

describe("renderCaret", () => {
  it("puts a caret under the offset on its line, keeping tabs", () => {
    expect(renderCaret("SELECT a\n\tFROM x", 14)).toBe("\tFROM x\n\t    ^");
    expect(renderCaret("SELECT", 6)).toBe("SELECT\n      ^");
  });
});
