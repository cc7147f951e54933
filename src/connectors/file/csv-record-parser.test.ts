import { describe, expect, it } from "vitest";
import { CsvRecordParser, csvErrorReason, malformedRecordLength } from "./csv-record-parser.ts";

/** Feeds `text` in chunks of `size` bytes from file offset `start`; returns the records, their ends and the failure. */
function parseAll(text: string, size: number, start = 0, end = true) {
  const records: [string[], number][] = [];
  const p = new CsvRecordParser(start, ",", (fields, at) => records.push([fields, at]));
  const bytes = Buffer.from(text);
  for (let i = 0; i < bytes.length; i += size) p.feed(bytes.subarray(i, i + size));
  if (end) p.end();
  const f = p.failure;
  return { records, failure: f && { start: f.start, reason: csvErrorReason(f.error) } };
}

describe("CsvRecordParser", () => {
  it("reports records with quoted line breaks, quotes and delimiters, each with the file offset past it, in any chunking", () => {
    const text = 'id,note\r\n1,"a\r\nb"\n\n2,"say ""hi"", ok"\n3,é';
    for (const size of [1, 2, 3, 5, 100]) {
      expect(parseAll(text, size)).toEqual({
        records: [
          [["id", "note"], 9],
          [["1", "a\r\nb"], 18],
          [["2", 'say "hi", ok'], 38],
          [["3", "é"], Buffer.byteLength(text)],
        ],
        failure: undefined,
      });
    }
  });

  it("reports a record only once it is certain: terminated, or at the end of the file", () => {
    expect(parseAll("1,a\n2,b", 100, 0, false).records).toEqual([[["1", "a"], 4]]);
    expect(parseAll("1,a\n2,b\r", 100, 0, false).records).toEqual([[["1", "a"], 4]]);
    expect(parseAll('1,"b"\r', 100, 0, false)).toEqual({ records: [], failure: undefined });
  });

  it("counts offsets from where it starts, and skips a byte-order mark only at the start of the file", () => {
    expect(parseAll("\uFEFFa,b\n", 2).records).toEqual([[["a", "b"], 7]]);
    expect(parseAll("\uFEFFa,b\n", 2, 100).records).toEqual([[["\uFEFFa", "b"], 107]]);
  });

  it("stops at a malformed record, saying where it starts and what is wrong", () => {
    expect(parseAll('1,a\n2,"b"x\n3,c\n', 3)).toEqual({
      records: [[["1", "a"], 4]],
      failure: { start: 4, reason: "unexpected character after closing quote (column 2)" },
    });
    expect(parseAll('1,a"b\n', 3).failure).toEqual({ start: 0, reason: "quote inside an unquoted field (column 2)" });
    expect(parseAll('1,a\n2,"open\n3,c\n', 3).failure).toEqual({ start: 4, reason: "unterminated quoted field (column 2)" });
  });
});

describe("malformedRecordLength", () => {
  const length = (text: string, atEnd: boolean) => malformedRecordLength(Buffer.from(text), ",", false, atEnd);

  it("ends a malformed record with the line where its problem is, blank lines before it included", () => {
    expect(length('2,"b"x\n3,c\n', true)).toBe(7);
    expect(length('\n2,"b\nc"x,y\n3,c\n', true)).toBe(12);
    expect(length('1,"open\n2,b\n', true)).toBe(12); // an unterminated quote runs to the end of the file
    expect(length('1,a"b', false)).toBeUndefined(); // the end of its line is not there yet
    expect(length('1,a"b', true)).toBe(5);
  });
});
