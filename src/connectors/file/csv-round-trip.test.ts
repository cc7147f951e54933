/**
 * The CSV source reads what the CSV sink writes: tricky records (line breaks
 * and CRLF inside fields, quotes, delimiters, spaces, empty values) written by
 * a job through `FileSink`, read back by a job through `FileSource`, equal;
 * also when the reading job fails in the middle of the file and restores from
 * a checkpoint there, and when a reader is restored after any record.
 */
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { StreamExecutionEnvironment } from "../../api/environment.ts";
import type { CheckpointListener } from "../../core/checkpointed-function.ts";
import type { OutputTag } from "../../core/output-tag.ts";
import { RichFunction } from "../../core/rich-function.ts";
import type { ReaderOutput, SourceReader } from "../../core/source.ts";
import { RestartStrategies } from "../../runtime/execution/restart-strategy.ts";
import { WatermarkStrategy } from "../../time/watermark-strategy.ts";
import { collectSink } from "../builtin/collect-sink.ts";
import { FileSink } from "./file-sink.ts";
import { FileSource } from "./file-source.ts";
import { FileSourceParseError } from "./file-source-errors.ts";
import type { DeadLetter } from "./file-source-reader.ts";
import type { FileSourceSplit } from "./file-source-split.ts";

interface Row {
  id: string;
  text: string;
  note: string;
}

const TRICKY = [
  "plain",
  "with, comma",
  'say "hi"',
  '"',
  "two\nlines",
  "crlf\r\ninside",
  "lone\rcarriage return",
  "\n",
  "",
  "   ",
  "  padded  ",
  "ünïcödé €🎉",
  "trailing newline\n",
  '"quoted", "twice"\n\n"and blank line"',
];

/** `count` rows cycling through the tricky texts in both text columns. */
function rows(count: number): Row[] {
  return Array.from({ length: count }, (_, i) => ({ id: String(i), text: TRICKY[i % TRICKY.length]!, note: TRICKY[(i * 7 + 3) % TRICKY.length]! }));
}

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "weir-csv-round-trip-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Writes `data` with the CSV file sink (header, fixed columns) in a bounded job; returns the committed part files. */
async function writeWithSink(data: Row[], parallelism = 2): Promise<string[]> {
  const env = StreamExecutionEnvironment.create({ parallelism });
  env
    .fromElements(...data)
    .rebalance()
    .sinkTo(FileSink.forRows<Row>(dir, { format: "csv", csv: { columns: ["id", "text", "note"], header: true } }))
    .uid("csv-out");
  await env.execute("write-csv");
  return (await readdir(dir)).filter((n) => !n.startsWith(".")).map((n) => join(dir, n));
}

const byId = (a: Row, b: Row) => Number(a.id) - Number(b.id);

/** Failure injection shared with the job's map (same thread): fail once, after a checkpoint completed. */
const injected = { failed: false, checkpointsSeen: 0, seenBeforeFailure: 0, firstIdAfterRestart: undefined as string | undefined };

class FailOnceAfterCheckpoint extends RichFunction implements CheckpointListener {
  constructor(private readonly failAt: number) {
    super();
  }
  map(row: Row): Row {
    if (this.getRuntimeContext().getAttemptNumber() > 0) injected.firstIdAfterRestart ??= row.id;
    else if (++injected.seenBeforeFailure >= this.failAt && injected.checkpointsSeen > 0 && !injected.failed) {
      injected.failed = true;
      throw new Error(`injected failure at row ${row.id}`);
    }
    return row;
  }
  notifyCheckpointComplete(): void {
    injected.checkpointsSeen++;
  }
}

describe("CSV: the source reads what the sink writes", () => {
  it("round-trips tricky records through a sink job and a source job", async () => {
    const data = rows(300);
    const files = await writeWithSink(data);
    expect(files.length).toBe(2);
    const written = (await Promise.all(files.map((f) => readFile(f, "utf8")))).join("");
    expect(written).toContain('"two\nlines"');
    expect(written).toContain('"crlf\r\ninside"');

    const env = StreamExecutionEnvironment.create({ parallelism: 2 });
    env.fromSource(FileSource.forRecords<Row>(dir, { format: "csv", chunkSize: 7 }), WatermarkStrategy.noWatermarks(), "csv-in").sinkTo(collectSink("rows"));
    const result = await env.execute("read-csv");
    expect(result.getCollected<Row>("rows").sort(byId)).toEqual(data);
  });

  it("round-trips a single column with empty and blank values", async () => {
    const values = ["", "  ", "x", "", "\n"].map((v) => ({ v }));
    const env = StreamExecutionEnvironment.create({ parallelism: 1 });
    env.fromElements(...values).sinkTo(FileSink.forRows<{ v: string }>(dir, { format: "csv", csv: { header: true } })).uid("csv-out");
    await env.execute("write-one-column");
    const read = StreamExecutionEnvironment.create({ parallelism: 1 });
    read.fromSource(FileSource.forRecords<{ v: string }>(dir, { format: "csv" }), WatermarkStrategy.noWatermarks(), "csv-in").sinkTo(collectSink("rows"));
    expect((await read.execute("read-one-column")).getCollected("rows")).toEqual(values);
  });

  it("a reading job that fails in the middle of the file restores from a checkpoint there and reads every record exactly once", async () => {
    const data = rows(3_000);
    await writeWithSink(data, 1);
    Object.assign(injected, { failed: false, checkpointsSeen: 0, seenBeforeFailure: 0, firstIdAfterRestart: undefined });

    const env = StreamExecutionEnvironment.create({ parallelism: 1 });
    env.enableCheckpointing(10).setRestartStrategy(RestartStrategies.fixedDelayRestart(1, 0));
    env
      // small chunks: one read per few records, so checkpoints complete while the file is being read
      .fromSource(FileSource.forRecords<Row>(dir, { format: "csv", chunkSize: 64 }), WatermarkStrategy.noWatermarks(), "csv-in")
      .uid("csv-in")
      .map(new FailOnceAfterCheckpoint(2_000))
      .uid("fail-once")
      .sinkTo(collectSink("rows"))
      .uid("rows");
    const result = await env.execute("read-csv-with-failure");

    expect(result.restarts).toBe(1);
    const resumedAt = Number(injected.firstIdAfterRestart);
    expect(resumedAt).toBeGreaterThan(0); // restored mid-file, not from the start
    expect(resumedAt).toBeLessThan(2_000);
    expect(result.getCollected<Row>("rows")).toEqual(data);
  });

  it("restores a reader after any record of a file of multi-line records, at every chunk size", async () => {
    const data = rows(60);
    await writeWithSink(data, 1);
    for (const chunkSize of [1, 5, 64, 65_536]) {
      const source = FileSource.forRecords<Row>(dir, { format: "csv", chunkSize });
      for (let cut = 0; cut <= data.length; cut += chunkSize < 64 ? 7 : 1) {
        const first = open(source);
        const head = await read(first, cut);
        const state = JSON.parse(JSON.stringify(first.snapshotState(1))) as FileSourceSplit[];
        await first.close?.();
        const second = open(source, state);
        const tail = await read(second);
        await second.close?.();
        expect([...head.records, ...tail.records], `chunk ${chunkSize}, cut after ${cut}`).toEqual(data);
      }
    }
  });

  it("names file:line of a malformed multi-line record, or sends it to the dead letters and reads on", async () => {
    const path = join(dir, "bad.csv");
    await writeFile(path, 'k,v\n1,"two\nlines"\n2,"a\nb"oops\n3,c\n');
    const err = await read(open(FileSource.forRecords(path, { format: "csv" }))).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FileSourceParseError);
    expect((err as FileSourceParseError).message).toBe(`${path}:4: unexpected character after closing quote (column 2): 2,"a\nb"oops`);

    const out = await read(open(FileSource.forRecords(path, { format: "csv", onMalformed: "dead-letter" })));
    expect(out.records).toEqual([
      { k: "1", v: "two\nlines" },
      { k: "3", v: "c" },
    ]);
    expect(out.side).toEqual([{ file: path, line: 4, text: '2,"a\nb"oops', error: "unexpected character after closing quote (column 2)" }]);
  });
});

class Collected<T> implements ReaderOutput<T> {
  readonly records: T[] = [];
  readonly side: DeadLetter[] = [];
  collect(value: T): void {
    this.records.push(value);
  }
  collectSide<S>(_tag: OutputTag<S>, value: S): void {
    this.side.push(value as DeadLetter);
  }
  createOutputForSplit(): ReaderOutput<T> {
    return this;
  }
  releaseOutputForSplit(): void {}
}

function open<T>(source: FileSource<T>, splits: FileSourceSplit[] = source.createSplits(1)): SourceReader<T, FileSourceSplit> {
  const reader = source.createReader();
  reader.addSplits(splits);
  return reader;
}

/** Polls until end of input or `count` records; returns what was collected. */
async function read<T>(reader: SourceReader<T, FileSourceSplit>, count = Infinity): Promise<Collected<T>> {
  const out = new Collected<T>();
  while (out.records.length < count) {
    if ((await reader.pollNext(out, Math.min(4, count - out.records.length))) === "end-of-input") break;
  }
  return out;
}
