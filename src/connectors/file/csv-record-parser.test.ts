import { Parser, type CsvError } from "csv-parse";
import { describe, expect, it } from "vitest";
import { randomInt, seededRandom, testSeed } from "../../util/seeded-random.ts";
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

/** What a parse found: each record with the offset past it, then the failure (its start, code and column). */
interface Outcome {
  records: [string[], number][];
  failure: { start: number; code: string; column: unknown } | undefined;
}

/** csv-parse alone, fed `bytes` at once from file offset `start`: what the parser must find. */
function csvParseAlone(bytes: Buffer, delimiter: string, start: number): Outcome {
  const records: [string[], number][] = [];
  class Reference extends Parser {
    override push(record: unknown): boolean {
      if (record !== null) records.push([record as string[], start + this.info.bytes]);
      return true;
    }
  }
  const parser = new Reference({ delimiter, bom: start === 0, record_delimiter: ["\r\n", "\n"], relax_column_count: true, skip_empty_lines: true });
  let error: CsvError | undefined;
  parser._transform(bytes, "binary", (e) => (error ??= (e ?? undefined) as CsvError | undefined));
  if (!error) parser._flush((e) => (error ??= (e ?? undefined) as CsvError | undefined));
  const failure = error && { start: records.at(-1)?.[1] ?? start, code: error.code, column: error.column };
  return { records, failure };
}

/** The parser under test, fed `bytes` in random chunks. */
function parsedInChunks(bytes: Buffer, delimiter: string, start: number, random: () => number): Outcome {
  const records: [string[], number][] = [];
  const p = new CsvRecordParser(start, delimiter, (fields, end) => records.push([fields, end]));
  const most = randomInt(random, 1, bytes.length + 1);
  for (let i = 0; i < bytes.length; ) {
    const size = randomInt(random, 1, most);
    p.feed(bytes.subarray(i, i + size));
    i += size;
  }
  p.end();
  const f = p.failure;
  return { records, failure: f && { start: f.start, code: f.error.code, column: f.error.column } };
}

/** Bytes that are not UTF-8 on their own (a lone byte of "é", of "€", and 0xFF), written as U+0001…U+0004. */
const INVALID_UTF8: Record<number, number> = { 1: 0xc3, 2: 0xa9, 3: 0xe2, 4: 0xff };

/**
 * Random CSV bytes: records quoted where needed (and at random), CRLF or LF,
 * blank lines, multi-byte and invalid UTF-8, a byte-order mark; some inputs
 * without quotes at all, some damaged.
 */
function randomCsv(random: () => number, delimiter: string): Buffer {
  const pick = <T>(items: readonly T[]): T => items[randomInt(random, 0, items.length - 1)]!;
  const plain = ["", "a", "bc", " ", "  x ", "é", "€", "🎉", "\uFEFF", "1.5", "a\tb", "\r a", "x\r", "\u0001", "\u0002", "\u0003", "\u0004"];
  const quotes = random() < 0.6;
  const text = quotes ? [...plain, delimiter, '"', '""', "\n", "\r\n", "\r"] : plain;
  const parts: Buffer[] = [];
  if (random() < 0.1) parts.push(Buffer.from("\uFEFF"));
  for (let r = randomInt(random, 0, 12); r > 0; r--) {
    if (random() < 0.1) parts.push(Buffer.from(pick(["\n", "\r\n", "\r\n\n"])));
    const fields = randomInt(random, 1, 4);
    for (let f = 0; f < fields; f++) {
      if (f > 0) parts.push(Buffer.from(delimiter));
      const value = Array.from({ length: randomInt(random, 0, 3) }, () => pick(text)).join("");
      const bytes = Buffer.from(Buffer.from(value).map((b) => INVALID_UTF8[b] ?? b));
      if (quotes && (/["\r\n]/.test(value) || (value !== "" && value.includes(delimiter)) || random() < 0.2)) {
        parts.push(Buffer.from('"'), Buffer.from(bytes.toString("latin1").replaceAll('"', '""'), "latin1"), Buffer.from('"'));
      } else parts.push(bytes);
    }
    if (r > 1 || random() < 0.7) parts.push(Buffer.from(random() < 0.7 ? "\n" : "\r\n"));
  }
  let bytes = Buffer.concat(parts);
  for (let damage = random() < 0.2 ? randomInt(random, 1, 2) : 0; damage > 0 && bytes.length > 0; damage--) {
    const at = randomInt(random, 0, bytes.length);
    const insert = Buffer.from(pick(['"', " ", "\r", "\n", delimiter, "x", ""]));
    bytes = Buffer.concat([bytes.subarray(0, at), insert, bytes.subarray(at + (random() < 0.3 ? 1 : 0))]);
  }
  return bytes;
}

describe("CsvRecordParser against csv-parse alone", () => {
  it("finds the same records, offsets and failures on random inputs, fed in random chunks from any offset", () => {
    const seed = testSeed();
    const random = seededRandom(seed);
    for (let i = 0; i < 2_000; i++) {
      const delimiter = [",", ",", ";", "\t", "||", "é", "ab"][i % 7]!;
      const bytes = randomCsv(random, delimiter);
      const start = random() < 0.7 ? 0 : randomInt(random, 1, 1_000);
      expect(parsedInChunks(bytes, delimiter, start, random), `WEIR_SEED=${seed}, input ${i}: ${JSON.stringify(bytes.toString("latin1"))}, delimiter ${JSON.stringify(delimiter)}, start ${start}`).toEqual(
        csvParseAlone(bytes, delimiter, start),
      );
    }
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
