/**
 * The `datagen` connector (source only, Flink's): generated rows, configured
 * per column with `fields.<name>.…` options.
 *
 * - `rows-per-second` (10000): the rate over all subtasks, against the engine's clock;
 * - `number-of-rows`: the number of rows, which makes the source bounded;
 *   without it (and without sequence fields) the source is unbounded;
 * - `fields.<f>.kind`: `random` (default) or `sequence`;
 * - `fields.<f>.min` / `.max`: the range of a random number (the type's range by default);
 * - `fields.<f>.length`: the length of a random string or bytes (100; the declared
 *   length of CHAR/BINARY), the size of a random ARRAY or MAP;
 * - `fields.<f>.start` / `.end`: a sequence field's first and last values
 *   (required); the source ends after the shortest sequence (or `number-of-rows`);
 * - `fields.<f>.null-rate` (0): the fraction of NULLs of a random field;
 * - `fields.<f>.max-past` (0): a random DATE, TIME, TIMESTAMP or TIMESTAMP_LTZ
 *   lies up to this long before the time it is generated;
 * - `seed` (Weir's, Flink has none): the seed of the random values; with it
 *   the same rows come out on every run and at any parallelism (timestamps
 *   aside: they follow the clock).
 *
 * Rows are split across subtasks by index, so a sequence's values are each
 * generated once at any parallelism; each split's position is checkpointed,
 * so recovery neither loses nor repeats a row. Computed columns and
 * WATERMARKs work as on any table.
 *
 * @example
 * ```sql
 * CREATE TABLE orders (
 *   id BIGINT, price DECIMAL(10, 2), buyer STRING, ts TIMESTAMP(3),
 *   WATERMARK FOR ts AS ts - INTERVAL '5' SECOND
 * ) WITH ('connector' = 'datagen', 'number-of-rows' = '1000', 'seed' = '42',
 *   'fields.id.kind' = 'sequence', 'fields.id.start' = '1', 'fields.id.end' = '1000',
 *   'fields.price.min' = '1', 'fields.price.max' = '100', 'fields.buyer.length' = '8',
 *   'fields.ts.max-past' = '10 s');
 * ```
 */
import { systemClock } from "../../util/clock.ts";
import { WatermarkStrategy } from "../../time/watermark-strategy.ts";
import { option } from "../../config/config-option.ts";
import type { OptionValue } from "../../config/config-option.ts";
import { identifierString } from "../catalog/object-identifier.ts";
import type { Row } from "../data/row.ts";
import { ChangelogMode } from "../plan/changelog-mode.ts";
import { didYouMean } from "../validation/nearest-name.ts";
import { SqlValidationError } from "../validation/sql-validation-error.ts";
import { fieldGenerator } from "./datagen-field-generator.ts";
import { datagenSource } from "./datagen-source.ts";
import type { DynamicTableContext, DynamicTableFactory, TableFactoryOptions, TableSource } from "./dynamic-table-factory.ts";
import { sourceWatermarkStrategy } from "./source-watermarks.ts";
import { WATERMARK_ALIGNMENT_OPTIONS, watermarkAlignmentOf } from "./watermark-alignment-options.ts";

/** The options of each column by suffix, refusing `fields.<f>.…` of a column the table does not have. */
function fieldOptions(ctx: DynamicTableContext, table: string): Map<string, Map<string, OptionValue>> {
  const byColumn = new Map(ctx.physicalType.names.map((n) => [n, new Map<string, OptionValue>()]));
  for (const [key, value] of ctx.options.options) {
    if (!key.startsWith("fields.")) continue;
    const rest = key.slice("fields.".length);
    const dot = rest.lastIndexOf(".");
    const column = rest.slice(0, dot);
    const options = byColumn.get(column);
    if (options === undefined) {
      throw new SqlValidationError(
        `Table '${table}': the option '${key}' names the column '${column}', which the table does not have.${didYouMean(column, byColumn.keys())} Its columns are: ${[...byColumn.keys()].join(", ")}.`,
      );
    }
    options.set(rest.slice(dot + 1), value);
  }
  return byColumn;
}

function createSource(ctx: DynamicTableContext): TableSource {
  const table = identifierString(ctx.table.identifier);
  const options = ctx.options.options;
  const rowsPerSecond = options.get("rows-per-second") as number;
  if (!(rowsPerSecond > 0)) throw new SqlValidationError(`Table '${table}': invalid value for option 'rows-per-second': it must be positive.`);
  const numberOfRows = options.get("number-of-rows") as number | undefined;
  if (numberOfRows !== undefined && numberOfRows < 0) throw new SqlValidationError(`Table '${table}': invalid value for option 'number-of-rows': it must not be negative.`);
  const byColumn = fieldOptions(ctx, table);
  const specs = ctx.physicalType.names.map((column, i) =>
    fieldGenerator({ table, column, options: byColumn.get(column)!, timeZone: ctx.timeZone }, ctx.physicalType.types[i]!),
  );
  const lengths = specs.flatMap((s) => (s.sequenceLength === undefined ? [] : [s.sequenceLength]));
  const bounds = [...lengths, ...(numberOfRows === undefined ? [] : [numberOfRows])];
  const rows = bounds.length === 0 ? undefined : Math.min(...bounds);
  const seed = options.get("seed") as number | undefined;
  const spec = {
    fields: specs.map((s) => s.generate),
    ...(rows === undefined ? {} : { rows }),
    rowsPerSecond,
    seed: seed === undefined ? Math.floor(Math.random() * 2 ** 32) : seed >>> 0,
    clock: ctx.env.options.clock ?? systemClock,
  };
  return {
    changelogMode: ChangelogMode.INSERT_ONLY,
    supportsWatermarkPushDown: true,
    watermarkAlignment: watermarkAlignmentOf(ctx),
    unbounded: rows === undefined,
    produce(watermarks) {
      const strategy = watermarks === undefined ? WatermarkStrategy.noWatermarks<Row>() : sourceWatermarkStrategy(watermarks);
      return ctx.env.fromSource(datagenSource(spec), strategy, `Source: ${table}`).uid(ctx.uid).name(`Source: ${table} (datagen)`);
    },
  };
}

/** The options of `datagen`, with Flink's keys and defaults. */
const OPTIONS: TableFactoryOptions = {
  requiredOptions: [],
  optionalOptions: [
    ...WATERMARK_ALIGNMENT_OPTIONS,
    option("rows-per-second", { kind: "int" }, "Rows generated per second.", 10_000),
    option("number-of-rows", { kind: "int" }, "The number of rows to generate; unbounded when unset."),
    option("seed", { kind: "int" }, "The seed of the random values, for the same rows on every run (Weir's; Flink has none)."),
    option("fields.#.kind", { kind: "enum", values: ["random", "sequence"] }, "The generator of the field.", "random"),
    option("fields.#.min", { kind: "string" }, "The minimum value of a random numeric field."),
    option("fields.#.max", { kind: "string" }, "The maximum value of a random numeric field."),
    option("fields.#.max-past", { kind: "duration" }, "The maximum past of a random timestamp field relative to now.", 0),
    option("fields.#.length", { kind: "int" }, "The length of a random string, bytes or collection field.", 100),
    option("fields.#.start", { kind: "string" }, "The first value of a sequence field."),
    option("fields.#.end", { kind: "string" }, "The last value of a sequence field."),
    option("fields.#.null-rate", { kind: "double" }, "The fraction of null values of the field.", 0),
  ],
};

/**
 * The `datagen` connector's factory.
 *
 * @example
 * ```ts
 * const source = DATAGEN_TABLE_FACTORY.createSource!(ctx); // ctx.options: 'number-of-rows', 'fields.id.kind', …
 * source.produce().print();
 * ```
 */
export const DATAGEN_TABLE_FACTORY: DynamicTableFactory = { identifier: "datagen", ...OPTIONS, createSource };
