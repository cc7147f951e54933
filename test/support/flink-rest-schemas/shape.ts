/**
 * Small builders for the JSON schemas of Flink's REST answers (draft-07, checked by ajv). Objects are
 * closed: a property that is not listed is a violation, every listed property is required unless it is
 * named in `optional` (Flink leaves those out when they have no value).
 */

/** A JSON schema. */
export type Schema = Readonly<Record<string, unknown>>;

/** A Java `long`: any integer. */
export const long: Schema = { type: "integer" };
/** A Java `int`: an integer in 32 bits. */
export const int: Schema = { type: "integer", minimum: -(2 ** 31), maximum: 2 ** 31 - 1 };
/** A Java `double`: any finite number. */
export const double: Schema = { type: "number" };
/** A string. */
export const text: Schema = { type: "string" };
/** A boolean. */
export const flag: Schema = { type: "boolean" };
/** A 32-digit lowercase hex id (job, vertex, trigger ids). */
export const hexId: Schema = { type: "string", pattern: "^[0-9a-f]{32}$" };

/** One of the listed strings. */
export function oneOfText(...values: readonly string[]): Schema {
  return { type: "string", enum: values };
}

/** An array of `item`. */
export function list(item: Schema): Schema {
  return { type: "array", items: item };
}

/** An object whose keys are free and whose values are `value`. */
export function map(value: Schema): Schema {
  return { type: "object", additionalProperties: value };
}

/**
 * A closed object with `fields`; all required except those named in `optional`.
 *
 * @example
 * ```ts
 * const point = closed({ x: long, y: long, label: text }, ["label"]);
 * ```
 */
export function closed(fields: Readonly<Record<string, Schema>>, optional: readonly string[] = []): Schema {
  for (const name of optional) if (!(name in fields)) throw new Error(`closed(): optional field ${name} is not a field`);
  return {
    type: "object",
    properties: fields,
    required: Object.keys(fields).filter((name) => !optional.includes(name)),
    additionalProperties: false,
  };
}

/**
 * A tagged union: `tag` holds one of the keys of `variants` and picks the closed object to check.
 *
 * @example
 * ```ts
 * const shape = tagged("kind", { circle: { r: long }, square: { side: long } });
 * ```
 */
export function tagged(tag: string, variants: Readonly<Record<string, Schema>>): Schema {
  return {
    type: "object",
    required: [tag],
    properties: { [tag]: oneOfText(...Object.keys(variants)) },
    allOf: Object.entries(variants).map(([value, schema]) => ({
      if: { properties: { [tag]: { const: value } } },
      then: schema,
    })),
  };
}
