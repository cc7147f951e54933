import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { StreamExecutionEnvironment } from "../../api/environment.ts";
import { ManualClock } from "../../util/clock.ts";
import { BucketAssigners } from "./bucket-assigner.ts";
import { InvalidBucketPathError } from "./file-sink-errors.ts";
import { FileSink } from "./file-sink.ts";
import { committedFiles, committedLines, hiddenFiles, startSubtask, tempDir } from "./test-file-sink-harness.ts";

describe("FileSink in a job", () => {
  it("writes every line exactly once as committed part files, nothing hidden left (final checkpoint)", async () => {
    const dir = tempDir();
    const env = StreamExecutionEnvironment.create({ parallelism: 2, log: () => undefined });
    env
      .fromSequence(1, 5_000)
      .map((n) => `line-${n}`)
      .sinkTo(FileSink.forLines(dir));
    await env.execute("file-sink");
    const expected = Array.from({ length: 5_000 }, (_, i) => `line-${i + 1}`).sort();
    expect(committedLines(dir)).toEqual(expected);
    expect(hiddenFiles(dir)).toEqual([]);
    expect(committedFiles(dir).every((f) => /^part-sink-\d+-[01]-\d+$/.test(f))).toBe(true);
  });

  it("writes jsonl into buckets chosen by a function", async () => {
    const dir = tempDir();
    const env = StreamExecutionEnvironment.create({ parallelism: 2, log: () => undefined });
    env
      .fromSequence(1, 100)
      .map((n) => ({ n, parity: n % 2 === 0 ? "even" : "odd" }))
      .sinkTo(FileSink.forRows(dir, { format: "jsonl", bucketAssigner: (r: { parity: string }) => `by-parity/${r.parity}` }));
    await env.execute("file-sink-buckets");
    const files = committedFiles(dir);
    expect(files.every((f) => /^by-parity\/(even|odd)\/part-.*\.jsonl$/.test(f))).toBe(true);
    const read = (bucket: string) =>
      files
        .filter((f) => f.startsWith(`by-parity/${bucket}/`))
        .flatMap((f) => readFileSync(join(dir, f), "utf8").trim().split("\n"))
        .map((l) => (JSON.parse(l) as { n: number }).n)
        .sort((a, b) => a - b);
    expect(read("even")).toEqual(Array.from({ length: 50 }, (_, i) => 2 * i + 2));
    expect(read("odd")).toEqual(Array.from({ length: 50 }, (_, i) => 2 * i + 1));
    expect(hiddenFiles(dir)).toEqual([]);
  });
});

describe("FileSink formats and rolling", () => {
  it("writes csv with a header in every part and RFC 4180 quoting", async () => {
    const dir = tempDir();
    const sink = FileSink.forRows<{ id: number; name: string }>(dir, { format: "csv", csv: { columns: ["id", "name"], header: true, delimiter: ";" } });
    const t = await startSubtask(sink, {});
    t.writer.write({ id: 1, name: "plain" });
    t.writer.write({ id: 2, name: 'say "hi"; bye' });
    await t.checkpoint(1);
    await t.writer.notifyCheckpointComplete(1);
    expect(committedFiles(dir)).toEqual(["part-files-0-0.csv"]);
    expect(readFileSync(join(dir, "part-files-0-0.csv"), "utf8")).toBe('id;name\n1;plain\n2;"say ""hi""; bye"\n');
  });

  it("rolls a part when it reaches the size limit", async () => {
    const dir = tempDir();
    const t = await startSubtask<string>(FileSink.forLines(dir, { rollingPolicy: { maxPartSizeBytes: 10 } }), {});
    for (const s of ["aaaa", "bbbb", "cccc", "dddd", "e"]) t.writer.write(s); // 5 bytes per line: two lines per part
    await t.checkpoint(1);
    await t.writer.notifyCheckpointComplete(1);
    expect(committedFiles(dir)).toEqual(["part-files-0-0", "part-files-0-1", "part-files-0-2"]);
    expect(readFileSync(join(dir, "part-files-0-1"), "utf8")).toBe("cccc\ndddd\n");
    expect(committedLines(dir)).toEqual(["aaaa", "bbbb", "cccc", "dddd", "e"]);
  });

  it("rolls a part after inactivity and buckets by processing time", async () => {
    const dir = tempDir();
    const clock = new ManualClock(Date.UTC(2024, 4, 17, 9, 30));
    const sink = FileSink.forLines<string>(dir, {
      rollingPolicy: { inactivityIntervalMs: 60_000 },
      bucketAssigner: BucketAssigners.dateTime("yyyy-MM-dd--HH"),
    });
    const t = await startSubtask(sink, { clock });
    t.writer.write("x");
    clock.advance(60_000);
    t.writer.write("y"); // x's part was inactive: rolled, y opens the next part
    clock.advance(30 * 60_000);
    t.writer.write("z"); // next hour: another bucket
    await t.checkpoint(1);
    await t.writer.notifyCheckpointComplete(1);
    expect(committedFiles(dir)).toEqual(["2024-05-17--09/part-files-0-0", "2024-05-17--09/part-files-0-1", "2024-05-17--10/part-files-0-2"]);
  });

  it("refuses a bucket that leaves the base path, naming it", async () => {
    const dir = tempDir();
    const t = await startSubtask<string>(FileSink.forLines(dir, { bucketAssigner: () => "../escape" }), {});
    expect(() => t.writer.write("x")).toThrow(InvalidBucketPathError);
    expect(() => t.writer.write("x")).toThrow(/file sink 'files' .* bucket '\.\.\/escape' must be a relative path/);
  });
});

describe("WEIR_FAULT=kill-before-commit", () => {
  it("kills the process before the first commit; after restart the checkpoint's data is there exactly once", async () => {
    const dir = tempDir();
    const stateFile = join(tempDir(), "state.bin");
    const script = `
      import { writeFileSync } from "node:fs";
      import { FileSink } from ${JSON.stringify(new URL("./file-sink.ts", import.meta.url).href)};
      import { startSubtask } from ${JSON.stringify(new URL("./test-file-sink-harness.ts", import.meta.url).href)};
      const t = await startSubtask(FileSink.forLines(${JSON.stringify(dir)}), {});
      t.writer.write("a");
      t.writer.write("b");
      writeFileSync(${JSON.stringify(stateFile)}, await t.checkpoint(1));
      await t.writer.notifyCheckpointComplete(1);
      console.log("not killed");
    `;
    const scriptFile = join(tempDir(), "job.mts");
    writeFileSync(scriptFile, script);
    const child = spawnSync(process.execPath, ["--import", "tsx", scriptFile], {
      cwd: process.cwd(),
      env: { ...process.env, WEIR_FAULT: "kill-before-commit" },
      encoding: "utf8",
    });
    expect(child.signal).toBe("SIGKILL");
    expect(child.stdout).not.toMatch(/not killed/);
    expect(committedLines(dir)).toEqual([]);
    expect(hiddenFiles(dir)).toHaveLength(1);

    await startSubtask<string>(FileSink.forLines(dir), { blobs: [readFileSync(stateFile)], attempt: 1 });
    expect(committedLines(dir)).toEqual(["a", "b"]);
    expect(hiddenFiles(dir)).toEqual([]);
  });
});
