/**
 * A declared option, as Flink's `ConfigOption`: a key (possibly a pattern such
 * as `fields.#.kind`), a type, a default and a one-sentence description. The
 * engine's options (`src/config/options/`) and every SQL connector's and
 * format's options are declared this way.
 */
import { parseDuration } from "./parse-duration.ts";
import { parseMemorySize } from "./parse-memory-size.ts";

/** The type of an option's value and how its text is read. */
export type OptionType =
  | { kind: "string" }
  | { kind: "int" }
  | { kind: "double" }
  | { kind: "boolean" }
  /** Read in milliseconds. */
  | { kind: "duration" }
  /** Read in bytes. */
  | { kind: "memory" }
  /** One of `values`, matched case-insensitively and read as written in `values`. */
  | { kind: "enum"; values: readonly string[] };

/** The value of an option once read: text, a number (int, double, milliseconds, bytes) or a boolean. */
export type OptionValue = string | number | boolean;

/**
 * A declared option. In `key`, a `#` segment stands for any name, e.g. the
 * field name in datagen's `fields.#.kind`; a key ending in `.*` declares every
 * key with that prefix (Kafka's `properties.*`, passed through to the client).
 * `T` is the type of the value once read.
 */
export interface ConfigOption<T extends OptionValue = OptionValue> {
  readonly key: string;
  readonly type: OptionType;
  /** The value when the option is not given; as read, not as text. */
  readonly defaultValue?: T;
  /** What the option does, one sentence for users (the docs table shows it). */
  readonly description: string;
  /** Older or alternative keys that mean the same option (Flink's deprecated keys). */
  readonly aliases?: readonly string[];
  /** A further check of a read value: a message saying what was expected, or `undefined` when it is fine. */
  check?(value: T): string | undefined;
}

/** An option with a default: reading it always gives a value. */
export type ConfigOptionWithDefault<T extends OptionValue> = ConfigOption<T> & { readonly defaultValue: T };

/**
 * Declares an option.
 *
 * @example
 * ```ts
 * const interval = option("source.monitor-interval", { kind: "duration" }, "How often to look for new files.");
 * const fileSize = option("sink.rolling-policy.file-size", { kind: "memory" }, "Maximum part size.", 128 * 1024 * 1024);
 * ```
 */
export function option(key: string, type: OptionType, description: string, defaultValue?: OptionValue): ConfigOption {
  return defaultValue === undefined ? { key, type, description } : { key, type, description, defaultValue };
}

/** The rest of a typed option's declaration. */
export interface OptionExtras<T extends OptionValue> {
  readonly aliases?: readonly string[];
  readonly check?: (value: T) => string | undefined;
}

/**
 * Builders of typed options (Flink's `ConfigOptions.key(…).intType().defaultValue(…)`).
 *
 * @example
 * ```ts
 * const PORT = ConfigOptions.int("rest.port", "The port of the REST server.", 8081);
 * const MODE = ConfigOptions.enumeration("execution.checkpointing.mode", ["EXACTLY_ONCE", "AT_LEAST_ONCE"], "The guarantee.", "EXACTLY_ONCE");
 * configuration.get(PORT); // 8081 (a number)
 * ```
 */
export const ConfigOptions = {
  string: typed<string>({ kind: "string" }),
  int: typed<number>({ kind: "int" }),
  double: typed<number>({ kind: "double" }),
  boolean: typed<boolean>({ kind: "boolean" }),
  /** Milliseconds, written as Flink's duration text (`'500 ms'`, `'1 min'`). */
  duration: typed<number>({ kind: "duration" }),
  /** Bytes, written as Flink's memory size text (`'128 mb'`). */
  memory: typed<number>({ kind: "memory" }),
  enumeration,
};

function enumeration<const V extends string>(key: string, values: readonly V[], description: string, defaultValue: V, extras?: OptionExtras<V>): ConfigOptionWithDefault<V>;
function enumeration<const V extends string>(key: string, values: readonly V[], description: string, defaultValue?: undefined, extras?: OptionExtras<V>): ConfigOption<V>;
function enumeration<const V extends string>(key: string, values: readonly V[], description: string, defaultValue?: V, extras?: OptionExtras<V>): ConfigOption<V> {
  return declare<V>(key, { kind: "enum", values }, description, defaultValue, extras);
}

function typed<T extends OptionValue>(type: OptionType) {
  function make(key: string, description: string, defaultValue: T, extras?: OptionExtras<T>): ConfigOptionWithDefault<T>;
  function make(key: string, description: string, defaultValue?: undefined, extras?: OptionExtras<T>): ConfigOption<T>;
  function make(key: string, description: string, defaultValue?: T, extras?: OptionExtras<T>): ConfigOption<T> {
    return declare<T>(key, type, description, defaultValue, extras);
  }
  return make;
}

function declare<T extends OptionValue>(key: string, type: OptionType, description: string, defaultValue: T | undefined, extras: OptionExtras<T> = {}): ConfigOption<T> {
  return { key, type, description, ...(defaultValue === undefined ? {} : { defaultValue }), ...extras };
}

/** Whether the option `key` (a pattern key when it has `#` segments) declares `given`. */
export function optionKeyMatches(key: string, given: string): boolean {
  if (key.endsWith(".*")) return given.length > key.length - 1 && given.startsWith(key.slice(0, -1));
  if (!key.includes("#")) return key === given;
  const pattern = key
    .split(".")
    .map((part) => (part === "#" ? "[^.]+" : part.replace(/[.*+?^${}()|[\]\\-]/g, "\\$&")))
    .join("\\.");
  return new RegExp(`^${pattern}$`).test(given);
}

/**
 * Reads the text of an option as its type says, or returns a message saying
 * what was expected.
 *
 * @example
 * ```ts
 * readOptionValue({ kind: "duration" }, "1 s"); // { value: 1000 }
 * readOptionValue({ kind: "int" }, "ten"); // { error: "expected an integer" }
 * ```
 */
export function readOptionValue(type: OptionType, text: string): { value: OptionValue } | { error: string } {
  switch (type.kind) {
    case "string":
      return { value: text };
    case "int": {
      const t = text.trim();
      return /^[-+]?\d+$/.test(t) && Number.isSafeInteger(Number(t)) ? { value: Number(t) } : { error: "expected an integer" };
    }
    case "double": {
      const t = text.trim();
      return t !== "" && Number.isFinite(Number(t)) ? { value: Number(t) } : { error: "expected a number" };
    }
    case "boolean": {
      const t = text.trim().toLowerCase();
      return t === "true" || t === "false" ? { value: t === "true" } : { error: "expected 'true' or 'false'" };
    }
    case "duration": {
      const ms = parseDuration(text);
      return ms === undefined ? { error: "expected a duration such as '1 s', '500 ms' or '1 min'" } : { value: ms };
    }
    case "memory": {
      const bytes = parseMemorySize(text);
      return bytes === undefined ? { error: "expected a memory size such as '128 mb' or '1 kb'" } : { value: bytes };
    }
    case "enum": {
      const v = type.values.find((x) => x.toLowerCase() === text.trim().toLowerCase());
      return v === undefined ? { error: `expected one of ${type.values.map((x) => `'${x}'`).join(", ")}` } : { value: v };
    }
  }
}

/**
 * The text of a read value, which {@link readOptionValue} reads back to the
 * same value: durations and memory sizes in their largest whole unit.
 *
 * @example
 * ```ts
 * formatOptionValue({ kind: "duration" }, 60_000); // "1 min"
 * formatOptionValue({ kind: "memory" }, 128 * 1024 * 1024); // "128 mb"
 * formatOptionValue({ kind: "boolean" }, true); // "true"
 * ```
 */
export function formatOptionValue(type: OptionType, value: OptionValue): string {
  if (typeof value !== "number") return String(value);
  if (type.kind === "duration") return inLargestUnit(value, [[86_400_000, "d"], [3_600_000, "h"], [60_000, "min"], [1_000, "s"]], "ms");
  if (type.kind === "memory") return inLargestUnit(value, [[1024 ** 4, "tb"], [1024 ** 3, "gb"], [1024 ** 2, "mb"], [1024, "kb"]], "b");
  return String(value);
}

function inLargestUnit(n: number, units: readonly (readonly [number, string])[], base: string): string {
  for (const [size, unit] of units) if (n > 0 && n % size === 0) return `${n / size} ${unit}`;
  return `${n} ${base}`;
}
