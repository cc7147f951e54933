import { describe, expect, it } from "vitest";
import { parseCsvLine } from "./csv-line.ts";

describe("parseCsvLine", () => {
  it("splits plain fields, keeping empty ones", () => {
    expect(parseCsvLine("a,b,,d,", ",")).toEqual({ fields: ["a", "b", "", "d", ""] });
    expect(parseCsvLine("", ",")).toEqual({ fields: [""] });
  });

  it("keeps delimiters inside quotes and unescapes doubled quotes", () => {
    expect(parseCsvLine('1,"Smith, J.","say ""hi""",""', ",")).toEqual({ fields: ["1", "Smith, J.", 'say "hi"', ""] });
  });

  it("supports multi-character delimiters", () => {
    expect(parseCsvLine('a||"b||c"||d', "||")).toEqual({ fields: ["a", "b||c", "d"] });
  });

  it("reports an unterminated quote and text after a closing quote", () => {
    expect(parseCsvLine('a,"open', ",")).toEqual({ error: "unterminated quoted field (column 2)" });
    expect(parseCsvLine('"x"y,z', ",")).toEqual({ error: "unexpected character after closing quote (column 1)" });
  });
});
