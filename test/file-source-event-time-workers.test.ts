/**
 * Event time from file sources on 2 worker threads (`weir run --parallelism 2
 * --workers 2`), DataStream and SQL: reader 0 holds a later-in-time file that
 * sorts before an earlier one, reader 1 a file in between; 10 s window counts
 * lose no event (test/fixtures/file-event-time-job.ts).
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { bucketOf } from "../src/connectors/file/file-source-split.ts";
import { runCli } from "./support/cli-process.ts";
import { tempDirs } from "./support/temp-dirs.ts";

const newDir = tempDirs("weir-file-event-time-workers-");
const WINDOW = 10_000;
const PER_FILE = 400;
/** 2026-12-01 00:00:00 UTC: event time 0 of the SQL rows. */
const T0 = Date.UTC(2026, 11, 1);
/** Files as [name prefix, reader, first window]: each spans 4 windows of 100 events. */
const FILES: [string, number, number][] = [["a-later", 0, 20], ["b-earlier", 0, 0], ["c-between", 1, 10]];

/** A file name in `dir` that a source of 2 readers gives to reader `bucket`. */
function nameIn(dir: string, prefix: string, bucket: number, ext: string): string {
  for (let i = 0; ; i++) if (bucketOf(join(dir, `${prefix}-${i}.${ext}`), 2) === bucket) return join(dir, `${prefix}-${i}.${ext}`);
}

/** Event times (ms) of a file starting at window `first`. */
function times(first: number): number[] {
  return Array.from({ length: PER_FILE }, (_, i) => first * WINDOW + Math.floor((i * 4 * WINDOW) / PER_FILE));
}

/** The committed lines of the output directory (hidden in-progress files left out). */
function outputLines(dir: string): string[] {
  return readdirSync(dir)
    .filter((f) => !f.startsWith(".") && !f.startsWith("_"))
    .flatMap((f) => readFileSync(join(dir, f), "utf8").split("\n").filter(Boolean));
}

const expected = FILES.flatMap(([, , first]) => [0, 1, 2, 3].map((k) => `${(first + k) * WINDOW} 100`)).sort();

describe("event time from file sources on 2 workers", () => {
  it("DataStream: one reader reads a later-in-time file before an earlier one, nothing is dropped", async () => {
    const root = newDir();
    const input = join(root, "in");
    mkdirSync(input);
    for (const [prefix, reader, first] of FILES) writeFileSync(nameIn(input, prefix, reader, "txt"), times(first).join("\n") + "\n");
    const r = await runCli(["run", "test/fixtures/file-event-time-job.ts", "--parallelism", "2", "--workers", "2", "--fresh", "--checkpoint-dir", join(root, "chk"), "--", "datastream", input, join(root, "out")], 60_000);
    expect(r.code, r.stderr).toBe(0);
    expect(outputLines(join(root, "out")).sort()).toEqual(expected);
  }, 60_000);

  it("SQL: the same with a filesystem table", async () => {
    const root = newDir();
    const input = join(root, "in");
    mkdirSync(input);
    const row = (t: number) => JSON.stringify({ t: new Date(T0 + t).toISOString().replace("T", " ").replace("Z", "") });
    for (const [prefix, reader, first] of FILES) writeFileSync(nameIn(input, prefix, reader, "json"), times(first).map(row).join("\n") + "\n");
    const r = await runCli(["run", "test/fixtures/file-event-time-job.ts", "--parallelism", "2", "--workers", "2", "--fresh", "--checkpoint-dir", join(root, "chk"), "--", "sql", input, join(root, "out")], 60_000);
    expect(r.code, r.stderr).toBe(0);
    const windows = outputLines(join(root, "out")).map((l) => JSON.parse(l) as { window_start: string; n: number });
    const asLines = windows.map((w) => `${Date.parse(`${w.window_start.replace(" ", "T")}Z`) - T0} ${w.n}`);
    expect(asLines.sort()).toEqual(expected);
  }, 60_000);
});
