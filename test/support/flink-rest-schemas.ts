/**
 * Checks REST answers against Flink's OpenAPI schemas (test/fixtures/flink-rest/): the schema of the
 * response of `method path`, made strict: an object may hold only the properties its schema declares
 * (unless the schema says `additionalProperties`), the `className` discriminators pick the subtype, and
 * the int32/int64/double formats are checked. Flink's custom serializers replace four schemas
 * (serializer-overrides.yml).
 */
import { readFileSync } from "node:fs";
import { Ajv2019, type ErrorObject } from "ajv/dist/2019.js";
import { parse } from "yaml";

type Schema = Record<string, unknown>;

const dir = new URL("../fixtures/flink-rest/", import.meta.url);
const spec = parse(readFileSync(new URL("rest_v1_dispatcher.yml", dir), "utf8")) as {
  paths: Record<string, Record<string, { responses: Record<string, { content?: { "application/json"?: { schema: Schema } } }> }>>;
  components: { schemas: Record<string, Schema> };
};
const overrides = parse(readFileSync(new URL("serializer-overrides.yml", dir), "utf8")) as Record<string, Schema>;

/** Component schemas in JSON Schema 2019-09 form, strict, with discriminators as if/then on `className`. */
function strictSchemas(): Record<string, Schema> {
  const source = { ...spec.components.schemas, ...overrides };
  const out: Record<string, Schema> = {};
  const bases = new Set<string>();
  for (const [name, schema] of Object.entries(source)) {
    const discriminator = schema["discriminator"] as { propertyName: string; mapping: Record<string, string> } | undefined;
    if (!discriminator) continue;
    const { discriminator: _, ...base } = schema;
    out[`${name}Base`] = base;
    bases.add(name);
    let dispatch: Schema | false = false;
    for (const [value, ref] of Object.entries(discriminator.mapping).reverse())
      dispatch = { if: { properties: { [discriminator.propertyName]: { const: value } } }, then: { $ref: ref }, else: dispatch };
    out[name] = { type: "object", required: [discriminator.propertyName], ...(dispatch as Schema) };
  }
  for (const [name, schema] of Object.entries(source)) {
    if (bases.has(name)) continue;
    let s = schema;
    // a subtype's allOf names the base without its dispatch
    if (Array.isArray(s["allOf"]))
      s = { ...s, allOf: (s["allOf"] as Schema[]).map((part) => (typeof part["$ref"] === "string" && bases.has(refName(part["$ref"])) ? { $ref: `#/components/schemas/${refName(part["$ref"])}Base` } : part)) };
    const object = s["type"] === "object" && (s["properties"] !== undefined || s["allOf"] !== undefined);
    out[name] = object && s["additionalProperties"] === undefined ? { ...s, unevaluatedProperties: false } : s;
  }
  return out;
}

function refName(ref: string): string {
  return ref.slice(ref.lastIndexOf("/") + 1);
}

const ajv = new Ajv2019({ strict: false, allErrors: true });
ajv.addFormat("int32", { type: "number", validate: (n: number) => Number.isInteger(n) && n >= -(2 ** 31) && n < 2 ** 31 });
ajv.addFormat("int64", { type: "number", validate: (n: number) => Number.isInteger(n) });
ajv.addFormat("double", { type: "number", validate: (n: number) => Number.isFinite(n) });
ajv.addFormat("binary", true);
ajv.addFormat("byte", true);
ajv.addSchema({ $id: "flink", components: { schemas: strictSchemas() } });

/** The OpenAPI path template matching `path` (`/jobs/{jobid}` for `/jobs/0a1b…`). */
function template(path: string): string | undefined {
  const segments = path.split("/");
  return Object.keys(spec.paths).find((t) => {
    const ts = t.split("/");
    return ts.length === segments.length && ts.every((s, i) => s.startsWith("{") || s === segments[i]);
  });
}

/**
 * The schema violations of `body`, the answer with `status` to `method path` (`/v1` stripped, no query), as
 * messages; empty when it conforms. Throws when Flink's file has no such response.
 *
 * @example
 * ```ts
 * expect(violations("GET", "/overview", 200, await (await fetch(url + "/overview")).json())).toEqual([]);
 * ```
 */
export function violations(method: string, path: string, status: number, body: unknown): string[] {
  const t = template(path.replace(/^\/v1(?=\/)/, ""));
  const operation = t === undefined ? undefined : spec.paths[t]![method.toLowerCase()];
  const response = operation?.responses[String(status)];
  if (!response) throw new Error(`Flink's REST API has no ${status} answer to ${method} ${path}`);
  const schema = response.content?.["application/json"]?.schema;
  if (!schema) return [];
  const ref = refName(schema["$ref"] as string);
  const validate = ajv.getSchema(`flink#/components/schemas/${ref}`)!;
  if (validate(body)) return [];
  return (validate.errors ?? []).map((e: ErrorObject) => `${ref}${e.instancePath}: ${e.message}${e.params ? ` ${JSON.stringify(e.params)}` : ""}`);
}
