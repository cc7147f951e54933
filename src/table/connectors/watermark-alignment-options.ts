/**
 * Flink SQL's watermark alignment options of a table source
 * (`scan.watermark.alignment.*`): the table's source aligns its subtasks'
 * watermarks with every source of the same group, as
 * `WatermarkStrategy.withWatermarkAlignment` does (docs/event-time.md,
 * "Watermark alignment"). They take effect where the table's WATERMARK is
 * generated in its source.
 */
import { option, type ConfigOption } from "../../config/config-option.ts";
import type { WatermarkAlignmentParams } from "../../time/watermark-strategy.ts";
import { identifierString } from "../catalog/object-identifier.ts";
import { SqlValidationError } from "../validation/sql-validation-error.ts";
import type { DynamicTableContext } from "./dynamic-table-factory.ts";

const GROUP = "scan.watermark.alignment.group";
const MAX_DRIFT = "scan.watermark.alignment.max-drift";
const UPDATE_INTERVAL = "scan.watermark.alignment.update-interval";

/** The options, for the `optionalOptions` of a connector whose sources generate the table's watermarks. */
export const WATERMARK_ALIGNMENT_OPTIONS: readonly ConfigOption[] = [
  option(GROUP, { kind: "string" }, "The watermark alignment group of the source: sources of one group keep their watermarks within 'scan.watermark.alignment.max-drift' of the group's lowest."),
  option(MAX_DRIFT, { kind: "duration" }, "How far a source subtask's watermark may be ahead of its alignment group's lowest before it pauses."),
  option(UPDATE_INTERVAL, { kind: "duration" }, "How often at most a source subtask reports its watermark for alignment (default 1 s)."),
];

/**
 * The alignment the options of the table of `ctx` ask for; undefined without a group.
 *
 * @throws SqlValidationError when only one of the group and the maximum drift is given, or the interval is 0
 * @example
 * ```ts
 * // WITH (…, 'scan.watermark.alignment.group' = 'bids', 'scan.watermark.alignment.max-drift' = '20 s')
 * watermarkAlignmentOf(ctx); // { group: "bids", maxAllowedDriftMs: 20000, updateIntervalMs: 1000 }
 * ```
 */
export function watermarkAlignmentOf(ctx: DynamicTableContext): WatermarkAlignmentParams | undefined {
  const options = ctx.options.options;
  const table = identifierString(ctx.table.identifier);
  const group = options.get(GROUP) as string | undefined;
  const drift = options.get(MAX_DRIFT) as number | undefined;
  if (group === undefined && drift === undefined) return undefined;
  if (group === undefined || group === "" || drift === undefined)
    throw new SqlValidationError(`Table '${table}': watermark alignment needs both '${GROUP}' (a non-empty name) and '${MAX_DRIFT}'.`);
  const updateIntervalMs = (options.get(UPDATE_INTERVAL) as number | undefined) ?? 1_000;
  if (!(updateIntervalMs > 0)) throw new SqlValidationError(`Table '${table}': '${UPDATE_INTERVAL}' must be longer than 0 ms.`);
  return { group, maxAllowedDriftMs: drift, updateIntervalMs };
}
