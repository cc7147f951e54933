/**
 * Validation of a table's `WITH (...)` options against the options its
 * connector and format declare, in the manner and wording of Flink's
 * `FactoryUtil`: missing required options, unsupported options (with the
 * supported ones listed), and values that do not read as their type.
 */
import { type ConfigOption, type OptionValue, optionKeyMatches, readOptionValue } from "../../config/config-option.ts";
import { didYouMean, nearestName } from "../validation/nearest-name.ts";
import { SqlValidationError } from "../validation/sql-validation-error.ts";

/**
 * The options a connector or format factory declares. A connector that
 * declares a `format` option reads a format, whose options are given with the
 * format's identifier as prefix (`'json.ignore-parse-errors'`), as in Flink.
 */
export interface FactoryOptions extends FactoryDeclaration {
  kind: "connector" | "format";
}

/** A factory's identifier and the options it declares (a connector's factory is one). */
export interface FactoryDeclaration {
  readonly identifier: string;
  readonly requiredOptions: readonly ConfigOption[];
  readonly optionalOptions: readonly ConfigOption[];
  /**
   * The options that name a format (default: `format` when declared). The
   * options of the format named by `x.format` take the prefix `x.<format>.`
   * (`'value.format' = 'json'` → `'value.json.ignore-parse-errors'`), as in Flink.
   */
  readonly formatKeys?: readonly string[];
}

/** The options of a table once validated: read values, defaults filled in. */
export interface ValidatedTableOptions {
  connector: string;
  /** Connector options by key (as given for pattern keys), `connector` itself excluded. */
  options: Map<string, OptionValue>;
  /** The format (of the `format` option) and its options by unprefixed key, when the connector has one. */
  format?: { identifier: string; options: Map<string, OptionValue> };
  /** Every format given, by the option that names it (`format`, `key.format`, `value.format`). */
  formats: Map<string, { identifier: string; options: Map<string, OptionValue> }>;
}

/** The table whose options are validated, and whether it is read or written, as the error names them. */
export interface TableUse {
  /** The table's full name, e.g. `default_catalog.default_database.clicks`. */
  table: string;
  as: "source" | "sink";
}

/**
 * The connector and format factories a session knows, by identifier: the
 * connectors (`C`: a connector's factory, which declares its options) and
 * the formats' declarations.
 */
export class FactoryRegistry<C extends FactoryDeclaration = FactoryDeclaration> {
  private readonly connectors = new Map<string, C>();
  private readonly formats = new Map<string, FactoryDeclaration>();

  /**
   * Adds a connector's factory.
   *
   * @example
   * ```ts
   * registry.registerConnector({ identifier: "blackhole", requiredOptions: [], optionalOptions: [] });
   * ```
   */
  registerConnector(factory: C): this {
    this.connectors.set(factory.identifier, factory);
    return this;
  }

  /** Adds a format's declaration. */
  registerFormat(format: FactoryDeclaration): this {
    this.formats.set(format.identifier, format);
    return this;
  }

  /** The connector factory of `identifier`, if registered. */
  connector(identifier: string): C | undefined {
    return this.connectors.get(identifier);
  }

  /** The connectors' identifiers, sorted. */
  connectorIdentifiers(): string[] {
    return [...this.connectors.keys()].sort();
  }

  /**
   * Validates `options` (a table's `WITH` clause) and reads their values.
   *
   * @param use the table and its use, which the error names first (Flink's
   * `Unable to create a sink for writing table '…'.`)
   * @throws {SqlValidationError} with Flink's messages for a missing or unknown connector or format, missing required
   * options, unsupported options and invalid values.
   * @example
   * ```ts
   * const v = tableFactoryRegistry().validate(new Map([["connector", "print"], ["print-identifier", "out"]]));
   * v.options.get("standard-error"); // false
   * ```
   */
  validate(options: ReadonlyMap<string, string>, use?: TableUse): ValidatedTableOptions {
    if (use === undefined) return this.validateOptions(options);
    try {
      return this.validateOptions(options);
    } catch (e) {
      if (!(e instanceof SqlValidationError)) throw e;
      const what = use.as === "source" ? "a source for reading" : "a sink for writing";
      throw new SqlValidationError(`Unable to create ${what} table '${use.table}'.\n\n${e.detail}`);
    }
  }

  private validateOptions(options: ReadonlyMap<string, string>): ValidatedTableOptions {
    const connectorId = options.get("connector");
    if (connectorId === undefined) {
      throw new SqlValidationError("Table options do not contain an option key 'connector' for discovering a connector.");
    }
    const connector = this.find(this.connectors, connectorId, "DynamicTableFactory");
    const declaredKeys = [...connector.requiredOptions, ...connector.optionalOptions].map((o) => o.key);
    const formatKeys = connector.formatKeys ?? (declaredKeys.includes("format") ? ["format"] : []);
    const formats = formatKeys.flatMap((formatKey) => {
      const id = options.get(formatKey);
      if (id === undefined) return [];
      const factory = this.find(this.formats, id, "DeserializationFormatFactory");
      return [{ formatKey, factory, prefix: `${formatKey.slice(0, -"format".length)}${factory.identifier}.` }];
    });

    type Declared = { option: ConfigOption; fullKey: string; required: boolean; format?: string; prefix: string };
    const declared: Declared[] = [
      ...connector.requiredOptions.map((option) => ({ option, fullKey: option.key, required: true, prefix: "" })),
      ...connector.optionalOptions.map((option) => ({ option, fullKey: option.key, required: false, prefix: "" })),
      ...formats.flatMap(({ formatKey, factory, prefix }) => [
        ...factory.requiredOptions.map((option) => ({ option, fullKey: prefix + option.key, required: true, format: formatKey, prefix })),
        ...factory.optionalOptions.map((option) => ({ option, fullKey: prefix + option.key, required: false, format: formatKey, prefix })),
      ]),
    ];

    const missing = declared.filter((d) => d.required && ![...options.keys()].some((k) => optionKeyMatches(d.fullKey, k))).map((d) => d.fullKey);
    if (missing.length > 0) {
      throw new SqlValidationError(`One or more required options are missing.\n\nMissing required options are:\n\n${missing.sort().join("\n")}`);
    }

    const result: ValidatedTableOptions = { connector: connector.identifier, options: new Map(), formats: new Map() };
    for (const f of formats) result.formats.set(f.formatKey, { identifier: f.factory.identifier, options: new Map() });
    const unsupported: string[] = [];
    for (const [key, text] of options) {
      if (key === "connector") continue;
      const d = declared.find((x) => optionKeyMatches(x.fullKey, key));
      if (d === undefined) {
        unsupported.push(key);
        continue;
      }
      const read = readOptionValue(d.option.type, text);
      if ("error" in read) throw new SqlValidationError(`Invalid value for option '${key}': '${text}' (${read.error}).`);
      if (d.format !== undefined) result.formats.get(d.format)!.options.set(key.slice(d.prefix.length), read.value);
      else result.options.set(key, read.value);
    }
    const supported = ["connector", ...declared.map((d) => d.fullKey)].sort();
    if (unsupported.length > 0) {
      const lines = unsupported.sort().map((k) => {
        const near = nearestName(k, supported.map((c) => instantiatePattern(c, k)));
        return near === undefined ? k : `${k} (did you mean '${near}'?)`;
      });
      throw new SqlValidationError(
        `Unsupported options found for '${connector.identifier}'.\n\nUnsupported options:\n\n${lines.join("\n")}\n\nSupported options:\n\n${supported.join("\n")}`,
      );
    }
    for (const d of declared) {
      if (d.option.defaultValue === undefined || d.option.key.includes("#") || d.option.key.endsWith(".*")) continue;
      const target = d.format !== undefined ? result.formats.get(d.format)!.options : result.options;
      const key = d.format !== undefined ? d.option.key : d.fullKey;
      if (!target.has(key)) target.set(key, d.option.defaultValue);
    }
    const format = result.formats.get("format");
    if (format !== undefined) result.format = format;
    return result;
  }

  private find<F extends FactoryDeclaration>(factories: Map<string, F>, id: string, kind: string): F {
    const f = factories.get(id);
    if (f !== undefined) return f;
    const ids = [...factories.keys()].sort();
    throw new SqlValidationError(
      `Could not find any factory for identifier '${id}' that implements '${kind}'.${didYouMean(id, ids)}\n\nAvailable factory identifiers are:\n\n${ids.join("\n")}`,
    );
  }
}

/** A pattern key with its `#` segments taken from `given` when both have as many segments: `fields.id.length` for `fields.id.lenght`. */
function instantiatePattern(key: string, given: string): string {
  const parts = key.split(".");
  const givenParts = given.split(".");
  if (!key.includes("#") || parts.length !== givenParts.length) return key;
  return parts.map((p, i) => (p === "#" ? givenParts[i]! : p)).join(".");
}
