/**
 * A declared option of a connector or format, as Flink's `ConfigOption`: a
 * key (possibly a pattern such as `fields.#.kind`), a type and a default.
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
 */
export interface ConfigOption {
  key: string;
  type: OptionType;
  /** The value when the option is not given; as read, not as text. */
  defaultValue?: OptionValue;
  description: string;
}

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
