import { mkdtemp, mkdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { OutputTag } from "../../core/output-tag.ts";
import type { ReaderOutput, SourceReader } from "../../core/source.ts";
import { FileSource } from "./file-source.ts";
import { FileSourceParseError } from "./file-source-errors.ts";
import type { DeadLetter } from "./file-source-reader.ts";
import { deadLetterCount, type FileSourceSplit } from "./file-source-split.ts";
import { ManualClock } from "../../util/clock.ts";
import { configureLogging, currentLogSettings } from "../../util/logger.ts";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "weir-file-source-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

class Collected<T> implements ReaderOutput<T> {
  readonly records: T[] = [];
  readonly side: DeadLetter[] = [];
  collect(value: T): void {
    this.records.push(value);
  }
  collectSide<S>(tag: OutputTag<S>, value: S): void {
    expect(tag).toBe(FileSource.DEAD_LETTERS);
    this.side.push(value as DeadLetter);
  }
  /** Splits opened and not yet released, in order of opening. */
  readonly openSplits: string[] = [];
  createOutputForSplit(id: string): ReaderOutput<T> {
    if (!this.openSplits.includes(id)) this.openSplits.push(id);
    return this;
  }
  releaseOutputForSplit(id: string): void {
    this.openSplits.splice(this.openSplits.indexOf(id), 1);
  }
}

function open<T>(source: FileSource<T>, splits: FileSourceSplit[] = source.createSplits(1)): SourceReader<T, FileSourceSplit> {
  const reader = source.createReader();
  reader.addSplits(splits);
  return reader;
}

/** Polls until end of input, or until `count` records when given; returns what was collected. */
async function read<T>(reader: SourceReader<T, FileSourceSplit>, out = new Collected<T>(), count = Infinity, batch = 3): Promise<Collected<T>> {
  while (out.records.length < count) {
    if ((await reader.pollNext(out, Math.min(batch, count - out.records.length))) === "end-of-input") break;
  }
  return out;
}

async function readAll<T>(source: FileSource<T>): Promise<T[]> {
  const reader = open(source);
  try {
    return (await read(reader)).records;
  } finally {
    await reader.close?.();
  }
}

describe("FileSource reading", () => {
  it("reads lines with CRLF, blank lines, a last line without newline and multibyte characters across chunks", async () => {
    const text = "first\r\n\nzwei – ü\r\n€🎉 end\nno newline ✓";
    await writeFile(join(dir, "a.txt"), text);
    for (const chunkSize of [1, 2, 3, 7, 65536]) {
      expect(await readAll(FileSource.forLines(join(dir, "a.txt"), { chunkSize }))).toEqual(["first", "", "zwei – ü", "€🎉 end", "no newline ✓"]);
    }
  });

  it("parses JSON Lines, skipping blank lines and a byte-order mark", async () => {
    await writeFile(join(dir, "o.jsonl"), '\uFEFF{"id":1,"name":"ä"}\n\n  \n{"id":2,"tags":["x"]}\r\n3');
    expect(await readAll(FileSource.forRecords(join(dir, "o.jsonl"), { format: "jsonl", chunkSize: 4 }))).toEqual([
      { id: 1, name: "ä" },
      { id: 2, tags: ["x"] },
      3,
    ]);
  });

  it("parses CSV with a header, quoted delimiters and escaped quotes, per file", async () => {
    await writeFile(join(dir, "a.csv"), 'id,name,note\r\n1,"Smith, J.","said ""hi"""\n2,Doe,\n');
    await writeFile(join(dir, "b.csv"), "id,name,note\n3,Roe,x");
    expect(await readAll(FileSource.forRecords(dir, { format: "csv", chunkSize: 5 }))).toEqual([
      { id: "1", name: "Smith, J.", note: 'said "hi"' },
      { id: "2", name: "Doe", note: "" },
      { id: "3", name: "Roe", note: "x" },
    ]);
  });

  it("parses CSV without header as arrays, or with given columns and delimiter", async () => {
    await writeFile(join(dir, "a.csv"), "1;a\n2;b\n");
    const path = join(dir, "a.csv");
    expect(await readAll(FileSource.forRecords(path, { format: "csv", csv: { header: false, delimiter: ";" } }))).toEqual([["1", "a"], ["2", "b"]]);
    expect(await readAll(FileSource.forRecords(path, { format: "csv", csv: { header: false, delimiter: ";", columns: ["n", "s"] } }))).toEqual([
      { n: "1", s: "a" },
      { n: "2", s: "b" },
    ]);
  });

  it("reads a directory recursively in sorted order, skipping hidden and _-prefixed entries", async () => {
    await mkdir(join(dir, "sub"));
    await mkdir(join(dir, ".hidden"));
    await writeFile(join(dir, "b.txt"), "b\n");
    await writeFile(join(dir, "a.txt"), "a\n");
    await writeFile(join(dir, "sub", "c.txt"), "c\n");
    await writeFile(join(dir, ".part-1"), "hidden\n");
    await writeFile(join(dir, "_SUCCESS"), "marker\n");
    await writeFile(join(dir, ".hidden", "d.txt"), "hidden dir\n");
    expect(await readAll(FileSource.forLines(dir))).toEqual(["a", "b", "c"]);
  });

  it("registers each file's watermark output as soon as it is queued, and releases it when the file is finished", async () => {
    await writeFile(join(dir, "a.txt"), "a1\na2\na3\n");
    await writeFile(join(dir, "b.txt"), "b1\n");
    const reader = open(FileSource.forLines(dir));
    const out = new Collected<string>();
    await read(reader, out, 2, 2);
    // b.txt is not read yet but holds back the watermark: reading a first must not make b's records late
    expect(out.openSplits).toEqual([join(dir, "a.txt"), join(dir, "b.txt")]);
    await read(reader, out);
    expect(out.records).toEqual(["a1", "a2", "a3", "b1"]);
    expect(out.openSplits).toEqual([]);
    await reader.close?.();
  });

  it("reads the files a glob matches", async () => {
    await mkdir(join(dir, "x", "y"), { recursive: true });
    await writeFile(join(dir, "1.jsonl"), "1\n");
    await writeFile(join(dir, "2.csv"), "no\n");
    await writeFile(join(dir, "x", "3.jsonl"), "3\n");
    await writeFile(join(dir, "x", "y", "4.jsonl"), "4\n");
    const top = await readAll(FileSource.forRecords<number>(`${dir}/*.jsonl`, { format: "jsonl" }));
    expect(top).toEqual([1]);
    const deep = await readAll(FileSource.forRecords<number>(`${dir}/**/*.jsonl`, { format: "jsonl" }));
    expect(deep.sort()).toEqual([1, 3, 4]);
  });

  it("fails on a malformed JSON line naming file:line, the reason and the text", async () => {
    const path = join(dir, "orders-2.jsonl");
    await writeFile(path, '{"customer": 1}\n{"customer": 1,}\n');
    const err = await readAll(FileSource.forRecords(path, { format: "jsonl" })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FileSourceParseError);
    const e = err as FileSourceParseError;
    expect([e.file, e.line, e.text]).toEqual([path, 2, '{"customer": 1,}']);
    expect(e.message).toMatch(new RegExp(`^${path.replace(/[.\\]/g, "\\$&")}:2: invalid JSON \\(.+\\): \\{"customer": 1,\\}$`));
  });

  it("fails on a CSV record with the wrong column count and truncates long text", async () => {
    const path = join(dir, "a.csv");
    await writeFile(path, `a,b\n1,2\n3,${"x".repeat(500)},4\n`);
    const err = (await readAll(FileSource.forRecords(path, { format: "csv" })).catch((e: unknown) => e)) as FileSourceParseError;
    expect(err.message.startsWith(`${path}:3: expected 2 columns, got 3: 3,xxx`)).toBe(true);
    expect(err.message.endsWith("…")).toBe(true);
    expect(err.message.length).toBeLessThan(300);
  });

  it("sends malformed records to the dead-letter output, counts them across restore, and goes on", async () => {
    const path = join(dir, "o.jsonl");
    await writeFile(path, "1\nbad one\n2\n{oops\n3\n");
    const source = FileSource.forRecords<number>(path, { format: "jsonl", onMalformed: "dead-letter" });
    const first = open(source);
    const out = new Collected<number>();
    while (out.records.length + out.side.length < 2) await first.pollNext(out, 2 - out.records.length - out.side.length);
    expect(out.records).toEqual([1]);
    expect(out.side.map((d) => d.line)).toEqual([2]);
    const state = first.snapshotState(1);
    expect(deadLetterCount(state)).toBe(1);
    await first.close?.();

    const second = open(source, state);
    const rest = await read(second);
    expect([...out.records, ...rest.records]).toEqual([1, 2, 3]);
    expect(rest.side).toEqual([{ file: path, line: 4, text: "{oops", error: expect.stringMatching(/^invalid JSON/) }]);
    expect(deadLetterCount(second.snapshotState(2))).toBe(2);
    await second.close?.();
  });

  it("resumes mid-file at exactly the next record after a restore", async () => {
    const lines = Array.from({ length: 200 }, (_, i) => `{"n":${i},"s":"${"é".repeat(i % 7)}"}`);
    await writeFile(join(dir, "a.jsonl"), lines.slice(0, 120).join("\r\n") + "\r\n");
    await writeFile(join(dir, "b.jsonl"), lines.slice(120).join("\n"));
    const source = FileSource.forRecords<{ n: number }>(dir, { format: "jsonl", chunkSize: 13 });
    const full = await readAll(source);
    expect(full.map((r) => r.n)).toEqual(lines.map((_, i) => i));

    for (const cut of [1, 57, 120, 121, 199]) {
      const first = open(source);
      const head = await read(first, undefined, cut);
      const state = first.snapshotState(7);
      await first.close?.();
      const fileSplit = state.find((s) => s.kind === "file");
      expect(fileSplit?.kind === "file" && fileSplit.line).toBe(cut <= 120 ? cut + 1 : cut - 120 + 1);
      const second = open(source, JSON.parse(JSON.stringify(state)) as FileSourceSplit[]);
      const tail = await read(second);
      await second.close?.();
      expect([...head.records, ...tail.records]).toEqual(full);
    }
  });

  it("keeps the CSV header of a file across a restore mid-file", async () => {
    await writeFile(join(dir, "a.csv"), "k,v\n1,a\n2,b\n3,c\n");
    const source = FileSource.forRecords(dir, { format: "csv" });
    const first = open(source);
    const head = await read(first, undefined, 1);
    const second = open(source, first.snapshotState(1));
    await first.close?.();
    expect([...head.records, ...(await read(second)).records]).toEqual([
      { k: "1", v: "a" },
      { k: "2", v: "b" },
      { k: "3", v: "c" },
    ]);
    await second.close?.();
  });
});

describe("a path that matches no file", () => {
  /** The thread logger's records while `body` runs. */
  async function logged(body: () => Promise<void>): Promise<string[]> {
    const lines: string[] = [];
    const before = currentLogSettings();
    configureLogging({ level: "info", destination: (r) => lines.push(`${r.level}: ${r.msg}`) });
    try {
      await body();
    } finally {
      configureLogging({ level: before.level, format: before.format });
    }
    return lines;
  }

  it("bounded: one warning naming the pattern (from the reader of bucket 0 only), then end of input", async () => {
    const pattern = join(dir, "*.csv");
    await writeFile(join(dir, "a.txt"), "x\n");
    const source = FileSource.forLines(pattern);
    const lines = await logged(async () => {
      const [zero, one] = source.createSplits(2);
      expect((await read(open(source, [zero!]))).records).toEqual([]);
      expect((await read(open(source, [one!]))).records).toEqual([]);
    });
    expect(lines).toEqual([`warn: file source: no file matches '${pattern}': it reads 0 records`]);
    const empty = join(dir, "empty");
    await mkdir(empty);
    expect(await logged(async () => void (await readAll(FileSource.forLines(empty))))).toEqual([`warn: file source: no file in '${empty}': it reads 0 records`]);
  });

  it("watching: one note that it waits, not repeated at each listing; nothing said when files match", async () => {
    const clock = new ManualClock(0);
    const pattern = join(dir, "*.csv");
    const source = FileSource.forLines(pattern, { monitorIntervalMs: 1_000, clock });
    const reader = open(source);
    const out = new Collected<string>();
    const lines = await logged(async () => {
      expect(await reader.pollNext(out, 10)).toBe("more-available");
      clock.advance(1_000);
      expect(await reader.pollNext(out, 10)).toBe("more-available");
    });
    expect(lines).toEqual([`info: file source: no file matches '${pattern}' yet: it waits for files, listing the path every 1000 ms`]);
    await writeFile(join(dir, "a.csv"), "x\n");
    expect(await logged(async () => void (await readAll(FileSource.forLines(pattern))))).toEqual([]);
  });
});
