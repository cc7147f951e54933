/**
 * Savepoints and stops through the API, as Flink's asynchronous operations:
 * `POST /jobs/:jid/savepoints` {"target-directory", "cancel-job"} and
 * `POST /jobs/:jid/stop` {"targetDirectory", "drain"} answer 202 with a
 * `request-id`; `GET /jobs/:jid/savepoints/:rid` tells its status, then the
 * savepoint's location or the cause of its failure. Without a directory the
 * configuration's `state.savepoints.dir` is used.
 */
import type { JobClient } from "../../deploy/job-client.ts";
import { jobOf, type RestContext } from "../rest-context.ts";
import { RestError } from "../rest-error.ts";
import { ok, type RestResponse, type Router } from "../router.ts";

/** The fields of a JSON object body (an absent body is an empty object); a 400 for anything else. */
function fields(body: unknown): Record<string, unknown> {
  if (body === undefined) return {};
  if (typeof body !== "object" || body === null || Array.isArray(body)) throw new RestError(400, "the request body must be a JSON object");
  return body as Record<string, unknown>;
}

function optional<T>(value: unknown, type: "string" | "boolean", name: string): T | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== type) throw new RestError(400, `'${name}' must be a ${type}, got ${JSON.stringify(value)}`);
  return value as T;
}

function directory(given: string | undefined, context: RestContext, field: string): string {
  const dir = given ?? context.configuration()["state.savepoints.dir"];
  if (dir === undefined || dir === "") throw new RestError(400, `Config key [state.savepoints.dir] is not set. Property [${field}] must be provided.`);
  return dir;
}

function accepted(requestId: string): RestResponse {
  return { status: 202, body: { "request-id": requestId } };
}

/** Flink's SerializedThrowable of `error`. */
function failureCause(error: Error): object {
  return {
    class: error.name,
    "stack-trace": error.stack ?? `${error.name}: ${error.message}`,
    "serialized-throwable": Buffer.from(`${error.name}: ${error.message}`).toString("base64"),
  };
}

function triggerSavepoint(job: JobClient, body: unknown, context: RestContext): RestResponse {
  const f = fields(body);
  const dir = directory(optional<string>(f["target-directory"], "string", "target-directory"), context, "target-directory");
  const cancel = optional<boolean>(f["cancel-job"], "boolean", "cancel-job") ?? false;
  return accepted(
    context.operations.start(job, async () => {
      const path = await job.triggerSavepoint(dir);
      if (cancel) await job.cancel();
      return path;
    }),
  );
}

function stopWithSavepoint(job: JobClient, body: unknown, context: RestContext): RestResponse {
  const f = fields(body);
  const dir = directory(optional<string>(f["targetDirectory"], "string", "targetDirectory"), context, "targetDirectory");
  const drain = optional<boolean>(f["drain"], "boolean", "drain") ?? false;
  return accepted(context.operations.start(job, () => job.stopWithSavepoint(dir, { drain })));
}

/** Adds the savepoint routes to `router`. */
export function savepointRoutes(router: Router, context: RestContext): void {
  router
    .post("/jobs/:jid/savepoints", ({ params, body }) => triggerSavepoint(jobOf(context, params["jid"]!), body, context))
    .post("/jobs/:jid/stop", ({ params, body }) => stopWithSavepoint(jobOf(context, params["jid"]!), body, context))
    .get("/jobs/:jid/savepoints/:rid", ({ params }) => {
      const job = jobOf(context, params["jid"]!);
      const state = context.operations.state(job.getJobId(), params["rid"]!);
      if (!state) throw new RestError(404, `There is no savepoint operation with request id ${params["rid"]} for job ${job.getJobId()}`);
      switch (state.kind) {
        case "in-progress":
          return ok({ status: { id: "IN_PROGRESS" } });
        case "completed":
          return ok({ status: { id: "COMPLETED" }, operation: { location: state.location } });
        case "failed":
          return ok({ status: { id: "COMPLETED" }, operation: { "failure-cause": failureCause(state.error) } });
      }
    });
}
