/**
 * A sink for benchmarks that drops records and reports how many it received
 * and when: the instant (ms since the epoch, sub-millisecond, comparable
 * between threads) at which it received its `every`-th, 2·`every`-th, …
 * record. The bench merges the marks of all subtasks into the job's progress
 * and takes its throughput in the steady state from them (bench/steady-rate.ts).
 */
import { performance } from "node:perf_hooks";
import type { Sink } from "../../src/index.ts";

/** What one subtask of a progress sink reports (`result.getCollected<SinkProgress>(name)`: one per subtask). */
export interface SinkProgress {
  /** Records received. */
  readonly count: number;
  /** Instant of each `every`-th record, in ms since the epoch. */
  readonly marks: readonly number[];
}

/**
 * Counts the records and marks the instant of every `every`-th; reports a
 * {@link SinkProgress} under `name` at the end of input.
 *
 * @example
 * ```ts
 * stream.sinkTo(progressSink<number>("received", 16_384));
 * const parts = result.getCollected<SinkProgress>("received");
 * ```
 */
export function progressSink<T>(name: string, every: number): Sink<T> {
  return {
    createWriter(context) {
      let count = 0;
      let untilMark = every;
      const marks: number[] = [];
      return {
        write() {
          count++;
          if (--untilMark === 0) {
            marks.push(performance.timeOrigin + performance.now());
            untilMark = every;
          }
        },
        finish: () => context.reportResult(name, [{ count, marks } satisfies SinkProgress]),
      };
    },
  };
}
