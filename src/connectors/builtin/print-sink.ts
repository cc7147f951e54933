/**
 * `stream.print()`: writes every record to standard output, prefixed with the
 * subtask (`3> …`) when the sink runs in parallel, as Flink does. Not
 * transactional: records replayed after a failure are printed again.
 */
import { inspect } from "node:util";
import type { Sink, SinkWriter } from "../../core/sink.ts";

/** Formats a record the way `print()` shows it. */
export function formatRecord(value: unknown): string {
  if (typeof value === "string") return value;
  return inspect(value, { depth: 6, breakLength: Infinity, compact: true });
}

/** Creates the print sink; `prefix` goes before every line. */
export function printSink<T>(prefix = "", write: (line: string) => void = (l) => void process.stdout.write(l)): Sink<T> {
  return {
    createWriter(ctx): SinkWriter<T> {
      const tag = prefix + (ctx.parallelism > 1 ? `${ctx.subtaskIndex + 1}> ` : prefix ? "> " : "");
      let lines: string[] = [];
      const drain = () => {
        if (lines.length > 0) write(lines.join(""));
        lines = [];
      };
      return {
        write(value) {
          lines.push(tag + formatRecord(value) + "\n");
          if (lines.length >= 256) drain();
        },
        finish: drain,
        close: drain,
      };
    },
  };
}
