/**
 * Event time from a `FileSource` (per-file watermarks, `forBoundedOutOfOrderness(1000)`,
 * 10 s tumbling windows counting lines; each line is an event timestamp):
 *
 * - a continuous source advances event time as it reads new files: the windows of a
 *   file fire while the job runs, at parallelism 1 and 2 (a reader without files is
 *   idle), with and without `withIdleness`;
 * - one reader given a later-in-time file before an earlier one drops nothing;
 * - a job checkpointed while its two readers are half-way through files of different
 *   event-time ranges, resumed from that checkpoint at parallelism 1, counts every event;
 * - a job at parallelism 3 failing after a checkpoint taken while one reader was in a
 *   later-in-time file with an earlier one queued, another reader mid-file and the third
 *   finished, restarts in process and counts every event (the restored watermark was the
 *   other readers' before: the earlier file's windows were all dropped as late).
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  FileSource, RestartStrategies, StreamExecutionEnvironment, TumblingEventTimeWindows, WatermarkStrategy,
  type Collector, type Sink, type DataStream, type RuntimeContext,
} from "../src/index.ts";
import { waitFor } from "./support/cli-process.ts";
import { nameFor, publish } from "./support/reader-files.ts";
import { tempDirs } from "./support/temp-dirs.ts";

const WINDOW = 10_000;
const newDir = tempDirs("weir-file-event-time-");

/** `n` event timestamps spread evenly over `[start, start + span)`, one per line. */
function lines(start: number, n: number, span = WINDOW): string {
  return Array.from({ length: n }, (_, i) => String(start + Math.floor((i * span) / n))).join("\n") + "\n";
}

/** Events handled per source subtask (the map is chained to the source). */
const progress: number[] = [];

/** `"<window start> <count>"` for every 10 s window of the lines at `dir`. */
function windowCounts(
  env: StreamExecutionEnvironment,
  dir: string,
  o: { monitorMs?: number; idlenessMs?: number; spinMs?: number; slowAfter?: number; failOnce?: { armed: boolean; failed: boolean } } = {},
): DataStream<string> {
  let strategy = WatermarkStrategy.forBoundedOutOfOrderness<string>(1000).withTimestampAssigner((line) => Number(line));
  if (o.idlenessMs) strategy = strategy.withIdleness(o.idlenessMs);
  return env
    .fromSource(FileSource.forLines(dir, { ...(o.monitorMs ? { monitorIntervalMs: o.monitorMs } : {}), chunkSize: 256 }), strategy, "lines")
    .uid("lines")
    .map({
      map(this: { getRuntimeContext(): RuntimeContext }, line: string) {
        const fail = o.failOnce;
        if (fail?.armed && !fail.failed) {
          fail.failed = true;
          throw new Error("injected failure");
        }
        const subtask = this.getRuntimeContext().getIndexOfThisSubtask();
        progress[subtask] = (progress[subtask] ?? 0) + 1;
        // past `slowAfter` events a subtask crawls (2 ms an event), so that a stop lands mid-file; after an injected failure it runs
        const spin = o.slowAfter !== undefined && progress[subtask]! > o.slowAfter && !fail?.failed ? 2 : o.spinMs;
        if (spin) for (const end = performance.now() + spin; performance.now() < end; );
        return line;
      },
    })
    .uid("progress")
    .windowAll(TumblingEventTimeWindows.of(WINDOW))
    .process((ctx, events: Iterable<string>, out: Collector<string>) => out.collect(`${ctx.window().start} ${[...events].length}`))
    .uid("windows");
}

/** A sink into `list` (in-process runs; also reports what fired before a stop-with-savepoint). */
function into(list: string[]): Sink<string> {
  return { createWriter: () => ({ write: (w: string) => void list.push(w) }) };
}

describe("event time of a continuous file source", () => {
  const FILES = 6;
  const PER_FILE = 100;
  for (const c of [
    { parallelism: 1 },
    { parallelism: 2 },
    { parallelism: 2, idlenessMs: 50 },
  ]) {
    it(`fires the windows of each new file while the job runs (parallelism ${c.parallelism}${c.idlenessMs ? ", withIdleness" : ""})`, async () => {
      const dir = newDir();
      // file k: event time [k * 10 s, (k + 1) * 10 s), given to reader k % parallelism
      const file = (k: number) => nameFor(dir, `f${k}`, "txt", k % c.parallelism, c.parallelism);
      publish(file(0), lines(0, PER_FILE));
      publish(file(1), lines(WINDOW, PER_FILE));
      const env = StreamExecutionEnvironment.create({ parallelism: c.parallelism, autoWatermarkInterval: 5 });
      const results = windowCounts(env, dir, { monitorMs: 10, ...(c.idlenessMs ? { idlenessMs: c.idlenessMs } : {}) }).executeAndCollect("continuous", FILES - 1);
      const fired: string[] = [];
      // without event time the job would run forever: end the loop after a deadline
      const deadline = setTimeout(() => void results.close(), 15_000);
      try {
        for await (const w of results) {
          fired.push(w);
          // window k fires once file k + 1 is read: only then comes file k + 2
          const next = fired.length + 1;
          if (next < FILES) publish(file(next), lines(next * WINDOW, PER_FILE));
        }
      } finally {
        clearTimeout(deadline);
      }
      expect(fired).toEqual(Array.from({ length: FILES - 1 }, (_, k) => `${k * WINDOW} ${PER_FILE}`));
    }, 20_000);
  }
});

describe("event time of a bounded file source", () => {
  it("one reader given the later-in-time file first drops none of the earlier file's events", async () => {
    const dir = newDir();
    publish(join(dir, "a-later.txt"), lines(10 * WINDOW, 400, 4 * WINDOW));
    publish(join(dir, "b-earlier.txt"), lines(0, 400, 4 * WINDOW));
    const env = StreamExecutionEnvironment.create({ parallelism: 1, autoWatermarkInterval: 1 });
    const windows: string[] = [];
    windowCounts(env, dir, { spinMs: 0.02 }).sinkTo(into(windows));
    await env.execute("later-first");
    expect(windows.sort((a, b) => parseInt(a) - parseInt(b))).toEqual([
      ...[0, 1, 2, 3].map((k) => `${k * WINDOW} 100`),
      ...[10, 11, 12, 13].map((k) => `${k * WINDOW} 100`),
    ]);
  }, 20_000);

  it("checkpointed while two readers are half-way through files of different times, resumed at parallelism 1: every event counted", async () => {
    const dir = newDir();
    const PER_FILE = 600;
    // reader 0 reads the later file: resumed in one reader, its rest comes before the earlier file's rest
    publish(nameFor(dir, "late", "txt", 0, 2), lines(20 * WINDOW, PER_FILE, 6 * WINDOW));
    publish(nameFor(dir, "early", "txt", 1, 2), lines(0, PER_FILE, 6 * WINDOW));
    const checkpoints = newDir();
    const first = StreamExecutionEnvironment.create({ parallelism: 2, autoWatermarkInterval: 1, batchSize: 8, checkpointInterval: 3_600_000, checkpointDir: checkpoints });
    const before: string[] = [];
    windowCounts(first, dir, { slowAfter: PER_FILE / 3 }).sinkTo(into(before));
    progress.length = 0;
    const client = await first.executeAsync("first");
    await waitFor("both readers a third into their files", () => (progress[0] ?? 0) >= PER_FILE / 3 && (progress[1] ?? 0) >= PER_FILE / 3, 15_000, 1);
    const checkpoint = await client.triggerCheckpoint();
    expect(progress.slice(0, 2).every((n) => n < PER_FILE), `both readers mid-file at the checkpoint: ${progress.slice(0, 2).join(", ")}`).toBe(true);
    await client.cancel();

    const resumed = StreamExecutionEnvironment.create({ parallelism: 1, autoWatermarkInterval: 1, fromSavepoint: join(checkpoints, `chk-${checkpoint.checkpointId}`) });
    const after: string[] = [];
    windowCounts(resumed, dir, { spinMs: 0.02 }).sinkTo(into(after));
    await resumed.execute("resumed");
    // a window fired before the checkpoint stays fired; one fired after it fires again in the resumed run
    const counts = new Map<number, string>();
    for (const w of [...before, ...after]) counts.set(parseInt(w), w);
    expect([...counts.values()].sort((a, b) => parseInt(a) - parseInt(b)), `fired before: ${before.join(", ")}; after: ${after.join(", ")}`).toEqual([
      ...[0, 1, 2, 3, 4, 5].map((k) => `${k * WINDOW} 100`),
      ...[20, 21, 22, 23, 24, 25].map((k) => `${k * WINDOW} 100`),
    ]);
  }, 30_000);

  it("fails after a checkpoint taken while a reader held an unstarted earlier file, restarts at parallelism 3: every event counted", async () => {
    const dir = newDir();
    const PER_FILE = 600;
    // reader 0: the later file, then the earlier one (queued at the checkpoint); reader 1: a file in between; reader 2: none (finished)
    publish(nameFor(dir, "a-late", "txt", 0, 3), lines(40 * WINDOW, PER_FILE, 6 * WINDOW));
    publish(nameFor(dir, "b-early", "txt", 0, 3), lines(0, PER_FILE, 6 * WINDOW));
    publish(nameFor(dir, "c-mid", "txt", 1, 3), lines(20 * WINDOW, PER_FILE, 6 * WINDOW));
    const env = StreamExecutionEnvironment.create({ parallelism: 3, autoWatermarkInterval: 1, batchSize: 8, checkpointInterval: 3_600_000 });
    env.setRestartStrategy(RestartStrategies.fixedDelayRestart(1, 0));
    const failOnce = { armed: false, failed: false };
    const windows: string[] = [];
    windowCounts(env, dir, { slowAfter: PER_FILE / 3, failOnce }).sinkTo(into(windows));
    progress.length = 0;
    const client = await env.executeAsync("fail-after-checkpoint");
    await waitFor("readers 0 and 1 a third into their first files", () => (progress[0] ?? 0) >= PER_FILE / 3 && (progress[1] ?? 0) >= PER_FILE / 3, 15_000, 1);
    await client.triggerCheckpoint();
    expect(progress[0], "reader 0 still in the later file at the checkpoint").toBeLessThan(PER_FILE);
    failOnce.armed = true; // the next event of any reader fails its task: the job restarts from this checkpoint
    await client.getJobExecutionResult();
    expect(client.getRestartCount()).toBe(1);
    // a window fired before the failure fires again after it
    const counts = new Map<number, string>();
    for (const w of windows) counts.set(parseInt(w), w);
    expect([...counts.values()].sort((a, b) => parseInt(a) - parseInt(b))).toEqual(
      [0, 20, 40].flatMap((from) => [0, 1, 2, 3, 4, 5].map((k) => `${(from + k) * WINDOW} 100`)),
    );
  }, 30_000);
});
