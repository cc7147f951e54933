/**
 * The options of the `kafka` and `upsert-kafka` connectors (declared with
 * Flink's keys and defaults in their factories; the ones both share here) and their reading into a {@link KafkaTableConfig}:
 * topics, start and stop positions, the key and value formats with the
 * columns each holds, and the sink's delivery guarantee and partitioner.
 * Every rule that involves several options (`topic` with `topic-pattern`,
 * `key.format` with `key.fields`, …) is checked here, when the planner
 * creates the table's source or sink, before anything runs.
 */
import { type ConfigOption, option, type OptionValue } from "../../config/config-option.ts";
import { identifierString } from "../catalog/object-identifier.ts";
import type { RowType } from "../expr/type-rules.ts";
import { didYouMean } from "../validation/nearest-name.ts";
import { SqlValidationError } from "../validation/sql-validation-error.ts";
import type { DynamicTableContext } from "./dynamic-table-factory.ts";

/** The start positions of `scan.startup.mode`. */
export const KAFKA_STARTUP_MODES = ["earliest-offset", "latest-offset", "group-offsets", "timestamp", "specific-offsets"] as const;
const boundedModes = ["unbounded", "latest-offset", "group-offsets", "timestamp", "specific-offsets"] as const;

/** The options `kafka` and `upsert-kafka` share (Flink's keys and defaults). */
export const KAFKA_COMMON_OPTIONS: readonly ConfigOption[] = [
  option("topic", { kind: "string" }, "The topic(s) to read or write, 'a;b' for several."),
  option("properties.*", { kind: "string" }, "A Kafka client property, passed through without the 'properties.' prefix."),
  option("key.format", { kind: "string" }, "The format of the message key."),
  option("key.fields-prefix", { kind: "string" }, "The prefix of the key columns' names, taken off for the key format.", ""),
  option("value.format", { kind: "string" }, "The format of the message value."),
  option("value.fields-include", { kind: "enum", values: ["ALL", "EXCEPT_KEY"] }, "Whether the value holds every physical column or all but the key's.", "ALL"),
  option("scan.bounded.mode", { kind: "enum", values: boundedModes }, "Where a bounded source stops.", "unbounded"),
  option("scan.bounded.timestamp-millis", { kind: "int" }, "The stop timestamp of 'scan.bounded.mode' = 'timestamp'."),
  option("scan.bounded.specific-offsets", { kind: "string" }, "The stop offsets of 'scan.bounded.mode' = 'specific-offsets': 'partition:0,offset:42;…'."),
  option("scan.topic-partition-discovery.interval", { kind: "duration" }, "How often new partitions are looked for; 0 disables.", 300_000),
  option("sink.parallelism", { kind: "int" }, "The parallelism of the sink; the input's parallelism when unset."),
  option("sink.delivery-guarantee", { kind: "enum", values: ["none", "at-least-once", "exactly-once"] }, "The sink's delivery guarantee.", "at-least-once"),
  option("sink.transactional-id-prefix", { kind: "string" }, "The prefix of the sink's transactional ids (required for exactly-once)."),
];

/** Where a source starts or stops. */
export type KafkaOffsets =
  | { mode: "earliest-offset" | "latest-offset" }
  | { mode: "group-offsets"; reset: "earliest" | "latest" | "none" }
  | { mode: "timestamp"; timestampMs: number }
  | { mode: "specific-offsets"; offsets: Record<string, number> };

/** A format of the key or value and the physical columns (positions) it holds, in order. */
export interface KafkaFormatSpec {
  identifier: string;
  options: ReadonlyMap<string, OptionValue>;
  fields: readonly number[];
  /** The format's row type: the fields' names (the key's without `key.fields-prefix`) and types. */
  rowType: RowType;
}

/** A `kafka` or `upsert-kafka` table's options, read and checked. */
export interface KafkaTableConfig {
  table: string;
  topics?: readonly string[];
  topicPattern?: RegExp;
  bootstrapServers: string;
  groupId?: string;
  /** `properties.*` without the prefix (bootstrap servers and group id included). */
  properties: Readonly<Record<string, string>>;
  startup: KafkaOffsets;
  /** Absent: unbounded. */
  bounded?: KafkaOffsets;
  discoveryIntervalMs: number;
  key?: KafkaFormatSpec;
  value: KafkaFormatSpec;
  deliveryGuarantee: "none" | "at-least-once" | "exactly-once";
  transactionalIdPrefix?: string;
  partitioner: "default" | "round-robin";
  sinkParallelism?: number;
  scanParallelism?: number;
}

/** A planning error naming the table. */
export function kafkaOptionError(table: string, problem: string): SqlValidationError {
  return new SqlValidationError(`Invalid options of table '${table}': ${problem}`);
}

/**
 * `partition:0,offset:42;partition:1,offset:300` of `topic` as `{ "topic-0": 42, "topic-1": 300 }`.
 *
 * @throws {SqlValidationError} naming the option when the text does not follow the format
 * @example
 * ```ts
 * parseSpecificOffsets("t", "scan.startup.specific-offsets", "orders", "partition:0,offset:42"); // { "orders-0": 42 }
 * ```
 */
export function parseSpecificOffsets(table: string, key: string, topic: string, text: string): Record<string, number> {
  const offsets: Record<string, number> = {};
  for (const part of text.split(";")) {
    const m = /^\s*partition\s*:\s*(\d+)\s*,\s*offset\s*:\s*(\d+)\s*$/.exec(part);
    if (m === null) {
      throw kafkaOptionError(table, `'${key}' should follow the format 'partition:0,offset:42;partition:1,offset:300', but is '${text}'.`);
    }
    offsets[`${topic}-${Number(m[1])}`] = Number(m[2]);
  }
  return offsets;
}

function offsetsOf(ctx: DynamicTableContext, table: string, prefix: "scan.startup" | "scan.bounded", mode: string, topics: readonly string[] | undefined): KafkaOffsets {
  const o = ctx.options.options;
  switch (mode) {
    case "earliest-offset":
    case "latest-offset":
      return { mode };
    case "group-offsets": {
      const reset = (o.get("properties.auto.offset.reset") as string | undefined)?.toLowerCase() ?? "none";
      if (reset !== "earliest" && reset !== "latest" && reset !== "none") {
        throw kafkaOptionError(table, `'properties.auto.offset.reset' must be 'earliest', 'latest' or 'none', but is '${reset}'.`);
      }
      return { mode, reset };
    }
    case "timestamp": {
      const ms = o.get(`${prefix}.timestamp-millis`) as number | undefined;
      if (ms === undefined) throw kafkaOptionError(table, `'${prefix}.timestamp-millis' is required when '${prefix}.mode' is 'timestamp'.`);
      return { mode, timestampMs: ms };
    }
    default: {
      const text = o.get(`${prefix}.specific-offsets`) as string | undefined;
      if (text === undefined) throw kafkaOptionError(table, `'${prefix}.specific-offsets' is required when '${prefix}.mode' is 'specific-offsets'.`);
      if (topics?.length !== 1) throw kafkaOptionError(table, `'${prefix}.specific-offsets' needs a single 'topic' (the offsets name partitions of it).`);
      return { mode: "specific-offsets", offsets: parseSpecificOffsets(table, `${prefix}.specific-offsets`, topics[0]!, text) };
    }
  }
}

function keyFieldsOf(ctx: DynamicTableContext, table: string, upsert: boolean, prefix: string): number[] {
  const names = ctx.physicalType.names;
  if (upsert) {
    if (ctx.primaryKey === undefined) {
      throw kafkaOptionError(table, "'upsert-kafka' tables require a PRIMARY KEY constraint: it says which columns are read from and written to the message key.");
    }
    return [...ctx.primaryKey];
  }
  const text = ctx.options.options.get("key.fields") as string | undefined;
  if (text === undefined) return [];
  return text.split(";").map((name) => {
    const i = names.indexOf(name.trim());
    if (i < 0) {
      throw kafkaOptionError(
        table,
        `could not find the field '${name}' of 'key.fields' in the table schema. A key field must be a physical column: ${names.join(", ")}.${didYouMean(name, names)}`,
      );
    }
    if (!names[i]!.startsWith(prefix)) throw kafkaOptionError(table, `the key field '${names[i]}' does not start with 'key.fields-prefix' '${prefix}'.`);
    return i;
  });
}

function formatSpec(ctx: DynamicTableContext, formatKey: string, fields: readonly number[], stripPrefix: string): KafkaFormatSpec {
  const f = ctx.options.formats.get(formatKey)!;
  return {
    identifier: f.identifier,
    options: f.options,
    fields,
    rowType: { names: fields.map((i) => ctx.physicalType.names[i]!.slice(stripPrefix.length)), types: fields.map((i) => ctx.physicalType.types[i]!) },
  };
}

const CHANGELOG_FORMATS = ["debezium-json", "canal-json"];

/**
 * Reads and checks the options of a `kafka` (or, with `upsert`, `upsert-kafka`) table.
 *
 * @throws {SqlValidationError} naming the table and the option for every contradiction or missing option
 * @example
 * ```ts
 * const config = kafkaTableConfig(ctx, "source", false);
 * config.topics; // ["orders"]
 * ```
 */
export function kafkaTableConfig(ctx: DynamicTableContext, use: "source" | "sink", upsert: boolean): KafkaTableConfig {
  const table = identifierString(ctx.table.identifier);
  const o = ctx.options.options;
  const topicText = o.get("topic") as string | undefined;
  const topics = topicText?.split(";").map((t) => t.trim()).filter((t) => t !== "");
  const patternText = o.get("topic-pattern") as string | undefined;
  if (topics !== undefined && patternText !== undefined) throw kafkaOptionError(table, "'topic' and 'topic-pattern' shouldn't be set together.");
  const writesTopicColumn = use === "sink" && (ctx.metadataKeys ?? []).includes("topic");
  if (topics === undefined && patternText === undefined && !writesTopicColumn) {
    throw kafkaOptionError(table, use === "source" ? "either 'topic' or 'topic-pattern' must be set." : "'topic' must be set (or a writable 'topic' metadata column).");
  }
  if (use === "sink" && patternText !== undefined) throw kafkaOptionError(table, "'topic-pattern' is for reading only; a sink writes to 'topic'.");
  if (use === "sink" && topics !== undefined && topics.length > 1 && !writesTopicColumn) {
    throw kafkaOptionError(table, `'topic' lists ${topics.length} topics: a sink writing to several needs a 'topic' metadata column to choose one per row.`);
  }
  let topicPattern: RegExp | undefined;
  if (patternText !== undefined) {
    try {
      topicPattern = new RegExp(`^(?:${patternText})$`);
    } catch (e) {
      throw kafkaOptionError(table, `'topic-pattern' is not a regular expression: ${(e as Error).message}.`);
    }
  }

  const properties: Record<string, string> = {};
  for (const [k, v] of o) if (k.startsWith("properties.")) properties[k.slice("properties.".length)] = String(v);

  // formats: 'format' or 'value.format', and 'key.format' with its key fields
  const formats = ctx.options.formats;
  if (formats.has("format") && formats.has("value.format")) throw kafkaOptionError(table, "'format' and 'value.format' shouldn't be set together.");
  if (!formats.has("format") && !formats.has("value.format")) {
    throw kafkaOptionError(table, upsert ? "'value.format' must be set." : "either 'format' or 'value.format' must be set.");
  }
  if (upsert && !formats.has("key.format")) throw kafkaOptionError(table, "'key.format' must be set: the key of an 'upsert-kafka' table is its PRIMARY KEY.");
  const prefix = o.get("key.fields-prefix") as string;
  const include = o.get("value.fields-include") as "ALL" | "EXCEPT_KEY";
  if (prefix !== "" && include === "ALL") {
    throw kafkaOptionError(table, "a 'key.fields-prefix' is not allowed when 'value.fields-include' is 'ALL'; set it to 'EXCEPT_KEY' to avoid field overlaps.");
  }
  const keyFields = keyFieldsOf(ctx, table, upsert, prefix);
  if (formats.has("key.format") && keyFields.length === 0) throw kafkaOptionError(table, "'key.format' needs the key columns in 'key.fields'.");
  if (!formats.has("key.format") && keyFields.length > 0) throw kafkaOptionError(table, "'key.fields' needs a 'key.format'.");
  const all = ctx.physicalType.names.map((_, i) => i);
  const valueFields = include === "ALL" ? all : all.filter((i) => !keyFields.includes(i));
  const key = keyFields.length === 0 ? undefined : formatSpec(ctx, "key.format", keyFields, prefix);
  const value = formatSpec(ctx, formats.has("format") ? "format" : "value.format", valueFields, "");
  if (key !== undefined && CHANGELOG_FORMATS.includes(key.identifier)) {
    throw kafkaOptionError(table, `the key format '${key.identifier}' is a changelog format; a key format reads and writes inserts only.`);
  }
  if (upsert && CHANGELOG_FORMATS.includes(value.identifier)) {
    throw kafkaOptionError(table, `'upsert-kafka' doesn't support the value format '${value.identifier}': it is a changelog format, and the topic is the changelog.`);
  }

  const startup = offsetsOf(ctx, table, "scan.startup", upsert ? "earliest-offset" : (o.get("scan.startup.mode") as string), topics);
  const boundedMode = o.get("scan.bounded.mode") as string;
  const bounded = boundedMode === "unbounded" ? undefined : offsetsOf(ctx, table, "scan.bounded", boundedMode, topics);

  const deliveryGuarantee = o.get("sink.delivery-guarantee") as KafkaTableConfig["deliveryGuarantee"];
  const transactionalIdPrefix = o.get("sink.transactional-id-prefix") as string | undefined;
  if (use === "sink" && deliveryGuarantee === "exactly-once" && transactionalIdPrefix === undefined) {
    throw kafkaOptionError(table, "'sink.delivery-guarantee' = 'exactly-once' needs a 'sink.transactional-id-prefix', unique to the job.");
  }
  const partitioner = (o.get("sink.partitioner") as string | undefined) ?? "default";
  if (partitioner !== "default" && partitioner !== "round-robin") {
    throw kafkaOptionError(
      table,
      `'sink.partitioner' must be 'default' or 'round-robin' ('fixed' and partitioner classes are not supported), but is '${partitioner}'.${didYouMean(partitioner, ["default", "round-robin"])}`,
    );
  }
  const positive = (k: string) => {
    const v = o.get(k) as number | undefined;
    if (v !== undefined && !(v > 0)) throw kafkaOptionError(table, `'${k}' must be positive, but is ${v}.`);
    return v;
  };
  const sinkParallelism = positive("sink.parallelism");
  const scanParallelism = positive("scan.parallelism");
  const groupId = properties["group.id"];
  return {
    table,
    ...(topics === undefined ? {} : { topics }),
    ...(topicPattern === undefined ? {} : { topicPattern }),
    bootstrapServers: properties["bootstrap.servers"]!,
    ...(groupId === undefined ? {} : { groupId }),
    properties,
    startup,
    ...(bounded === undefined ? {} : { bounded }),
    discoveryIntervalMs: o.get("scan.topic-partition-discovery.interval") as number,
    ...(key === undefined ? {} : { key }),
    value,
    deliveryGuarantee,
    ...(transactionalIdPrefix === undefined ? {} : { transactionalIdPrefix }),
    partitioner,
    ...(sinkParallelism === undefined ? {} : { sinkParallelism }),
    ...(scanParallelism === undefined ? {} : { scanParallelism }),
  };
}
