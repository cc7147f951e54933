/**
 * A typed configuration (Flink's `Configuration`): values of declared
 * options, read and written through the options themselves, and to and from
 * a map of strings (`-D` flags, SQL `SET`, the start of a worker thread).
 */
import { didYouMean } from "../util/did-you-mean.ts";
import { type ConfigOption, type ConfigOptionWithDefault, formatOptionValue, type OptionValue, readOptionValue } from "./config-option.ts";
import { ConfigurationError } from "./configuration-error.ts";
import { engineOption, engineOptionKeys } from "./engine-options.ts";

/**
 * Values of engine options, by key. A value that is set is valid: reading
 * text checks its type and its option's own check, and an unknown key is
 * refused with the key it is most likely a typo of.
 *
 * @example
 * ```ts
 * import { Configuration, CheckpointingOptions, PipelineOptions, StreamExecutionEnvironment } from "weirjs";
 * const conf = new Configuration()
 *   .set(PipelineOptions.PARALLELISM, 4)
 *   .setString("execution.checkpointing.interval", "10 s");
 * conf.get(CheckpointingOptions.CHECKPOINTING_INTERVAL); // 10000
 * conf.toMap(); // { "execution.checkpointing.interval": "10 s", "parallelism.default": "4" }
 * const env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
 * ```
 */
export class Configuration {
  private readonly values = new Map<string, { option: ConfigOption; value: OptionValue }>();

  /** A configuration of the string values in `map` (see {@link Configuration.setString}); `where` names their origin in errors. */
  static fromMap(map: Readonly<Record<string, string>>, where?: string): Configuration {
    const c = new Configuration();
    for (const [k, v] of Object.entries(map)) c.setString(k, v, where);
    return c;
  }

  /** The value of `option`: as set, else its default. */
  get<T extends OptionValue>(option: ConfigOptionWithDefault<T>): T;
  get<T extends OptionValue>(option: ConfigOption<T>): T | undefined;
  get<T extends OptionValue>(option: ConfigOption<T>): T | undefined {
    return (this.values.get(option.key)?.value as T | undefined) ?? option.defaultValue;
  }

  /** The value of `option` if it is set (its default does not count). */
  getOptional<T extends OptionValue>(option: ConfigOption<T>): T | undefined {
    return this.values.get(option.key)?.value as T | undefined;
  }

  /** Whether `option` is set. */
  contains(option: ConfigOption): boolean {
    return this.values.has(option.key);
  }

  /**
   * Sets `option` to `value`.
   *
   * @throws {ConfigurationError} when the option's check refuses the value.
   */
  set<T extends OptionValue>(option: ConfigOption<T>, value: T, where?: string): this {
    const problem = option.check?.(value);
    if (problem !== undefined) throw new ConfigurationError(option.key, `invalid value '${formatOptionValue(option.type, value)}' for '${option.key}': expected ${problem}`, where);
    this.values.set(option.key, { option: option as ConfigOption, value });
    return this;
  }

  /** Unsets `option`: its default applies again. */
  remove(option: ConfigOption): this {
    this.values.delete(option.key);
    return this;
  }

  /**
   * Sets the option of `key` (its key or an older name) from its text.
   *
   * @param where where the setting was given, for the error (`-D …`, `SET …`).
   * @throws {ConfigurationError} for an unknown key (naming the key meant when it looks like a typo of one) or a value that does not read.
   */
  setString(key: string, text: string, where?: string): this {
    const option = engineOption(key);
    if (option === undefined) {
      const meant = didYouMean(key, engineOptionKeys());
      throw new ConfigurationError(key, `unknown configuration key '${key}'${meant === undefined ? "" : ` (did you mean '${meant}'?)`}`, where, meant);
    }
    const read = readOptionValue(option.type, text);
    if ("error" in read) throw new ConfigurationError(key, `invalid value '${text}' for '${key}': ${read.error}`, where);
    return this.set(option, read.value, where);
  }

  /** Every value set, as text that {@link Configuration.setString} reads back, sorted by key. */
  toMap(): Record<string, string> {
    const out: Record<string, string> = {};
    for (const k of [...this.values.keys()].sort()) {
      const { option, value } = this.values.get(k)!;
      out[k] = formatOptionValue(option.type, value);
    }
    return out;
  }

  /** Sets every value set in `other` (they win). */
  addAll(other: Configuration): this {
    for (const [k, v] of other.values) this.values.set(k, v);
    return this;
  }

  /** A copy. */
  clone(): Configuration {
    return new Configuration().addAll(this);
  }
}
