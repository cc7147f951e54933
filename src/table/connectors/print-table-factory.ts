/**
 * The `print` connector (sink only, Flink's): every row as a line of
 * `Row.toString` text, `+I[Mary, 1]`, each column's values printed as Flink
 * prints their type (`1.0` for a DOUBLE, `2020-04-15T08:05` for a TIMESTAMP).
 * Lines are prefixed as Flink's `PrintSinkOutputWriter` does: with
 * `print-identifier` `id> `; in a sink of parallelism > 1 with the subtask
 * (1-based), `id:2> `, or `2> ` without an identifier. Written to standard
 * output, or standard error with `'standard-error' = 'true'`. Accepts every
 * row kind. Not transactional: rows replayed after a failure print again.
 *
 * @example
 * ```sql
 * CREATE TABLE out (`user` STRING, cnt BIGINT) WITH ('connector' = 'print', 'print-identifier' = 'counts');
 * -- counts> +I[Mary, 1]
 * -- counts> -U[Mary, 1]
 * -- counts> +U[Mary, 2]
 * ```
 */
import { option } from "../../config/config-option.ts";
import type { Sink } from "../../core/sink.ts";
import { identifierString } from "../catalog/object-identifier.ts";
import { Row } from "../data/row.ts";
import { valueFormatOf } from "../data/value-format-of.ts";
import { ChangelogMode } from "../plan/changelog-mode.ts";
import type { DynamicTableContext, DynamicTableFactory, TableFactoryOptions, TableSink } from "./dynamic-table-factory.ts";

/**
 * Flink's prefix of printed lines: `id> `, `id:2> `, `2> ` or nothing.
 *
 * @example
 * ```ts
 * printPrefix("counts", 1, 2); // "counts:2> "
 * ```
 */
export function printPrefix(identifier: string, subtaskIndex: number, parallelism: number): string {
  let prefix = identifier;
  if (parallelism > 1) prefix += (prefix === "" ? "" : ":") + String(subtaskIndex + 1);
  return prefix === "" ? "" : prefix + "> ";
}

function createSink(ctx: DynamicTableContext): TableSink {
  const identifier = (ctx.options.options.get("print-identifier") as string | undefined) ?? "";
  const stdErr = ctx.options.options.get("standard-error") === true;
  const parallelism = ctx.options.options.get("sink.parallelism") as number | undefined;
  const formats = ctx.physicalType.types.map(valueFormatOf);
  const table = identifierString(ctx.table.identifier);
  const sink: Sink<Row> = {
    createWriter(w) {
      const prefix = printPrefix(identifier, w.subtaskIndex, w.parallelism);
      const out = stdErr ? process.stderr : process.stdout;
      return { write: (row) => void out.write(prefix + Row.toString(row, formats) + "\n") };
    },
  };
  return {
    acceptedMode: ChangelogMode.RETRACT,
    consume(stream) {
      const s = stream.sinkTo(sink).uid(ctx.uid).name(`Sink: ${table} (print)`);
      if (parallelism !== undefined) s.setParallelism(parallelism);
      return s;
    },
  };
}

/** The options of `print`, with Flink's keys and defaults. */
const OPTIONS: TableFactoryOptions = {
  requiredOptions: [],
  optionalOptions: [
    option("print-identifier", { kind: "string" }, "A prefix for each printed line."),
    option("standard-error", { kind: "boolean" }, "Print to standard error instead of standard output.", false),
    option("sink.parallelism", { kind: "int" }, "The parallelism of the sink; the input's parallelism when unset."),
  ],
};

/** The `print` connector's factory. */
export const PRINT_TABLE_FACTORY: DynamicTableFactory = { identifier: "print", ...OPTIONS, createSink };
