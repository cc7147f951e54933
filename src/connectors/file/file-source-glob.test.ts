import { describe, expect, it } from "vitest";
import { globToRegExp, parseInputPath } from "./file-source-glob.ts";

describe("parseInputPath", () => {
  it("treats a path without glob characters as a file or directory", () => {
    expect(parseInputPath("in/orders")).toEqual({ base: "in/orders", maxDepth: 0 });
  });

  it("splits a glob into its literal base and a pattern", () => {
    const p = parseInputPath("data/in/*.jsonl");
    expect(p.base).toBe("data/in");
    expect(p.maxDepth).toBe(0);
    expect(p.match!.test("a.jsonl")).toBe(true);
    expect(p.match!.test("sub/a.jsonl")).toBe(false);
    expect(parseInputPath("*.csv").base).toBe(".");
    expect(parseInputPath("/tmp/*/x.csv")).toMatchObject({ base: "/tmp", maxDepth: 1 });
    expect(parseInputPath("in/**/*.csv").maxDepth).toBe(Infinity);
  });
});

describe("globToRegExp", () => {
  it("matches ** across directories, including none", () => {
    const re = globToRegExp("**/*.csv");
    expect(["a.csv", "x/a.csv", "x/y/a.csv"].every((p) => re.test(p))).toBe(true);
    expect(re.test("a.csv.bak")).toBe(false);
  });

  it("supports ?, character classes, negation and braces, and escapes regex characters", () => {
    expect(globToRegExp("part-?.txt").test("part-1.txt")).toBe(true);
    expect(globToRegExp("part-?.txt").test("part-12.txt")).toBe(false);
    expect(globToRegExp("[ab]-[!0-9].log").test("a-x.log")).toBe(true);
    expect(globToRegExp("[ab]-[!0-9].log").test("a-1.log")).toBe(false);
    expect(globToRegExp("*.{csv,tsv}").test("t.tsv")).toBe(true);
    expect(globToRegExp("*.{csv,tsv}").test("t.json")).toBe(false);
    expect(globToRegExp("a+b(1).txt").test("a+b(1).txt")).toBe(true);
    expect(globToRegExp("*.txt").test("aXtxt")).toBe(false);
  });
});
