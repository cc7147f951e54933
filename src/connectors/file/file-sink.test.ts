import { spawnSync } from "node:child_process";
import { existsSync, linkSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { StreamExecutionEnvironment } from "../../api/environment.ts";
import { ManualClock } from "../../util/clock.ts";
import { seededRandom } from "../../util/seeded-random.ts";
import { BucketAssigners } from "./bucket-assigner.ts";
import { InvalidBucketPathError, PartFileExistsError, PendingPartFileMissingError } from "./file-sink-errors.ts";
import { FileSink } from "./file-sink.ts";
import { committedFiles, committedLines, hiddenFiles, startSubtask, readPart, tempDir, withoutRunIds } from "./test-file-sink-harness.ts";

/** A UUID as in part file names (the run id). */
const UUID = "[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}";

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The writer tag of a hidden part file (run, pid, process start, host). */
const WRITER = "[0-9a-f]{8}-[0-9]+-[0-9a-z]+-[0-9a-f]{8}";

/** The committed name of hidden part file `hidden`: without the leading dot and the `.<writer>.inprogress` ending. */
const committedNameOf = (hidden: string) => hidden.slice(1).replace(new RegExp(`\\.${WRITER}\\.inprogress$`), "");

/** What `run` threw (or rejected with), null if nothing. */
async function errorOf(run: () => unknown): Promise<unknown> {
  try {
    await run();
    return null;
  } catch (e) {
    return e;
  }
}

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
    expect(committedFiles(dir).every((f) => new RegExp(`^part-sink-\\d+-[01]-${UUID}-\\d+$`).test(f))).toBe(true);
  });

  it("a second run into the same directory keeps the first run's files (part names are unique per run)", async () => {
    const dir = tempDir();
    const run = async (name: string) => {
      const env = StreamExecutionEnvironment.create({ parallelism: 2, log: () => undefined });
      env
        .fromSequence(1, 1_000)
        .map((n) => `${name}-${n}`)
        .sinkTo(FileSink.forLines(dir))
        .uid("lines");
      await env.execute(name);
    };
    await run("first");
    const firstFiles = committedFiles(dir);
    await run("second");
    const expected = ["first", "second"].flatMap((name) => Array.from({ length: 1_000 }, (_, i) => `${name}-${i + 1}`)).sort();
    expect(committedLines(dir)).toEqual(expected);
    expect(committedFiles(dir)).toEqual(expect.arrayContaining(firstFiles));
    expect(committedFiles(dir).length).toBeGreaterThan(firstFiles.length);
    expect(hiddenFiles(dir)).toEqual([]);
  });

  it("a run whose part names collide with committed files fails instead of replacing them (same seeded random source)", async () => {
    const dir = tempDir();
    const run = async (name: string) => {
      const env = StreamExecutionEnvironment.create({ parallelism: 1, log: () => undefined });
      env
        .fromSequence(1, 10)
        .map((n) => `${name}-${n}`)
        .sinkTo(FileSink.forLines(dir, { random: seededRandom(7) }))
        .uid("lines");
      await env.execute(name);
    };
    await run("first");
    const [file] = committedFiles(dir);
    expect(committedFiles(dir)).toEqual([file]);
    await expect(run("second")).rejects.toThrow(/file sink 'lines'.* checkpoint \d+: .*part-lines-0-.* already exists/);
    expect(readFileSync(join(dir, file!), "utf8")).toBe(Array.from({ length: 10 }, (_, i) => `first-${i + 1}\n`).join(""));
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

describe("FileSink part names and commit", () => {
  it("names parts part-<uid>-<subtask>-<run id>-<n>: a new run id at every start, part numbers continued from the checkpoint", async () => {
    const dir = tempDir();
    const t = await startSubtask<string>(FileSink.forLines(dir, { random: seededRandom(1) }), {});
    t.writer.write("a");
    const blob = await t.checkpoint(1);
    t.writer.write("lost"); // part 1, replayed after the restore
    const [pending] = hiddenFiles(dir);
    expect(pending).toMatch(new RegExp(`^\\.part-files-0-${UUID}-0\\.${WRITER}\\.inprogress$`));
    const first = committedNameOf(pending!);

    const again = tempDir(); // the same random source gives the same names
    const same = await startSubtask<string>(FileSink.forLines(again, { random: seededRandom(1) }), {});
    same.writer.write("a");
    await same.checkpoint(1);
    expect(hiddenFiles(again)).toEqual([pending]);

    const r = await startSubtask<string>(FileSink.forLines(dir, { random: seededRandom(2) }), { blobs: [blob], attempt: 1 });
    expect(committedFiles(dir)).toEqual([first]); // committed under the name its checkpoint recorded
    r.writer.write("b");
    await r.checkpoint(2);
    await r.writer.notifyCheckpointComplete(2);
    const second = committedFiles(dir).find((f) => f !== first);
    expect(second).toMatch(new RegExp(`^part-files-0-${UUID}-1$`));
    expect(second!.slice(0, -2)).not.toBe(first.slice(0, -2));
    expect(committedLines(dir)).toEqual(["a", "b"]);
    expect(hiddenFiles(dir)).toEqual([]);
  });

  it("never replaces a committed file: a commit onto an existing name fails with PartFileExistsError", async () => {
    const dir = tempDir();
    const a = await startSubtask<string>(FileSink.forLines(dir, { random: seededRandom(5) }), {});
    a.writer.write("first");
    await a.checkpoint(1);
    await a.writer.notifyCheckpointComplete(1);
    const [file] = committedFiles(dir);

    const b = await startSubtask<string>(FileSink.forLines(dir, { random: seededRandom(5) }), {});
    b.writer.write("second");
    await b.checkpoint(3);
    const error = await errorOf(() => b.writer.notifyCheckpointComplete(3));
    expect(error).toBeInstanceOf(PartFileExistsError);
    expect(error).toMatchObject({ path: join(dir, file!), operatorUid: "files", checkpointId: 3 });
    expect((error as Error).message).toBe(
      `file sink 'files': cannot commit checkpoint 3: '${join(dir, file!)}' already exists and is another file; a committed file is never replaced ` +
        "(do two runs share a seeded 'random' option, or did something else create the file?)",
    );
    expect(readFileSync(join(dir, file!), "utf8")).toBe("first\n");
    expect(hiddenFiles(dir).map(committedNameOf)).toEqual([file]); // still pending, nothing lost
  });

  it("fails the commit with PendingPartFileMissingError when a pending file is gone and was never committed", async () => {
    const dir = tempDir();
    const t = await startSubtask<string>(FileSink.forLines(dir), {});
    t.writer.write("a");
    await t.checkpoint(4);
    const [pending] = hiddenFiles(dir);
    rmSync(join(dir, pending!));
    const error = await errorOf(() => t.writer.notifyCheckpointComplete(4));
    expect(error).toBeInstanceOf(PendingPartFileMissingError);
    expect(error).toMatchObject({ pendingPath: join(dir, pending!), operatorUid: "files", checkpointId: 4 });
    expect((error as Error).message).toMatch(
      new RegExp(`^file sink 'files': the pending part file '${escapeRegExp(join(dir, pending!))}' of checkpoint 4 is missing and was never committed as '.*part-files-0-${UUID}-0': its records are lost`),
    );
    expect(committedFiles(dir)).toEqual([]);
  });

  it("fails the restore with PendingPartFileMissingError when a pending file of the restored checkpoint is gone", async () => {
    const dir = tempDir();
    const t = await startSubtask<string>(FileSink.forLines(dir), {});
    t.writer.write("a");
    const blob = await t.checkpoint(2);
    rmSync(join(dir, hiddenFiles(dir)[0]!));
    const restored = startSubtask<string>(FileSink.forLines(dir), { blobs: [blob], attempt: 1 });
    await expect(restored).rejects.toBeInstanceOf(PendingPartFileMissingError);
    await expect(restored).rejects.toMatchObject({ operatorUid: "files", checkpointId: 2 });
  });

  it("re-commits idempotently after a crash between the link of the committed name and the unlink of the pending one", async () => {
    const dir = tempDir();
    const t = await startSubtask<string>(FileSink.forLines(dir), {});
    t.writer.write("a");
    const blob = await t.checkpoint(1);
    const [pending] = hiddenFiles(dir);
    const committed = committedNameOf(pending!);
    linkSync(join(dir, pending!), join(dir, committed)); // the commit's first step, then the crash
    await startSubtask<string>(FileSink.forLines(dir), { blobs: [blob], attempt: 1 });
    expect(committedFiles(dir)).toEqual([committed]);
    expect(hiddenFiles(dir)).toEqual([]);
    expect(statSync(join(dir, committed)).nlink).toBe(1);
    expect(committedLines(dir)).toEqual(["a"]);
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
    expect(withoutRunIds(committedFiles(dir))).toEqual(["part-files-0-<run>-0.csv"]);
    expect(readPart(dir, "part-files-0-<run>-0.csv")).toBe('id;name\n1;plain\n2;"say ""hi""; bye"\n');
  });

  it("rolls a part when it reaches the size limit", async () => {
    const dir = tempDir();
    const t = await startSubtask<string>(FileSink.forLines(dir, { rollingPolicy: { maxPartSizeBytes: 10 } }), {});
    for (const s of ["aaaa", "bbbb", "cccc", "dddd", "e"]) t.writer.write(s); // 5 bytes per line: two lines per part
    await t.checkpoint(1);
    await t.writer.notifyCheckpointComplete(1);
    expect(withoutRunIds(committedFiles(dir))).toEqual(["part-files-0-<run>-0", "part-files-0-<run>-1", "part-files-0-<run>-2"]);
    expect(readPart(dir, "part-files-0-<run>-1")).toBe("cccc\ndddd\n");
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
    expect(withoutRunIds(committedFiles(dir))).toEqual(["2024-05-17--09/part-files-0-<run>-0", "2024-05-17--09/part-files-0-<run>-1", "2024-05-17--10/part-files-0-<run>-2"]);
  });

  it("rolls a part open longer than the rollover interval, checked at the check interval", async () => {
    const dir = tempDir();
    const clock = new ManualClock(0);
    const sink = FileSink.forLines<string>(dir, { rollingPolicy: { rolloverIntervalMs: 10_000, checkIntervalMs: 5_000 } });
    const t = await startSubtask(sink, { clock });
    for (const line of ["a", "b", "c", "d", "e"]) {
      t.writer.write(line); // at 0, 4 s, 8 s, 12 s, 16 s: checks at 8 s (part 8 s old) and 16 s (16 s old: rolls)
      clock.advance(4_000);
    }
    await t.checkpoint(1);
    await t.writer.notifyCheckpointComplete(1);
    expect(withoutRunIds(committedFiles(dir))).toEqual(["part-files-0-<run>-0", "part-files-0-<run>-1"]);
    expect(readPart(dir, "part-files-0-<run>-0")).toBe("a\nb\nc\nd\n");
  });

  it("marks a bucket complete with a success file once its files are committed and its condition holds", async () => {
    const dir = tempDir();
    const clock = new ManualClock(0);
    const sink = FileSink.forLines<[string, string]>(dir, {
      lineOf: (r) => r[1],
      bucketAssigner: (r) => r[0],
      bucketCommit: { successFileName: "_SUCCESS", isComplete: (bucket, _createdAt, watermark) => watermark >= Number(bucket.slice(2)) },
    });
    const t = await startSubtask(sink, { clock });
    t.writer.write(["h=1", "x"]);
    t.writer.write(["h=2", "y"]);
    t.writer.writeWatermark!(1);
    await t.checkpoint(1);
    t.writer.write(["h=3", "z"]); // after the barrier: not a candidate of checkpoint 1
    t.writer.writeWatermark!(3);
    expect(existsSync(join(dir, "h=1", "_SUCCESS"))).toBe(false);
    await t.writer.notifyCheckpointComplete(1);
    expect([existsSync(join(dir, "h=1", "_SUCCESS")), existsSync(join(dir, "h=2", "_SUCCESS"))]).toEqual([true, false]);
    await t.checkpoint(2);
    await t.writer.notifyCheckpointComplete(2);
    expect([existsSync(join(dir, "h=2", "_SUCCESS")), existsSync(join(dir, "h=3", "_SUCCESS"))]).toEqual([true, true]);
    expect(committedLines(dir).sort()).toEqual(["x", "y", "z"]);
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
