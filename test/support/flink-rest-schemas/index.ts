/**
 * Strict JSON schemas of the answers of Flink's REST API, for every endpoint Weir serves, written for
 * Weir's contract tests (the field names, types and enums are those of Flink's answers): an object may
 * hold only the fields listed, the fields Flink always writes must be there, numbers must be whole where
 * Flink writes a Java `int` or `long`.
 */
import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import { clusterOverview, dashboardConfig, taskManagers } from "./cluster.ts";
import { checkpointConfig, checkpointDetails, checkpointStatistics, vertexCheckpointDetails } from "./checkpoints.ts";
import { jobConfig, jobDetails, jobExceptions, jobIds, jobsOverview } from "./jobs.ts";
import { operationStatus, triggered } from "./operations.ts";
import type { Schema } from "./shape.ts";
import { aggregatedMetrics, flameGraph, metricList, subtaskTimes, vertexBackPressure, vertexDetails } from "./vertices.ts";

/** `method path-pattern status` → the schema of the answer's body, or null when Flink answers with no body. */
const ANSWERS: readonly (readonly [string, string, number, Schema | null])[] = [
  ["GET", "/config", 200, dashboardConfig],
  ["GET", "/overview", 200, clusterOverview],
  ["GET", "/taskmanagers", 200, taskManagers],
  ["GET", "/jobs", 200, jobIds],
  ["GET", "/jobs/overview", 200, jobsOverview],
  ["GET", "/jobs/:jid", 200, jobDetails],
  ["PATCH", "/jobs/:jid", 202, null],
  ["GET", "/jobs/:jid/config", 200, jobConfig],
  ["GET", "/jobs/:jid/exceptions", 200, jobExceptions],
  ["GET", "/jobs/:jid/metrics", 200, metricList],
  ["GET", "/jobs/:jid/checkpoints", 200, checkpointStatistics],
  ["GET", "/jobs/:jid/checkpoints/config", 200, checkpointConfig],
  ["GET", "/jobs/:jid/checkpoints/details/:cid", 200, checkpointDetails],
  ["GET", "/jobs/:jid/checkpoints/details/:cid/subtasks/:vid", 200, vertexCheckpointDetails],
  ["POST", "/jobs/:jid/savepoints", 202, triggered],
  ["GET", "/jobs/:jid/savepoints/:rid", 200, operationStatus],
  ["POST", "/jobs/:jid/stop", 202, triggered],
  ["GET", "/jobs/:jid/vertices/:vid", 200, vertexDetails],
  ["GET", "/jobs/:jid/vertices/:vid/backpressure", 200, vertexBackPressure],
  ["GET", "/jobs/:jid/vertices/:vid/flamegraph", 200, flameGraph],
  ["GET", "/jobs/:jid/vertices/:vid/metrics", 200, metricList],
  ["GET", "/jobs/:jid/vertices/:vid/watermarks", 200, metricList],
  ["GET", "/jobs/:jid/vertices/:vid/subtasks/metrics", 200, aggregatedMetrics],
  ["GET", "/jobs/:jid/vertices/:vid/subtasktimes", 200, subtaskTimes],
];

const ajv = new Ajv({ allErrors: true, strict: false });
const compiled = new Map<Schema, ValidateFunction>();

function validatorOf(schema: Schema): ValidateFunction {
  let v = compiled.get(schema);
  if (!v) compiled.set(schema, (v = ajv.compile(schema)));
  return v;
}

function matches(pattern: string, path: string): boolean {
  const want = pattern.split("/");
  const got = path.split("/");
  return want.length === got.length && want.every((segment, i) => segment.startsWith(":") || segment === got[i]);
}

/**
 * The schema violations of `body`, the answer with `status` to `method path` (`/v1` and the query are
 * stripped), as messages; empty when it conforms. Throws when Flink's REST API has no such answer.
 *
 * @example
 * ```ts
 * expect(violations("GET", "/overview", 200, await (await fetch(url + "/overview")).json())).toEqual([]);
 * ```
 */
export function violations(method: string, path: string, status: number, body: unknown): string[] {
  const bare = path.split("?")[0]!.replace(/^\/v1(?=\/)/, "");
  // a literal segment wins over a parameter (`/jobs/overview` is not the job `overview`)
  const candidates = ANSWERS.filter(([m, p, s]) => m === method.toUpperCase() && s === status && matches(p, bare));
  const answer = candidates.find(([, p]) => !p.includes(":")) ?? candidates[0];
  if (!answer) throw new Error(`Flink's REST API has no ${status} answer to ${method} ${path}`);
  const [, pattern, , schema] = answer;
  if (schema === null) return [];
  const validate = validatorOf(schema);
  if (validate(body)) return [];
  return (validate.errors ?? []).map((e: ErrorObject) => `${pattern}${e.instancePath}: ${e.message} ${JSON.stringify(e.params)}`);
}
