import { describe, expect, it } from "vitest";
import { parseInputPath } from "./file-source-glob.ts";

/** Whether the glob `glob` (relative to its base) matches `path`. */
const matches = (glob: string, path: string) => parseInputPath(glob).match!(path);

describe("parseInputPath", () => {
  it("treats a path without glob characters as a file or directory, parentheses included", () => {
    expect(parseInputPath("in/orders")).toEqual({ base: "in/orders", maxDepth: 0 });
    expect(parseInputPath("in/report(1).csv")).toEqual({ base: "in/report(1).csv", maxDepth: 0 });
  });

  it("splits a glob into its literal base and a pattern", () => {
    const p = parseInputPath("data/in/*.jsonl");
    expect(p.base).toBe("data/in");
    expect(p.maxDepth).toBe(0);
    expect(p.match!("a.jsonl")).toBe(true);
    expect(p.match!("sub/a.jsonl")).toBe(false);
    expect(parseInputPath("*.csv").base).toBe(".");
    expect(parseInputPath("/tmp/*/x.csv")).toMatchObject({ base: "/tmp", maxDepth: 1 });
    expect(parseInputPath("in/**/*.csv").maxDepth).toBe(Infinity);
    expect(parseInputPath("in/{a,b/c}/*.csv").maxDepth).toBe(Infinity);
    expect(parseInputPath("in/a(1)/*.csv").base).toBe("in/a(1)");
  });

  it("matches ** across directories, including none", () => {
    expect(["a.csv", "x/a.csv", "x/y/a.csv"].every((p) => matches("**/*.csv", p))).toBe(true);
    expect(matches("**/*.csv", "a.csv.bak")).toBe(false);
  });

  it("supports ?, character classes, negation, braces and escapes, and never matches hidden names", () => {
    expect(matches("part-?.txt", "part-1.txt")).toBe(true);
    expect(matches("part-?.txt", "part-12.txt")).toBe(false);
    expect(matches("[ab]-[!0-9].log", "a-x.log")).toBe(true);
    expect(matches("[ab]-[!0-9].log", "a-1.log")).toBe(false);
    expect(matches("*.{csv,tsv}", "t.tsv")).toBe(true);
    expect(matches("*.{csv,tsv}", "t.json")).toBe(false);
    expect(matches("*.txt", "aXtxt")).toBe(false);
    expect(matches("a\\+b\\(1\\)*.txt", "a+b(1)-x.txt")).toBe(true);
    expect(matches("*.txt", ".hidden.txt")).toBe(false);
  });
});
