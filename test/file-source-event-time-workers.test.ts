/**
 * Event time from continuous file sources on 2 worker threads (`weir run
 * --parallelism 2 --workers 2`), DataStream and SQL: reader 0 holds a
 * later-in-time file that sorts before an earlier one, reader 1 a small file
 * in between. While the job runs, every 10 s window the watermark passes is
 * committed with all its events (test/fixtures/file-event-time-job.ts); then
 * the job is stopped (SIGINT: stop with a savepoint).
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { nameFor } from "./support/reader-files.ts";
import { startCli, waitFor } from "./support/cli-process.ts";
import { finish } from "./support/e2e-kill-loop.ts";
import { tempDirs } from "./support/temp-dirs.ts";

const newDir = tempDirs("weir-file-event-time-workers-");
const WINDOW = 10_000;
/** 2026-12-01 00:00:00 UTC: event time 0 of the SQL rows. */
const T0 = Date.UTC(2026, 11, 1);
/** Files as [name prefix, reader, first window, events]: each spans 4 windows. */
const FILES: [string, number, number, number][] = [["a-later", 0, 20, 2000], ["b-earlier", 0, 0, 2000], ["c-between", 1, 10, 40]];

/** Event times (ms) of a file starting at window `first`. */
function times(first: number, n: number): number[] {
  return Array.from({ length: n }, (_, i) => first * WINDOW + Math.floor((i * 4 * WINDOW) / n));
}

/** The committed lines of the output directory (hidden in-progress files left out). */
function outputLines(dir: string): string[] {
  return readdirSync(dir)
    .filter((f) => !f.startsWith(".") && !f.startsWith("_"))
    .flatMap((f) => readFileSync(join(dir, f), "utf8").split("\n").filter(Boolean));
}

/** Every window but the last one of the latest file: the watermark (1 s behind its last event) passes all others. */
const expected = FILES.flatMap(([, , first, n]) => [0, 1, 2, 3].map((k) => `${(first + k) * WINDOW} ${n / 4}`))
  .filter((w) => w !== `${23 * WINDOW} 500`)
  .sort();

/** Runs the job on the input written by `write` until `expected.length` windows are committed, then stops it. */
async function runUntilWindows(api: "datastream" | "sql", write: (input: string) => void): Promise<string[]> {
  const root = newDir();
  const input = join(root, "in");
  const output = join(root, "out");
  mkdirSync(input);
  mkdirSync(output);
  write(input);
  const run = startCli([
    "run", "test/fixtures/file-event-time-job.ts", "--parallelism", "2", "--workers", "2", "--fresh", "--checkpoint-interval", "50",
    "--checkpoint-dir", join(root, "chk"), "--savepoint-dir", join(root, "savepoints"), "--", api, input, output,
  ]);
  let ended = false;
  void run.done.then(() => (ended = true));
  try {
    await waitFor(`${expected.length} committed windows`, () => ended || outputLines(output).length >= expected.length, 30_000, 20);
  } finally {
    run.child.kill("SIGINT");
  }
  const r = await finish(run, 30_000);
  expect(r.code, r.stderr).toBe(0);
  return outputLines(output);
}

describe("event time from continuous file sources on 2 workers", () => {
  it("DataStream: windows fire while the job runs; a reader reading a later-in-time file first drops nothing", async () => {
    const lines = await runUntilWindows("datastream", (input) => {
      for (const [prefix, reader, first, n] of FILES) writeFileSync(nameFor(input, prefix, "txt", reader, 2), times(first, n).join("\n") + "\n");
    });
    expect(lines.sort()).toEqual(expected);
  }, 60_000);

  it("SQL: the same with a filesystem table and source.monitor-interval", async () => {
    const row = (t: number) => JSON.stringify({ t: new Date(T0 + t).toISOString().replace("T", " ").replace("Z", "") });
    const lines = await runUntilWindows("sql", (input) => {
      for (const [prefix, reader, first, n] of FILES) writeFileSync(nameFor(input, prefix, "json", reader, 2), times(first, n).map(row).join("\n") + "\n");
    });
    const windows = lines.map((l) => JSON.parse(l) as { window_start: string; n: number });
    expect(windows.map((w) => `${Date.parse(`${w.window_start.replace(" ", "T")}Z`) - T0} ${w.n}`).sort()).toEqual(expected);
  }, 60_000);
});
