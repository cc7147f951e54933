/**
 * Progress marks written next to a job's source, for the steady-state throughput of runs whose sinks see too
 * few rows to mark it (windowed queries) or that span threads and processes: a map chained to the source appends
 * the instant (ms since the epoch, sub-millisecond, comparable between threads and processes of one machine) of
 * every {@link SOURCE_MARK_EVERY}-th record of its subtask to `marks-<subtask>` in a folder, one a line. The
 * bench reads them back with {@link readSourceMarks} and takes the window with `steadyWindow`
 * (bench/steady-rate.ts). Files, not results reported by a sink, because a map cannot report results and the
 * cluster runs span processes.
 */
import { appendFileSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import type { DataStream } from "../../src/index.ts";

/** The marker notes the instant of every this many records of its subtask. */
export const SOURCE_MARK_EVERY = 4_096;

/**
 * `stream` passed through a marker (uid `marker`) that appends the instant of every
 * {@link SOURCE_MARK_EVERY}-th record of its subtask to `marks-<subtask>` in `dir`.
 *
 * @example
 * ```ts
 * markedSource(env.fromSequence(1, 1_000_000).uid("sequence"), "/tmp/run-1").keyBy((n) => n % 10);
 * ```
 */
export function markedSource<T>(stream: DataStream<T>, dir: string): DataStream<T> {
  return stream
    .map({
      file: "",
      untilMark: SOURCE_MARK_EVERY,
      open(ctx) {
        this.file = join(dir, `marks-${ctx.getIndexOfThisSubtask()}`);
      },
      map(value: T): T {
        if (--this.untilMark === 0) {
          appendFileSync(this.file, `${performance.timeOrigin + performance.now()}\n`);
          this.untilMark = SOURCE_MARK_EVERY;
        }
        return value;
      },
    })
    .uid("marker")
    .name("marker");
}

/**
 * The marks of each subtask in `dir` (one array per `marks-<subtask>` file), for `steadyWindow`.
 *
 * @example
 * ```ts
 * const steady = steadyWindow(readSourceMarks(dir), SOURCE_MARK_EVERY, records);
 * ```
 */
export function readSourceMarks(dir: string): number[][] {
  return readdirSync(dir)
    .filter((f) => f.startsWith("marks-"))
    .map((f) => readFileSync(join(dir, f), "utf8").trim().split("\n").map(Number));
}
