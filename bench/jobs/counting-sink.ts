/**
 * A sink for benchmarks that drops records and reports how many it received
 * (`result.getCollected<number>(name)`: one count per subtask).
 */
import type { Sink } from "../../src/index.ts";

/** Counts the records; reports the count under `name` at the end of input. */
export function countingSink<T>(name: string): Sink<T> {
  return {
    createWriter(context) {
      let count = 0;
      return {
        write() {
          count++;
        },
        finish: () => context.reportResult(name, [count]),
      };
    },
  };
}
