import { describe, expect, it } from "vitest";
import { LineBuffer } from "./line-buffer.ts";

/** Feeds `bytes` in chunks of `size` and returns every line with the offset after it. */
function cut(bytes: Buffer, size: number, start = 0): [string, number][] {
  const b = new LineBuffer(start);
  const out: [string, number][] = [];
  for (let at = 0; ; at += size) {
    if (at >= bytes.length) b.markEnd();
    else b.append(bytes.subarray(at, at + size));
    for (let line = b.nextLine(); line !== undefined; line = b.nextLine()) out.push([line, b.offset]);
    if (b.exhausted) return out;
  }
}

describe("LineBuffer", () => {
  it("cuts LF and CRLF lines and keeps a last line without newline, at byte offsets", () => {
    const bytes = Buffer.from("ab\r\n\ncd\nlast");
    const expected: [string, number][] = [["ab", 4], ["", 5], ["cd", 8], ["last", 12]];
    for (const size of [1, 2, 3, 5, 64]) expect(cut(bytes, size)).toEqual(expected);
  });

  it("decodes multibyte characters split across chunks and counts bytes, not characters", () => {
    const text = "héllo wörld ✓\n€€€\n🎉x\n";
    const bytes = Buffer.from(text);
    const lines = cut(bytes, 1);
    expect(lines.map(([l]) => l)).toEqual(["héllo wörld ✓", "€€€", "🎉x"]);
    expect(lines.map(([, o]) => o)).toEqual([Buffer.byteLength("héllo wörld ✓\n"), Buffer.byteLength("héllo wörld ✓\n€€€\n"), bytes.length]);
  });

  it("reports offsets relative to the file when starting mid-file", () => {
    expect(cut(Buffer.from("x\ny\n"), 2, 100)).toEqual([["x", 102], ["y", 104]]);
  });

  it("produces nothing for an empty file and no empty record after a final newline", () => {
    expect(cut(Buffer.alloc(0), 4)).toEqual([]);
    expect(cut(Buffer.from("a\n"), 4)).toEqual([["a", 2]]);
  });
});
